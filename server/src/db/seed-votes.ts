import { sql, type SQL } from 'drizzle-orm';
import { DEFAULT_VOTE_PRICE } from '../../../src/domain/campaign-rounds';
import type { DbOrTx } from './client';
import { campaigns } from './schema';
import { DEMO_CAMPAIGNS, type DemoCampaign } from './seed-data';
import { batchId, callOutcomeSql, failureStatusSql, networkSql, phoneSql, sessionPrefix, settledAtSql } from './seed-generators';

/** The two vote campaigns (World Cup 2022, AFCON 2024); inserting them again changes nothing. */
export async function seedCampaigns(db: DbOrTx) {
  await db
    .insert(campaigns)
    .values(DEMO_CAMPAIGNS.map(({ key, name, serviceCode, rounds, teams, opensAt }) => ({ key, name, serviceCode, rounds, teams, status: 'live' as const, createdAt: new Date(opensAt) })))
    .onConflictDoNothing();
}

/** A demo vote's ticket SMS, for the pick `team` (an SQL expression). */
const demoVoteTicket = (team: SQL, campaign: DemoCampaign) => sql`'Thank you for voting ' || ${team} || ' in ' || ${campaign.name} || '. Good luck!'`;

/** Demo votes per campaign: 50,000 in all. */
export const DEMO_VOTES_PER_CAMPAIGN = 25_000;

export interface SeedVotesOptions {
  campaign: DemoCampaign;
  count: number;
  /** Spread over this many days back from now (default 30). */
  days?: number;
  /** Distinct phone numbers that may vote (default one per ten votes, at least 100). */
  voters?: number;
  /** PAYMENT_TIMEOUT_MINUTES: unanswered votes younger than this are left pending; without it none are. */
  paymentTimeoutMinutes?: number;
}

/**
 * Adds campaign votes with set-based SQL, in chunks of 100,000: ~85% processed, ~10% failed, ~5%
 * unanswered (pending within the payment timeout, timed out before it: `callOutcomeSql`). Voters
 * are drawn from a pool with a steep power law, so a few numbers vote hundreds of times and most a
 * handful; favourite teams are picked more often; rounds with games (week rounds,
 * the final) pick one of the round's own games, as the USSD menu offers them. Phone
 * numbers follow the ticket calls' pool formula (seed-generators.ts), so some voters also buy tickets.
 */
