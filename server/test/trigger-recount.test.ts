import { sql } from 'drizzle-orm';
import { contents } from '../src/db/schema';
import { AFCON_2024, WORLD_CUP_2022 } from '../src/db/seed-data';
import { seedCampaigns } from '../src/db/seed-votes';
import { ticketSender } from '../src/ingestion/ticket-sms';
import { rowsOf } from './campaign-fixtures';
import { buildTestWorld, type TestWorld } from './helpers';
import { dailyStatsCounted, dailyStatsKept, voteCountsKept, voteCountsRecounted, voterFiguresKept, voterFiguresRecounted } from './recount-fixtures';
import { createCatalogue } from './transactions-fixtures';

jest.setTimeout(120_000);

let world: TestWorld;
let ticketCode: string;
beforeAll(async () => {
  world = await buildTestWorld();
  await seedCampaigns(world.db);
  const { category, code } = await createCatalogue(world, null, { ordinary: 1000, vip: 5000 });
  ticketCode = code.name;
  await world.db.insert(contents).values([
    { categoryId: category.id, categoryLevel: 'vip', message: 'VIP ticket', active: true },
    { categoryId: category.id, categoryLevel: 'ordinary', message: 'Ordinary ticket', active: true },
  ]);
});
afterAll(() => world.close());

/** A whole session: every hop up to `text`, as the network sends them. */
async function session(sessionId: string, serviceCode: string, phoneNumber: string, text: string) {
  const answers = text.split('*');
  for (let i = 0; i <= answers.length; i += 1) await world.hop({ sessionId, serviceCode, phoneNumber, text: answers.slice(0, i).join('*') });
}

/** Ticket purchases (vip, ordinary, a cancel), World Cup votes on three rounds and AFCON votes, from a small pool of numbers. */
const plan = (i: number): [string, string] =>
  ([
    [ticketCode, '1*1'],
    [ticketCode, '2*1'],
    [ticketCode, '1*2'],
    [WORLD_CUP_2022.serviceCode, '1*3*1'],
    [WORLD_CUP_2022.serviceCode, '2*2*2*1'],
    [WORLD_CUP_2022.serviceCode, '5*1*1'],
    [AFCON_2024.serviceCode, '2*1'],
  ] as [string, string][])[i % 7];

