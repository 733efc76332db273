import { sql } from 'drizzle-orm';
import type { LoginUser } from '../../src/domain/entities';
import { isGsm7 } from '../../src/domain/sms-segments';
import { seedDemoData } from '../src/db/seed';
import { seedTransactions } from '../src/db/seed-generators';
import { DEMO_SUSPICIOUS_VOTES } from '../src/db/seed-votes';
import { voteIntegrityRepository } from '../src/repositories/vote-integrity-repository';
import { AFCON_2024, DEMO_AGENT_PASSWORD, DEMO_AGENTS, DEMO_SUPER_USER, WORLD_CUP_2022 } from '../src/db/seed-data';
import { buildTestWorld, type TestWorld } from './helpers';

jest.setTimeout(60_000);

const PAYMENT_TIMEOUT_MINUTES = 15;

let world: TestWorld;
let summary: string;
let seededAt: Date;
beforeAll(async () => {
  world = await buildTestWorld();
  seededAt = new Date();
  summary = await seedDemoData(world.db, { timeZone: 'Africa/Kampala', paymentTimeoutMinutes: PAYMENT_TIMEOUT_MINUTES });
}, 120_000);
afterAll(() => world.close());

const rows = async <T>(query: ReturnType<typeof sql>) => ((await world.db.execute(query)) as unknown as { rows: T[] }).rows;
const one = async <T>(query: ReturnType<typeof sql>) => (await rows<T>(query))[0];

