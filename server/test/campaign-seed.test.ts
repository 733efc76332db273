import { sql } from 'drizzle-orm';
import { DEMO_CAMPAIGNS } from '../src/db/seed-data';
import { DEMO_VOTES_PER_CAMPAIGN, seedCampaigns, seedVotes } from '../src/db/seed-votes';
import { buildTestWorld, type TestWorld } from './helpers';
import { rowsOf } from './campaign-fixtures';

jest.setTimeout(60_000);

let world: TestWorld;
let seededAt: Date;
beforeAll(async () => {
  world = await buildTestWorld();
  await seedCampaigns(world.db);
  seededAt = new Date();
  for (const campaign of DEMO_CAMPAIGNS) await seedVotes(world.db, { campaign, count: DEMO_VOTES_PER_CAMPAIGN, paymentTimeoutMinutes: 15 });
}, 120_000);
afterAll(() => world.close());

describe('demo votes (seedVotes)', () => {
  // How fast the seed runs belongs to the benches (their seed times are in bench/RESULTS.md), not here:
  // a CPU bound in a test failed CI on a busy machine.
  it('loads at least 50,000 votes, processed, refused and timed out, pending only within the payment timeout', async () => {
    const [t] = await rowsOf(world, sql`select count(*)::int as total, count(*) filter (where is_complete)::int as processed,
        count(*) filter (where is_deleted and message_statuses = 'Payment failed')::int as failed,
        count(*) filter (where is_deleted and message_statuses = 'Payment timed out')::int as "timedOut",
        count(*) filter (where not is_complete and not is_deleted and created_at < ${seededAt.toISOString()}::timestamptz - interval '15 minutes')::int as stale,
        count(*) filter (where created_at > now() or phone_number !~ '^2567[0-9]{8}$')::int as odd
      from transactions where campaign_key is not null`);
    expect(t.total).toBeGreaterThanOrEqual(50_000);
    expect(Number(t.processed) / Number(t.total)).toBeGreaterThan(0.8);
    expect(Number(t.failed)).toBeGreaterThan(0);
    expect(Number(t.timedOut)).toBeGreaterThan(0);
    expect(t.stale).toBe(0);
    expect(t.odd).toBe(0);
  });

  it('has a few numbers voting hundreds of times and a long tail of occasional voters', async () => {
    for (const { key } of DEMO_CAMPAIGNS) {
      const voters = await rowsOf(world, sql`select votes from campaign_voters where campaign_key = ${key} and round = 'all' and votes > 0 order by votes desc`);
      const counts = voters.map((v) => Number(v.votes));
      expect(counts[0]).toBeGreaterThanOrEqual(300);
      expect(counts.filter((n) => n >= 100).length).toBeLessThan(20);
      expect(counts.filter((n) => n <= 5).length).toBeGreaterThan(counts.length / 2);
    }
  });

  it('makes games with a second team in the week rounds and the final between the finalists', async () => {
    const rounds = await rowsOf(world, sql`select round, count(*)::int as n, count(team_name2)::int as games,
        count(*) filter (where team_name = team_name2)::int as same
      from transactions where campaign_key = 'world-cup-2022' group by 1 order by 1`);
    for (const r of rounds) {
      expect([r.round, r.games]).toEqual([r.round, r.round === 'general' ? 0 : r.n]);
      expect(r.same).toBe(0);
    }
    const fixtures = await rowsOf(world, sql`select round, count(distinct least(team_name, team_name2) || greatest(team_name, team_name2))::int as n
      from transactions where campaign_key = 'world-cup-2022' and round like 'week%' group by 1 order by 1`);
    // The real knock-out games: the round of 16, the quarter-finals, the semi-finals.
    expect(fixtures).toEqual([{ round: 'week2', n: 8 }, { round: 'week3', n: 4 }, { round: 'week4', n: 2 }]);
    const finals = await rowsOf(world, sql`select distinct team_name, team_name2 from transactions where round = 'final' order by 1`);
    expect(finals).toEqual([{ team_name: 'Argentina', team_name2: 'France' }, { team_name: 'France', team_name2: 'Argentina' }]);
  });
});
