import { sql } from 'drizzle-orm';
import { rowsOf } from './campaign-fixtures';
import type { TestWorld } from './helpers';

/**
 * What the triggers on transactions keep (daily counts, campaign vote counts) beside the same
 * figures counted afresh from the calls: a test compares the two after whatever it did.
 */

const codesFilter = (column: ReturnType<typeof sql>, codes?: string[]) => (codes ? sql`${column} in (${sql.join(codes.map((code) => sql`${code}`), sql`, `)})` : sql`true`);

/** The daily counts as the triggers keep them, zero rows left out. */
export const dailyStatsKept = (world: TestWorld, codes?: string[]) =>
  rowsOf(
    world,
    sql`select service_code, day::text, dimension, key, is_complete, is_deleted, sum(calls)::int as calls, sum(amount)::bigint::text as amount
    from transaction_daily_stats where ${codesFilter(sql`service_code`, codes)}
    group by 1, 2, 3, 4, 5, 6 having sum(calls) <> 0
    order by 1, 2, 3, 4, 5, 6`,
  );

/** The same counts computed from the calls themselves (in the test world's zone, Africa/Kampala). */
export const dailyStatsCounted = (world: TestWorld, codes?: string[]) =>
  rowsOf(
    world,
    sql`select t.service_code, (t.created_at at time zone 'Africa/Kampala')::date::text as day, d.dimension, d.key,
           t.is_complete, t.is_deleted, count(*)::int as calls, coalesce(sum(t.amount), 0)::bigint::text as amount
    from transactions t
    cross join lateral (values
      ('hour', extract(hour from t.created_at at time zone 'Africa/Kampala')::int::text),
      ('level', coalesce(t.category_level, '')),
      ('network', t.network)) as d(dimension, key)
    where ${codesFilter(sql`t.service_code`, codes)}
    group by 1, 2, 3, 4, 5, 6
    order by 1, 2, 3, 4, 5, 6`,
  );

/** The vote counts as the triggers keep them, rows at zero left out; a voter's recent votes as their ids, newest first. */
export const voteCountsKept = async (world: TestWorld) => ({
  voters: await rowsOf(
    world,
    sql`select campaign_key, round, phone_number, votes, last_vote_at::text as last,
      array(select j ->> '_id' from json_array_elements(recent_votes::json) j) as recent
    from campaign_voters where votes <> 0 order by 1, 2, 3`,
  ),
  totals: await rowsOf(
    world,
    sql`select campaign_key, round, sum(votes)::int as votes, sum(voters)::int as voters from campaign_round_totals
      group by 1, 2 having sum(votes) <> 0 or sum(voters) <> 0 order by 1, 2`,
  ),
  teams: await rowsOf(
    world,
    sql`select campaign_key, round, team_name, team_name2, sum(votes)::int as votes from campaign_team_votes group by 1, 2, 3, 4 having sum(votes) <> 0 order by 1, 2, 3, 4`,
  ),
});

/** The same, counted afresh from the votes themselves: processed and not held or rejected. */
export const voteCountsRecounted = async (world: TestWorld) => {
  const counted = sql`t.campaign_key is not null and t.round is not null and t.is_complete and (t.vote_hold is null or t.vote_hold = 'released')`;
  const voters = sql`select t.campaign_key, r.round, t.phone_number, count(*)::int as votes, max(t.created_at) as last,
      (array_agg(t.id::text order by t.created_at desc, t.id desc))[1:50] as recent
    from transactions t cross join lateral (values (t.round), ('all')) as r(round) where ${counted} group by 1, 2, 3`;
  return {
    voters: await rowsOf(world, sql`select campaign_key, round, phone_number, votes, last::text as last, recent from (${voters}) v order by 1, 2, 3`),
    totals: await rowsOf(world, sql`select campaign_key, round, sum(votes)::int as votes, count(*)::int as voters from (${voters}) v group by 1, 2 order by 1, 2`),
    teams: await rowsOf(
      world,
      sql`select campaign_key, round, coalesce(team_name, '') as team_name, coalesce(team_name2, '') as team_name2, count(*)::int as votes
      from transactions t where ${counted} group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
    ),
  };
};

/** Each number's vote figures (every settled vote, held and rejected ones included) as the vote trigger keeps them. */
export const voterFiguresKept = (world: TestWorld) =>
  rowsOf(
    world,
    sql`select campaign_key, round, phone_number, votes, held_votes as held, peak_per_minute as peak, fullest_round_votes as fullest,
      first_vote_at::text as first_at, first_vote_id::text as first_id, first_team_name as first_team, first_team_name2 as first_team2, last_vote_at::text as last_at
    from campaign_voter_figures order by 1, 2, 3`,
  );

/**
 * The same, counted afresh from the votes: the peak as the most votes in any 60 seconds ending at
 * one of the number's votes, counted vote by vote.
 */
export const voterFiguresRecounted = (world: TestWorld) =>
  rowsOf(
    world,
    sql`with votes as (
        select t.id, t.campaign_key, r.round, t.phone_number, t.created_at, t.team_name, t.team_name2, t.vote_hold
        from transactions t cross join lateral (values (t.round), ('all')) as r(round)
        where t.campaign_key is not null and t.round is not null and t.is_complete
      ),
      figures as (
        select v.campaign_key, v.round, v.phone_number, count(*)::int as votes, (count(*) filter (where v.vote_hold = 'held'))::int as held,
          max((select count(*) from votes w where w.campaign_key = v.campaign_key and w.round = v.round and w.phone_number = v.phone_number
            and w.created_at <= v.created_at and w.created_at > v.created_at - interval '60 seconds'))::int as peak,
          (array_agg(v.created_at order by v.created_at, v.id))[1]::text as first_at, (array_agg(v.id::text order by v.created_at, v.id))[1] as first_id,
          (array_agg(coalesce(v.team_name, '') order by v.created_at, v.id))[1] as first_team,
          (array_agg(coalesce(v.team_name2, '') order by v.created_at, v.id))[1] as first_team2, max(v.created_at)::text as last_at
        from votes v group by 1, 2, 3
      )
    select f.campaign_key, f.round, f.phone_number, f.votes, f.held, f.peak,
      case when f.round = 'all' then (select max(o.votes) from figures o where o.campaign_key = f.campaign_key and o.phone_number = f.phone_number and o.round <> 'all') else f.votes end as fullest,
      f.first_at, f.first_id, f.first_team, f.first_team2, f.last_at
    from figures f order by 1, 2, 3`,
  );