describe('seedDemoData', () => {
  // How fast the seed runs belongs to the benches, not here: a CPU bound in a test fails CI on a busy machine.
  it('says what it loaded', () => {
    expect(summary).toContain(DEMO_AGENT_PASSWORD);
    expect(summary).toContain('40000 transactions');
  });

  it('makes agents and a super-user who can sign in, agents seeing their own codes', async () => {
    const signIn = async (userName: string, password: string) => (await world.login(userName, password)).user as unknown as LoginUser;
    const kato = await signIn(DEMO_AGENTS[0], DEMO_AGENT_PASSWORD);
    expect(kato.role).toBe('agent');
    expect(kato.serviceCode.length).toBeGreaterThan(0);
    expect(kato.serviceCode[0].name).toMatch(/^\*217\*\d+#$/);
    expect((await signIn(DEMO_SUPER_USER.userName, DEMO_SUPER_USER.password)).serviceCode).toHaveLength(25);
  });

  it('prices every level of every category and registers the 25 codes', async () => {
    const { categories, unpriced } = await one<{ categories: number; unpriced: number }>(sql`
      select count(*)::int as categories, count(*) filter (where num_nulls(${sql.raw(priceColumns())}) > 0)::int as unpriced from categories`);
    expect(categories).toBe(6);
    expect(unpriced).toBe(0);
    const codes = await rows<{ name: string }>(sql`select name from service_codes where category_id is not null order by name`);
    expect(codes.map((c) => c.name).sort()).toEqual(Array.from({ length: 25 }, (_, i) => `*217*${i + 1}#`).sort());
  });

  it('writes contents and SMS that fit one GSM-7 message', async () => {
    const contents = await rows<{ message: string; active: boolean }>(sql`select message, active from contents`);
    expect(contents.some((c) => !c.active)).toBe(true);
    for (const { message } of contents) expect(message.length <= 160 && isGsm7(message)).toBe(true);
    const sms = await rows<{ status: string; n: number }>(sql`select status, count(*)::int as n from sms_messages group by status`);
    expect(sms.map((s) => s.status).sort()).toEqual(['delivered', 'failed', 'sent']);
  });

  it('spreads transactions over 30 days, today included, processed, refused and timed out', async () => {
    const t = await one<{ total: number; processed: number; failed: number; timedOut: number; today: number; future: number; unpriced: number; badPhones: number }>(sql`
      select count(*)::int as total,
        count(*) filter (where is_complete)::int as processed,
        count(*) filter (where is_deleted and not is_complete)::int as failed,
        count(*) filter (where message_statuses = 'Payment timed out' and callback_time <= now())::int as "timedOut",
        count(*) filter (where created_at >= ((now() at time zone 'Africa/Kampala')::date)::timestamp at time zone 'Africa/Kampala')::int as today,
        count(*) filter (where created_at > now() or created_at < now() - interval '31 days')::int as future,
        count(*) filter (where amount is null)::int as unpriced,
        count(*) filter (where phone_number !~ '^2567[0-9]{8}$')::int as "badPhones"
      from transactions where campaign_key is null`);
    expect(t.total).toBe(40_000);
    expect(t.processed / t.total).toBeGreaterThan(0.74);
    expect(t.failed / t.total).toBeGreaterThan(0.19);
    expect(t.timedOut / t.total).toBeGreaterThan(0.07);
    expect(t.today).toBeGreaterThan(0);
    expect(t.future + t.unpriced + t.badPhones).toBe(0);
  });

  it('leaves no call stuck pending: each has a payment reference, and only those within the payment timeout are pending', async () => {
    const t = await one<{ unrequested: number; stale: number; staleVotes: number; settledWithout: number }>(sql`
      select count(*) filter (where payment_ref is null)::int as unrequested,
        count(*) filter (where not is_complete and not is_deleted and created_at < ${seededAt.toISOString()}::timestamptz - make_interval(mins => ${PAYMENT_TIMEOUT_MINUTES}))::int as stale,
        count(*) filter (where not is_complete and not is_deleted and campaign_key is not null and created_at < ${seededAt.toISOString()}::timestamptz - make_interval(mins => ${PAYMENT_TIMEOUT_MINUTES}))::int as "staleVotes",
        count(*) filter (where (is_complete or is_deleted) and callback_time is null)::int as "settledWithout"
      from transactions`);
    expect(t).toEqual({ unrequested: 0, stale: 0, staleVotes: 0, settledWithout: 0 });
  });

  it('records votes for both campaigns, games with a second team', async () => {
    const campaigns = await rows<{ key: string; teams: string[] }>(sql`select key, teams from campaigns order by key`);
    expect(campaigns.map((c) => [c.key, c.teams.length])).toEqual([
      [AFCON_2024.key, 24],
      [WORLD_CUP_2022.key, 32],
    ]);
    const votes = await rows<{ key: string; round: string; n: number; games: number }>(sql`
      select campaign_key as key, round, count(*)::int as n, count(team_name2)::int as games
      from transactions where campaign_key is not null group by 1, 2`);
    const byRound = Object.fromEntries(votes.map((v) => [`${v.key}/${v.round}`, v]));
    expect(Object.keys(byRound).sort()).toEqual(['afcon-2024/general', 'world-cup-2022/final', 'world-cup-2022/general', 'world-cup-2022/week2', 'world-cup-2022/week3', 'world-cup-2022/week4']);
    expect(byRound['world-cup-2022/week2'].games).toBe(byRound['world-cup-2022/week2'].n);
    expect(byRound['world-cup-2022/general'].games).toBe(0);
  });

  it("gives each campaign's suspicious list what it is for: a power-dialled number and a batch of fresh SIMs", async () => {
    expect(summary).toContain('84 suspicious ones');
    const integrity = voteIntegrityRepository(world.db);
    for (const campaign of [WORLD_CUP_2022, AFCON_2024]) {
      const { rows: flagged, total } = await integrity.suspiciousPage(campaign.key, campaign.rounds[0].key, 0, 50);
      expect(total).toBe(DEMO_SUSPICIOUS_VOTES.batch + 1);
      expect(flagged[0]).toMatchObject({ votes: DEMO_SUSPICIOUS_VOTES.dialled, flags: ['velocity'] });
      expect(flagged.slice(1).every((row) => row.votes === 1 && row.flags.join() === 'burst')).toBe(true);
    }
  });

  it('makes refunds in every state the flow leaves, within the database\'s rules, each with its timeline and a completed one\'s SMS', async () => {
    expect(summary).toMatch(/\d+ refunds/);
    const states = await rows<{ state: string; n: number }>(sql`select state, count(*)::int as n from refunds group by state order by state`);
    expect(states.map((s) => s.state)).toEqual(['approved', 'completed', 'failed', 'rejected', 'requested', 'submitted']);
    const odd = await one<{ unprocessed: number; over: number; unsettled: number; open: number; missingSteps: number; sms: number; completed: number }>(sql`
      select
        (select count(*)::int from refunds r join transactions t on t.id = r.transaction_id where not t.is_complete or t.is_deleted) as unprocessed,
        (select count(*)::int from refunds r join transactions t on t.id = r.transaction_id where r.amount > t.amount) as over,
        (select count(*)::int from refunds where (state in ('completed', 'failed')) <> (settled_at is not null)) as unsettled,
        (select count(*)::int from (select transaction_id from refunds where state in ('requested', 'approved', 'submitted', 'unknown') group by 1 having count(*) > 1) x) as open,
        (select count(*)::int from refunds r where not exists (select 1 from transaction_events e where e.kind = 'refund_requested' and e.detail->>'refundId' = r.id::text)
          or (r.state = 'completed' and not exists (select 1 from transaction_events e where e.kind = 'refund_completed' and e.detail->>'refundId' = r.id::text))) as "missingSteps",
        (select count(*)::int from transaction_events where kind = 'refund_sms_sent') as sms,
        (select count(*)::int from refunds where state = 'completed') as completed`);
    expect(odd).toMatchObject({ unprocessed: 0, over: 0, unsettled: 0, open: 0, missingSteps: 0 });
    expect(odd.sms).toBe(odd.completed);
    // The requester is customer care; someone else decided.
    const people = await one<{ requesters: string[]; selfDecided: number }>(sql`
      select (select array_agg(distinct u.role) from refunds r join users u on u.id = r.requested_by) as requesters,
        (select count(*)::int from refunds where decided_by = requested_by) as "selfDecided"`);
    expect(people).toEqual({ requesters: ['customer-care'], selfDecided: 0 });
  });

  it('does nothing the second time', async () => {
    expect(await seedDemoData(world.db, { timeZone: 'Africa/Kampala' })).toMatch(/^skipped/);
  });
});

describe('seedTransactions', () => {
  it('adds the asked number of transactions on the given codes', async () => {
    const codes = ['*217*3#', '*217*4#'];
    const before = await one<{ n: number }>(sql`select count(*)::int as n from transactions where service_code in ('*217*3#', '*217*4#')`);
    expect(await seedTransactions(world.db, { count: 1_000, days: 2, serviceCodes: codes })).toBe(1_000);
    const after = await one<{ n: number }>(sql`select count(*)::int as n from transactions where service_code in ('*217*3#', '*217*4#')`);
    expect(after.n - before.n).toBe(1_000);
  });
});

function priceColumns() {
  return [
    'ordinary', 'kibimba', 'vip', 'vvip', 'olukalala', 'bigsingle', 'singleandcorporate', 'overs', 'akatambula', 'family',
    'earlykickoff', 'doubles', 'latekickoff', 'normal', 'single', 'odd2', 'odd3', 'supper', 'corporate',
  ].map((level) => `price_${level}`).join(', ');
}