describe('the counts the triggers keep, after a mixed run through the product', () => {
  it('equal a recount from transactions: sales, votes, repeated and late callbacks, failures, timeouts, resolves, resends', async () => {
    const runs = Array.from({ length: 84 }, (_, i) => i);
    for (let i = 0; i < runs.length; i += 12) {
      await Promise.all(runs.slice(i, i + 12).map((n) => session(`mixed-${n}`, plan(n)[0], `2567720${String(n % 30).padStart(5, '0')}`, plan(n)[1])));
    }
    const calls = await rowsOf(world, sql`select payment_ref from transactions where session_id like 'mixed-%' order by session_id`);
    expect(calls.length).toBeGreaterThan(60);

    // The provider's word: most paid (some twice at once, some then a late FAILED), a share refused, a few never answered.
    await Promise.all(
      calls.map(async ({ payment_ref: ref }, n) => {
        const reference = String(ref);
        if (n % 11 === 0) return;
        if (n % 5 === 0) return void (await world.pay(reference, 'FAILED'));
        if (n % 3 === 0) await Promise.all([world.pay(reference, 'SUCCESSFUL'), world.pay(reference, 'SUCCESSFUL')]);
        else await world.pay(reference, 'SUCCESSFUL');
        if (n % 4 === 0) await world.pay(reference, 'FAILED');
      }),
    );

    // The unanswered ones time out: made old (a move the counts follow), then swept with the provider still saying PENDING.
    await world.db.execute(sql`update transactions set created_at = created_at - interval '1 hour' where session_id like 'mixed-%' and not is_complete and not is_deleted`);
    const sweeper = world.app.ingestion.startSweeper({ timeoutMinutes: 15, everyMs: 3_600_000 });
    await sweeper.stop();
    expect(await rowsOf(world, sql`select count(*)::int as n from transactions where session_id like 'mixed-%' and not is_complete and not is_deleted`)).toEqual([{ n: 0 }]);

    // Staff: failed calls resolved, one twice; a failed ticket SMS sent again.
    const { headers } = await world.headersFor('admin');
    const failed = await rowsOf(world, sql`select id from transactions where session_id like 'mixed-%' and is_deleted order by id limit 6`);
    for (const { id } of [...failed, failed[0]]) {
      const response = await world.app.inject({ method: 'POST', url: `/v1/transactions/to/give/attention/${id}`, headers, payload: { isResolved: true } });
      expect(response.statusCode).toBe(200);
    }
    const [paid] = await rowsOf(world, sql`select id, phone_number, ticket_message from transactions where session_id like 'mixed-%' and is_complete and ticket_message is not null limit 1`);
    await ticketSender(world.db, { name: 'down', send: () => Promise.reject(new Error('gateway down')) }).send(
      { id: String(paid.id), phoneNumber: String(paid.phone_number), ticketMessage: String(paid.ticket_message) },
      { kind: 'sms_sent', actor: 'system' },
    );
    expect((await world.app.inject({ method: 'POST', url: `/v1/transactions/${paid.id}/resend-ticket`, headers })).statusCode).toBe(200);

    expect(await dailyStatsKept(world)).toEqual(await dailyStatsCounted(world));
    const votes = await voteCountsKept(world);
    expect(votes).toEqual(await voteCountsRecounted(world));
    expect(votes.voters.length).toBeGreaterThan(5);
    expect(await voterFiguresKept(world)).toEqual(await voterFiguresRecounted(world));
  });

  it('equal a recount with votes held, released, rejected, inserted held and deleted', async () => {
    const settledVotes = sql`select id from transactions where session_id like 'mixed-%' and campaign_key is not null and is_complete order by id`;
    const ids = (await rowsOf(world, settledVotes)).map(({ id }) => String(id));
    expect(ids.length).toBeGreaterThan(12);
    const among = (from: number, to: number) => sql`(${sql.join(ids.slice(from, to).map((id) => sql`${id}::uuid`), sql`, `)})`;
    const before = await voteCountsKept(world);

    await world.db.execute(sql`update transactions set vote_hold = 'held' where id in ${among(0, 12)}`);
    const held = await voteCountsKept(world);
    expect(held).toEqual(await voteCountsRecounted(world));
    expect(await voterFiguresKept(world)).toEqual(await voterFiguresRecounted(world));
    expect(held.totals).not.toEqual(before.totals);

    // Released twice over (a second release finds nothing held), rejected, and a held vote's other changes.
    const release = sql`update transactions set vote_hold = 'released' where vote_hold = 'held' and id in ${among(0, 4)}`;
    await world.db.execute(release);
    await world.db.execute(release);
    await world.db.execute(sql`update transactions set vote_hold = 'rejected', vote_hold_reason = 'power dialled' where vote_hold = 'held' and id in ${among(4, 8)}`);
    await world.db.execute(sql`update transactions set created_at = created_at - interval '1 minute', message_statuses = 'Sent' where id in ${among(8, 10)}`);
    await world.db.execute(sql`insert into transactions (service_code, phone_number, network, amount, is_complete, campaign_key, round, team_name, vote_hold, created_at)
      select service_code, phone_number, network, amount, true, campaign_key, round, team_name, 'held', created_at + interval '1 second' from transactions where id in ${among(0, 3)}`);
    expect(await voteCountsKept(world)).toEqual(await voteCountsRecounted(world));
    expect(await voterFiguresKept(world)).toEqual(await voterFiguresRecounted(world));

    // Every hold released: the counts are the counts before anything was held, less the rejected.
    await world.db.execute(sql`update transactions set vote_hold = 'released' where vote_hold = 'held'`);
    expect(await voteCountsKept(world)).toEqual(await voteCountsRecounted(world));
    expect(await voterFiguresKept(world)).toEqual(await voterFiguresRecounted(world));
    await world.db.execute(sql`delete from transactions where vote_hold is not null and session_id is null`);
    await world.db.execute(sql`update transactions set vote_hold = null where id in ${among(4, 8)}`);
    const after = await voteCountsKept(world);
    expect(after).toEqual(await voteCountsRecounted(world));
    expect(await voterFiguresKept(world)).toEqual(await voterFiguresRecounted(world));
    // Two votes were moved a minute back, so last-vote times may differ; every count is as before.
    expect({ totals: after.totals, teams: after.teams }).toEqual({ totals: before.totals, teams: before.teams });
  });

  it('keep each number\'s vote figures as a recount does when votes settle out of order, close together, in two rounds', async () => {
    const [first, second] = WORLD_CUP_2022.rounds.map((round) => round.key);
    const start = Date.UTC(2022, 11, 18, 15);
    // Two numbers, 16 votes each within three minutes over two rounds, a pair at the same instant; paid in a shuffled order.
    const votes = Array.from({ length: 32 }, (_, i) => ({
      phone: `25677099${String(i % 2).padStart(4, '0')}`,
      round: i % 3 === 0 ? second : first,
      team: i % 4 === 0 ? 'Brazil' : 'France',
      at: new Date(start + ((i * 7919) % 180) * 1000 + (i === 5 ? -5000 : 0)).toISOString(),
    }));
    votes[7].at = votes[9].at;
    const ids: string[] = [];
    for (const vote of votes) {
      const [row] = await rowsOf(
        world,
        sql`insert into transactions (service_code, phone_number, network, amount, is_complete, campaign_key, round, team_name, created_at)
          values (${WORLD_CUP_2022.serviceCode}, ${vote.phone}, 'MTN', 500, false, ${WORLD_CUP_2022.key}, ${vote.round}, ${vote.team}, ${vote.at}::timestamptz) returning id`,
      );
      ids.push(String(row.id));
    }
    const order = ids.map((id, i) => ({ id, key: (i * 13) % 32 })).sort((a, b) => a.key - b.key);
    for (const [n, { id }] of order.entries()) {
      await world.db.execute(sql`update transactions set is_complete = true, vote_hold = ${n % 5 === 0 ? 'held' : null} where id = ${id}::uuid`);
      if (n % 8 === 7) expect(await voterFiguresKept(world)).toEqual(await voterFiguresRecounted(world));
    }
    const figures = (await voterFiguresKept(world)).filter((row) => String(row.phone_number).startsWith('25677099'));
    expect(figures.length).toBe(6);
    expect(Math.max(...figures.map((row) => Number(row.peak)))).toBeGreaterThan(3);
    // A batch of them deleted, then the rest moved back by a day: counted again, to none left for the deleted.
    await world.db.execute(sql`delete from transactions where phone_number = '256770990000' and round = ${second}`);
    await world.db.execute(sql`update transactions set created_at = created_at - interval '1 day' where phone_number like '25677099%'`);
    expect(await voterFiguresKept(world)).toEqual(await voterFiguresRecounted(world));
  });
});
