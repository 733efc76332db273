import { eq, inArray, sql } from 'drizzle-orm';
import { transactions } from '../src/db/schema';
import { buildTestWorld, type TestWorld } from './helpers';
import { AFCON, createCampaigns, insertVotes, rowsOf, WORLD_CUP } from './campaign-fixtures';
import { voteCountsKept, voteCountsRecounted } from './recount-fixtures';

jest.setTimeout(30_000);

let world: TestWorld;
beforeAll(async () => {
  world = await buildTestWorld();
  await createCampaigns(world);
}, 60_000);
afterAll(() => world.close());

const rows = (query: ReturnType<typeof sql>) => rowsOf(world, query);
const kept = () => voteCountsKept(world);
const recounted = () => voteCountsRecounted(world);

/** `n` votes in one statement from a pool of voters, some processed, some pending, some failed. */
async function insertMany(n: number, campaign: { key: string; code: string }, rounds: string[]) {
  await world.db.execute(sql`
    insert into transactions (service_code, campaign_key, round, phone_number, network, team_name, team_name2, is_complete, is_deleted, created_at)
    select ${campaign.code}, ${campaign.key}, ${JSON.stringify(rounds)}::jsonb ->> (i % ${rounds.length}), '25677' || lpad((i % 37)::text, 7, '0'), 'MTN',
      (array['Argentina', 'France', 'Brazil'])[1 + i % 3], case when i % 4 = 0 then 'Spain' end,
      i % 5 < 3, i % 5 = 3, timestamptz '2022-12-01 10:00:00Z' + (i / 3) * interval '1 second'
    from generate_series(1, ${n}) as i`);
}

describe('campaign vote counts (kept by triggers on transactions)', () => {
  it('counts processed votes per round and over all rounds, with the last vote time, totals and teams', async () => {
    await insertMany(600, WORLD_CUP, ['general', 'week2', 'week3', 'week4', 'final']);
    await insertMany(200, AFCON, ['general']);
    await insertVotes(world, WORLD_CUP, [{ phoneNumber: '256781111111', round: 'week2', teamName: 'Ghana', teamName2: 'Wales' }]);
    const now = await kept();
    expect(now).toEqual(await recounted());
    expect(now.voters.length).toBeGreaterThan(37);
  });

  it("keeps a voter's 50 newest votes, in order, as its ranking row carries them", async () => {
    await world.db.execute(sql`
      insert into transactions (service_code, campaign_key, round, phone_number, network, team_name, is_complete, created_at)
      select ${WORLD_CUP.code}, ${WORLD_CUP.key}, 'week3', '256785555555', 'MTN', 'Ghana', true, timestamptz '2022-12-02 10:00:00Z' + i * interval '1 minute'
      from generate_series(1, 60) as i`);
    await insertVotes(world, WORLD_CUP, [{ phoneNumber: '256785555555', round: 'final', teamName: 'France' }]);
    const now = await kept();
    expect(now).toEqual(await recounted());
    const busy = now.voters.filter((voter) => voter.phone_number === '256785555555');
    expect(busy.map((voter) => [voter.round, (voter.recent as unknown as string[]).length])).toEqual([['all', 50], ['final', 1], ['week3', 50]]);
  });

  it('follows settles, failures, moves and ticket calls, one row or many per statement', async () => {
    const pending = await rows(sql`select id from transactions where campaign_key is not null and not is_complete and not is_deleted order by id limit 40`);
    const ids = pending.map((r) => String(r.id));
    // Settled one by one (the payment callback), then failed in bulk (the sweeper).
    for (const id of ids.slice(0, 10)) await world.db.update(transactions).set({ isComplete: true }).where(eq(transactions.id, id));
    await world.db.update(transactions).set({ isDeleted: true }).where(inArray(transactions.id, ids.slice(10)));
    // A processed vote taken back, one moved to another round and voter, one moved in time.
    const processed = await rows(sql`select id from transactions where campaign_key is not null and is_complete order by created_at desc limit 3`);
    await world.db.update(transactions).set({ isComplete: false, isDeleted: true }).where(eq(transactions.id, String(processed[0].id)));
    await world.db.update(transactions).set({ round: 'final', phoneNumber: '256789999999' }).where(eq(transactions.id, String(processed[1].id)));
    await world.db.update(transactions).set({ createdAt: new Date('2022-11-20T08:00:00Z') }).where(eq(transactions.id, String(processed[2].id)));
    // Changes that count nothing: resolving, message status, a ticket call.
    await world.db.execute(sql`update transactions set is_resolved = true, message_statuses = 'Delivered' where campaign_key is not null and is_deleted`);
    await world.db.insert(transactions).values({ serviceCode: '*217*1#', phoneNumber: '256770000001', network: 'MTN', isComplete: true });
    expect(await kept()).toEqual(await recounted());
  });

  it('takes deleted votes out, down to voters with none left', async () => {
    const voter = await rows(sql`select phone_number from campaign_voters where campaign_key = ${WORLD_CUP.key} and round = 'all' and votes > 0 limit 1`);
    await world.db.delete(transactions).where(eq(transactions.phoneNumber, String(voter[0].phone_number)));
    const some = await rows(sql`select id from transactions where campaign_key = ${AFCON.key} order by id limit 50`);
    await world.db.delete(transactions).where(inArray(transactions.id, some.map((r) => String(r.id))));
    expect(await kept()).toEqual(await recounted());
    const gone = await rows(sql`select votes, last_vote_at from campaign_voters where campaign_key = ${WORLD_CUP.key} and phone_number = ${String(voter[0].phone_number)} and round = 'all'`);
    expect(gone).toEqual([{ votes: 0, last_vote_at: null }]);
  });
});