export async function seedVotes(db: DbOrTx, options: SeedVotesOptions): Promise<number> {
  const { campaign } = options;
  if (options.count <= 0) return 0;
  const days = Math.max(1, options.days ?? 30);
  const voters = Math.max(1, options.voters ?? Math.max(100, Math.floor(options.count / 10)));
  const teams = JSON.stringify(campaign.teams);
  const rounds = JSON.stringify(campaign.rounds.map((round) => round.key));
  // Each game round's own games, as the menu offers them.
  const games = JSON.stringify(Object.fromEntries(campaign.rounds.flatMap((round) => (round.kind === 'games' ? [[round.key, round.games ?? []]] : []))));
  for (let done = 0; done < options.count; done += 100_000) {
    const chunk = Math.min(100_000, options.count - done);
    await db.execute(sql`
      with drawn as (
        select g, now() - random() * make_interval(days => ${days}) as created_at,
          random() as r_status, random() as r_extra,
          (${rounds}::jsonb ->> floor(random() * jsonb_array_length(${rounds}::jsonb))::int) as round,
          floor(power(random(), 1.5) * jsonb_array_length(${teams}::jsonb))::int as team_idx,
          random() as r_fixture,
          floor(power(random(), 3) * ${voters})::int as k
        from generate_series(1, ${chunk}::int) g
      ),
      -- A vote in a game round picks one of its fixtures, the favourite's earlier ones more often,
      -- and names its pick first: the favourite 60% of the time.
      fixtures as (
        select d.*, ${phoneSql(sql`d.k`)} as phone, ${games}::jsonb -> d.round as round_games
        from drawn d
      ),
      chosen as (
        select x.*, x.round_games -> floor(power(x.r_fixture, 1.3) * jsonb_array_length(x.round_games))::int as game
        from fixtures x
      ),
      picked as (
        select c.*, ${callOutcomeSql(sql`c.r_status`, sql`c.created_at`, { processed: 0.85, failed: 0.1 }, options.paymentTimeoutMinutes)} as outcome,
          case when c.game is null then ${teams}::jsonb ->> c.team_idx
               else c.game ->> (case when c.r_extra < 0.6 then 0 else 1 end) end as team,
          case when c.game is not null then c.game ->> (case when c.r_extra < 0.6 then 1 else 0 end) end as team2
        from chosen c
      )
      insert into transactions (service_code, phone_number, network, amount, session_id, payment_ref, is_complete, is_deleted,
        callback_time, message_statuses, ticket_message, campaign_key, round, team_name, team_name2, created_at)
      select ${campaign.serviceCode}, p.phone, ${networkSql(sql`p.k`)}, ${DEFAULT_VOTE_PRICE},
        ${sessionPrefix()} || lpad(p.g::text, 7, '0'),
        'MP' || ${batchId()} || lpad(p.g::text, 7, '0'),
        p.outcome = 'processed',
        p.outcome in ('failed', 'timedOut'),
        ${settledAtSql(sql`p.outcome`, sql`p.created_at`, sql`p.r_extra`, options.paymentTimeoutMinutes)},
        case when p.outcome = 'processed' then 'Delivered' else ${failureStatusSql(sql`p.outcome`)} end,
        case when p.outcome = 'processed' then ${demoVoteTicket(sql`p.team`, campaign)} end,
        ${campaign.key}, p.round, p.team, p.team2, p.created_at
      from picked p
    `);
  }
  return options.count;
}

/** The demo's suspicious votes per campaign: a power-dialled number's and a batch of fresh SIMs'. */
export const DEMO_SUSPICIOUS_VOTES = { dialled: 30, batch: 12 } as const;

/**
 * What the suspicious list is for, in the demo: in each campaign's first round two days ago, a
 * power-dialled number (30 paid votes within 90 seconds: `velocity`) and a batch of 12 fresh SIMs
 * of one block of numbers casting their first vote for the same pick within a minute (`burst`).
 * Their numbers (Airtel, 256 7099 9…) lie outside the random voters' pool, so nothing else moves them.
 */
export async function seedSuspiciousVotes(db: DbOrTx, campaign: DemoCampaign, index: number): Promise<number> {
  const { dialled, batch } = DEMO_SUSPICIOUS_VOTES;
  const round = campaign.rounds[0].key;
  await db.execute(sql`
    with anomalies as (
      select ${`25670999${index}001`}::text as phone, ${campaign.teams[0]}::text as team, g * 3 as seconds, g from generate_series(0, ${dialled - 1}::int) g
      union all
      select ${`25670999${index + 5}`}::text || lpad(g::text, 3, '0'), ${campaign.teams[1]}::text, 3600 + g * 4, ${dialled} + g from generate_series(1, ${batch}::int) g
    ), timed as (select a.*, now() - interval '2 days' + make_interval(secs => a.seconds) as created_at from anomalies a)
    insert into transactions (service_code, phone_number, network, amount, session_id, payment_ref, is_complete, is_deleted,
      callback_time, message_statuses, ticket_message, campaign_key, round, team_name, created_at)
    select ${campaign.serviceCode}, t.phone, 'Airtel', ${DEFAULT_VOTE_PRICE}, ${sessionPrefix()} || lpad(t.g::text, 7, '0'), 'MP' || ${batchId()} || lpad(t.g::text, 7, '0'),
      true, false, t.created_at + interval '20 seconds', 'Delivered',
      ${demoVoteTicket(sql`t.team`, campaign)}, ${campaign.key}, ${round}, t.team, t.created_at
    from timed t`);
  return dialled + batch;
}
