CREATE TABLE "campaign_voter_figures" (
	"campaign_key" text NOT NULL,
	"round" text NOT NULL,
	"phone_number" text NOT NULL,
	"votes" integer NOT NULL,
	"held_votes" integer NOT NULL,
	"peak_per_minute" integer NOT NULL,
	"fullest_round_votes" integer NOT NULL,
	"first_vote_at" timestamp with time zone NOT NULL,
	"first_vote_id" uuid NOT NULL,
	"first_team_name" text NOT NULL,
	"first_team_name2" text NOT NULL,
	"last_vote_at" timestamp with time zone NOT NULL,
	CONSTRAINT "campaign_voter_figures_pkey" PRIMARY KEY("campaign_key","round","phone_number")
);
--> statement-breakpoint
DROP INDEX "transactions_round_pick_prefix_idx";--> statement-breakpoint
CREATE INDEX "campaign_voter_figures_burst_idx" ON "campaign_voter_figures" USING btree ("campaign_key","round","first_team_name",left("phone_number", 9),"first_team_name2","first_vote_at","phone_number") WHERE "campaign_voter_figures"."round" <> 'all';--> statement-breakpoint
-- hand-written:
-- Each number's figures in each round and in 'all' (votes, held votes, the peak in any 60 seconds,
-- the fullest round, the first and last vote), kept by the vote trigger so that vote integrity reads
-- a row a number, not its votes. A vote settling adds to them, its peak from the votes within a
-- minute either side of it alone; anything else (a hold decided, a vote deleted or moved) counts the
-- number's figures again from its votes. Both functions keep one generic plan for their statements:
-- planning the peak's windows afresh cost more than running them (0.9 of 1.1 ms a vote,
-- pg_stat_statements). The figures' own index, keyed by a number's first vote, replaces
-- transactions_round_pick_prefix_idx, which the burst check read.
CREATE TYPE campaign_settled_vote AS (id uuid, campaign_key text, round text, phone_number text, team_name text, team_name2 text, created_at timestamptz, held boolean);--> statement-breakpoint
COMMENT ON TYPE campaign_settled_vote IS 'A settled vote (held and rejected ones included) a statement added, as the voter figures see it.';--> statement-breakpoint
CREATE OR REPLACE FUNCTION campaign_voter_figures_add(added campaign_settled_vote[])
 RETURNS void
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
BEGIN
  -- The counts, times and first votes: a round's row, then the number's 'all' row (one lock order
  -- for every statement, so concurrent votes of one number in two rounds wait rather than deadlock).
  with a as (select * from unnest(added)),
  per_round as (
    select a.campaign_key, a.round, a.phone_number, count(*)::int as votes, (count(*) filter (where a.held))::int as held,
      min(a.created_at) as first_at, (array_agg(a.id order by a.created_at, a.id))[1] as first_id,
      (array_agg(coalesce(a.team_name, '') order by a.created_at, a.id))[1] as first_team,
      (array_agg(coalesce(a.team_name2, '') order by a.created_at, a.id))[1] as first_team2,
      max(a.created_at) as last_at
    from a group by 1, 2, 3
  ),
  rounds as (
    insert into campaign_voter_figures as f (campaign_key, round, phone_number, votes, held_votes, peak_per_minute, fullest_round_votes,
      first_vote_at, first_vote_id, first_team_name, first_team_name2, last_vote_at)
    select p.campaign_key, p.round, p.phone_number, p.votes, p.held, 0, p.votes, p.first_at, p.first_id, p.first_team, p.first_team2, p.last_at
    from per_round p order by 1, 2, 3
    on conflict (campaign_key, round, phone_number) do update set
      votes = f.votes + excluded.votes, held_votes = f.held_votes + excluded.held_votes,
      fullest_round_votes = f.fullest_round_votes + excluded.fullest_round_votes,
      first_vote_at = least(f.first_vote_at, excluded.first_vote_at),
      first_vote_id = case when (excluded.first_vote_at, excluded.first_vote_id) < (f.first_vote_at, f.first_vote_id) then excluded.first_vote_id else f.first_vote_id end,
      first_team_name = case when (excluded.first_vote_at, excluded.first_vote_id) < (f.first_vote_at, f.first_vote_id) then excluded.first_team_name else f.first_team_name end,
      first_team_name2 = case when (excluded.first_vote_at, excluded.first_vote_id) < (f.first_vote_at, f.first_vote_id) then excluded.first_team_name2 else f.first_team_name2 end,
      last_vote_at = greatest(f.last_vote_at, excluded.last_vote_at)
    returning f.campaign_key, f.phone_number, f.votes
  ),
  fullest as (select r.campaign_key, r.phone_number, max(r.votes) as votes from rounds r group by 1, 2),
  numbers as (
    select p.campaign_key, p.phone_number, sum(p.votes)::int as votes, sum(p.held)::int as held, min(p.first_at) as first_at,
      (array_agg(p.first_id order by p.first_at, p.first_id))[1] as first_id,
      (array_agg(p.first_team order by p.first_at, p.first_id))[1] as first_team,
      (array_agg(p.first_team2 order by p.first_at, p.first_id))[1] as first_team2,
      max(p.last_at) as last_at
    from per_round p group by 1, 2
  )
  insert into campaign_voter_figures as f (campaign_key, round, phone_number, votes, held_votes, peak_per_minute, fullest_round_votes,
    first_vote_at, first_vote_id, first_team_name, first_team_name2, last_vote_at)
  select n.campaign_key, 'all', n.phone_number, n.votes, n.held, 0, m.votes, n.first_at, n.first_id, n.first_team, n.first_team2, n.last_at
  from numbers n join fullest m on m.campaign_key = n.campaign_key and m.phone_number = n.phone_number order by 1, 3
  on conflict (campaign_key, round, phone_number) do update set
    votes = f.votes + excluded.votes, held_votes = f.held_votes + excluded.held_votes,
    fullest_round_votes = greatest(f.fullest_round_votes, excluded.fullest_round_votes),
    first_vote_at = least(f.first_vote_at, excluded.first_vote_at),
    first_vote_id = case when (excluded.first_vote_at, excluded.first_vote_id) < (f.first_vote_at, f.first_vote_id) then excluded.first_vote_id else f.first_vote_id end,
    first_team_name = case when (excluded.first_vote_at, excluded.first_vote_id) < (f.first_vote_at, f.first_vote_id) then excluded.first_team_name else f.first_team_name end,
    first_team_name2 = case when (excluded.first_vote_at, excluded.first_vote_id) < (f.first_vote_at, f.first_vote_id) then excluded.first_team_name2 else f.first_team_name2 end,
    last_vote_at = greatest(f.last_vote_at, excluded.last_vote_at);

  -- The peak: a new vote at t can only raise the counts of the 60-second windows that end in
  -- [t, t + 60 s), which hold votes of (t - 60 s, t + 60 s) alone. Read after the rows above are
  -- locked, so a concurrent vote of the same number has committed and is seen.
  with a as (select distinct v.campaign_key, v.round, v.phone_number, v.created_at from unnest(added) v),
  near as (
    select a.campaign_key, a.round, a.phone_number, w.in_round, w.in_all
    from a cross join lateral (
      select max(x.in_round) filter (where x.round = a.round) as in_round, max(x.in_all) as in_all
      from (
        select v.round, v.created_at,
          count(*) over (partition by v.round order by v.created_at range between interval '59.999999 seconds' preceding and current row) as in_round,
          count(*) over (order by v.created_at range between interval '59.999999 seconds' preceding and current row) as in_all
        from transactions v
        where v.campaign_key = a.campaign_key and v.phone_number = a.phone_number and v.is_complete and v.round is not null
          and v.created_at > a.created_at - interval '60 seconds' and v.created_at < a.created_at + interval '60 seconds') x
      where x.created_at >= a.created_at) w
  ),
  peaks as (
    select n.campaign_key, n.round, n.phone_number, max(n.in_round)::int as peak from near n group by 1, 2, 3
    union all
    select n.campaign_key, 'all', n.phone_number, max(n.in_all)::int from near n group by 1, 3
  )
  update campaign_voter_figures f set peak_per_minute = p.peak
  from peaks p
  where f.campaign_key = p.campaign_key and f.round = p.round and f.phone_number = p.phone_number and p.peak > f.peak_per_minute;
END;
$function$;--> statement-breakpoint
COMMENT ON FUNCTION campaign_voter_figures_add(campaign_settled_vote[]) IS 'Adds settled votes to their numbers'' figures (counts, first and last vote, the peak from the windows around each new vote).';--> statement-breakpoint
CREATE OR REPLACE FUNCTION campaign_voter_figures_recount(keys text[], phones text[])
 RETURNS void
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
BEGIN
  with numbers as (select distinct d.campaign_key, d.phone_number from unnest(keys, phones) as d(campaign_key, phone_number)),
  votes as (
    select t.campaign_key, t.round, t.phone_number, t.created_at, t.id, t.team_name, t.team_name2, t.vote_hold,
      count(*) over (partition by t.campaign_key, t.phone_number, t.round order by t.created_at range between interval '59.999999 seconds' preceding and current row) as in_round,
      count(*) over (partition by t.campaign_key, t.phone_number order by t.created_at range between interval '59.999999 seconds' preceding and current row) as in_all
    from transactions t join numbers n on t.campaign_key = n.campaign_key and t.phone_number = n.phone_number
    where t.is_complete and t.round is not null
  ),
  figures as (
    select v.campaign_key, r.round, v.phone_number, count(*)::int as votes, (count(*) filter (where v.vote_hold = 'held'))::int as held,
      max(case when r.round = 'all' then v.in_all else v.in_round end)::int as peak,
      min(v.created_at) as first_at, (array_agg(v.id order by v.created_at, v.id))[1] as first_id,
      (array_agg(coalesce(v.team_name, '') order by v.created_at, v.id))[1] as first_team,
      (array_agg(coalesce(v.team_name2, '') order by v.created_at, v.id))[1] as first_team2,
      max(v.created_at) as last_at
    from votes v cross join lateral (values (v.round), ('all')) as r(round)
    group by 1, 2, 3
  ),
  kept as (
    insert into campaign_voter_figures as f (campaign_key, round, phone_number, votes, held_votes, peak_per_minute, fullest_round_votes,
      first_vote_at, first_vote_id, first_team_name, first_team_name2, last_vote_at)
    select g.campaign_key, g.round, g.phone_number, g.votes, g.held, g.peak,
      case when g.round = 'all' then (select max(o.votes) from figures o where o.campaign_key = g.campaign_key and o.phone_number = g.phone_number and o.round <> 'all') else g.votes end,
      g.first_at, g.first_id, g.first_team, g.first_team2, g.last_at
    from figures g order by (g.round = 'all'), 1, 2, 3
    on conflict (campaign_key, round, phone_number) do update set
      votes = excluded.votes, held_votes = excluded.held_votes, peak_per_minute = excluded.peak_per_minute,
      fullest_round_votes = excluded.fullest_round_votes, first_vote_at = excluded.first_vote_at, first_vote_id = excluded.first_vote_id,
      first_team_name = excluded.first_team_name, first_team_name2 = excluded.first_team_name2, last_vote_at = excluded.last_vote_at
    returning f.campaign_key, f.round, f.phone_number
  )
  -- A round the number no longer has a settled vote in loses its row.
  delete from campaign_voter_figures f using numbers n
  where f.campaign_key = n.campaign_key and f.phone_number = n.phone_number
    and not exists (select 1 from kept k where k.campaign_key = f.campaign_key and k.round = f.round and k.phone_number = f.phone_number);
END;
$function$;--> statement-breakpoint
COMMENT ON FUNCTION campaign_voter_figures_recount(text[], text[]) IS 'Counts the figures of some numbers (campaign and phone, side by side) again from their settled votes, in every round and ''all''.';--> statement-breakpoint
CREATE OR REPLACE FUNCTION campaign_vote_counts_apply()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  -- This backend's stripe of the round totals and team votes.
  backend_stripe constant smallint := counter_stripe();
  -- The counted votes the statement added (sign 1) and took away (sign -1).
  changes campaign_vote_change[];
  -- The settled votes (held and rejected included) the statement added, and the numbers (campaign
  -- and phone, side by side) whose settled votes it changed otherwise: their figures are counted again.
  added campaign_settled_vote[];
  recount_keys text[];
  recount_phones text[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NOT EXISTS (select 1 from new_rows c where c.campaign_key is not null) THEN
      RETURN NULL;
    END IF;
    select array_agg(row(c.id, c.campaign_key, c.round, c.phone_number, c.team_name, c.team_name2, c.created_at, c.vote_hold = 'held')::campaign_settled_vote) into added
    from new_rows c where c.campaign_key is not null and c.round is not null and c.is_complete;
    select array_agg(row(c.campaign_key, c.round, c.phone_number, c.team_name, c.team_name2, c.created_at, 1)::campaign_vote_change) into changes
    from new_rows c where c.campaign_key is not null and c.round is not null and c.is_complete and (c.vote_hold is null or c.vote_hold = 'released');
  ELSIF TG_OP = 'DELETE' THEN
    select array_agg(d.campaign_key), array_agg(d.phone_number) into recount_keys, recount_phones
    from (select distinct c.campaign_key, c.phone_number from old_rows c where c.campaign_key is not null and c.round is not null and c.is_complete) d;
    select array_agg(row(c.campaign_key, c.round, c.phone_number, c.team_name, c.team_name2, c.created_at, -1)::campaign_vote_change) into changes
    from old_rows c where c.campaign_key is not null and c.round is not null and c.is_complete and (c.vote_hold is null or c.vote_hold = 'released');
  ELSE
    -- A ticket sale's updates touch no vote: nothing to count.
    IF NOT EXISTS (select 1 from new_rows n where n.campaign_key is not null) AND NOT EXISTS (select 1 from old_rows o where o.campaign_key is not null) THEN
      RETURN NULL;
    END IF;
    -- A vote settling adds to its number's figures; any other change to a settled vote (a hold
    -- decided, its time or pick moved, unsettled) counts its number's figures again.
    select array_agg(row(n.id, n.campaign_key, n.round, n.phone_number, n.team_name, n.team_name2, n.created_at, n.vote_hold = 'held')::campaign_settled_vote) into added
    from new_rows n join old_rows o on o.id = n.id
    where n.campaign_key is not null and n.round is not null and n.is_complete and not (o.campaign_key is not null and o.round is not null and o.is_complete);
    select array_agg(d.campaign_key), array_agg(d.phone_number) into recount_keys, recount_phones from (
      select distinct x.campaign_key, x.phone_number
      from new_rows n join old_rows o on o.id = n.id
        cross join lateral (values (o.campaign_key, o.phone_number), (n.campaign_key, n.phone_number)) as x(campaign_key, phone_number)
      where o.campaign_key is not null and o.round is not null and o.is_complete and x.campaign_key is not null
        and (o.campaign_key, o.round, o.phone_number, o.team_name, o.team_name2, o.created_at, o.is_complete, o.vote_hold = 'held')
          is distinct from (n.campaign_key, n.round, n.phone_number, n.team_name, n.team_name2, n.created_at, n.is_complete, n.vote_hold = 'held')) d;
    -- An update counts only the votes it changed: a settled vote's ticket SMS status or a resolve changes none.
    select array_agg(c.change) into changes from (
      select row(n.campaign_key, n.round, n.phone_number, n.team_name, n.team_name2, n.created_at, 1)::campaign_vote_change as change
      from new_rows n where n.campaign_key is not null and n.round is not null and n.is_complete and (n.vote_hold is null or n.vote_hold = 'released') and not exists (
        select 1 from old_rows o where o.id = n.id and o.is_complete and (o.vote_hold is null or o.vote_hold = 'released')
          and (o.campaign_key, o.round, o.phone_number, o.team_name, o.team_name2, o.created_at)
            is not distinct from (n.campaign_key, n.round, n.phone_number, n.team_name, n.team_name2, n.created_at))
      union all
      select row(o.campaign_key, o.round, o.phone_number, o.team_name, o.team_name2, o.created_at, -1)::campaign_vote_change
      from old_rows o where o.campaign_key is not null and o.round is not null and o.is_complete and (o.vote_hold is null or o.vote_hold = 'released') and not exists (
        select 1 from new_rows n where n.id = o.id and n.is_complete and (n.vote_hold is null or n.vote_hold = 'released')
          and (o.campaign_key, o.round, o.phone_number, o.team_name, o.team_name2, o.created_at)
            is not distinct from (n.campaign_key, n.round, n.phone_number, n.team_name, n.team_name2, n.created_at))) c;
  END IF;
  IF added IS NOT NULL THEN
    PERFORM campaign_voter_figures_add(added);
  END IF;
  IF recount_keys IS NOT NULL THEN
    PERFORM campaign_voter_figures_recount(recount_keys, recount_phones);
  END IF;
  IF changes IS NULL THEN
    RETURN NULL;
  END IF;

  -- The voters' counts in the round and in 'all', then the rounds' totals. A voter is new to a round
  -- when its count rises from 0 (read from the row as written, so concurrent first votes agree).
  with k as (
    select c.campaign_key, r.round, c.phone_number, sum(c.sign)::int as n,
           max(c.created_at) filter (where c.sign > 0) as added_last
    from unnest(changes) c cross join lateral (values (c.round), ('all')) as r(round)
    group by 1, 2, 3
  ),
  up as (
    insert into campaign_voters as v (campaign_key, round, phone_number, votes, last_vote_at)
    select k.campaign_key, k.round, k.phone_number, k.n, k.added_last from k order by 1, 2, 3
    on conflict (campaign_key, round, phone_number)
    do update set votes = v.votes + excluded.votes, last_vote_at = greatest(v.last_vote_at, excluded.last_vote_at)
    returning v.campaign_key, v.round, v.phone_number, v.votes
  )
  insert into campaign_round_totals as t (campaign_key, round, stripe, votes, voters)
  select up.campaign_key, up.round, backend_stripe, sum(k.n)::int,
         sum(case when up.votes > 0 and up.votes - k.n <= 0 then 1
                  when up.votes <= 0 and up.votes - k.n > 0 then -1 else 0 end)::int
  from up join k on k.campaign_key = up.campaign_key and k.round = up.round and k.phone_number = up.phone_number
  group by 1, 2
  order by 1, 2
  on conflict (campaign_key, round, stripe)
  do update set votes = t.votes + excluded.votes, voters = t.voters + excluded.voters;

  IF exists (select 1 from unnest(changes) c where c.sign < 0) THEN
    update campaign_voters v
    set last_vote_at = (select max(t.created_at) from transactions t
      where t.campaign_key = v.campaign_key and t.round = v.round and t.phone_number = v.phone_number
        and t.campaign_key is not null and t.is_complete and (t.vote_hold is null or t.vote_hold = 'released'))
    from (select distinct c.campaign_key, c.round, c.phone_number from unnest(changes) c where c.sign < 0) d
    where v.campaign_key = d.campaign_key and v.round = d.round and v.phone_number = d.phone_number;
    update campaign_voters v
    set last_vote_at = (select max(t.created_at) from transactions t
      where t.campaign_key = v.campaign_key and t.phone_number = v.phone_number
        and t.campaign_key is not null and t.is_complete and (t.vote_hold is null or t.vote_hold = 'released') and t.round is not null)
    from (select distinct c.campaign_key, c.phone_number from unnest(changes) c where c.sign < 0) d
    where v.campaign_key = d.campaign_key and v.round = 'all' and v.phone_number = d.phone_number;
  END IF;

  insert into campaign_team_votes as s (campaign_key, round, team_name, team_name2, stripe, votes)
  select c.campaign_key, c.round, coalesce(c.team_name, ''), coalesce(c.team_name2, ''), backend_stripe, sum(c.sign)::int
  from unnest(changes) c
  group by 1, 2, 3, 4
  order by 1, 2, 3, 4
  on conflict (campaign_key, round, team_name, team_name2, stripe) do update set votes = s.votes + excluded.votes;

  -- The changed voters' 50 newest votes, which their ranking rows carry; their rows exist by now.
  PERFORM campaign_voters_refresh_recent(changes);
  RETURN NULL;
END;
$function$;--> statement-breakpoint
-- The numbers that voted before this migration.
SELECT campaign_voter_figures_recount(array_agg(d.campaign_key), array_agg(d.phone_number))
FROM (SELECT DISTINCT campaign_key, phone_number FROM transactions WHERE campaign_key IS NOT NULL AND round IS NOT NULL AND is_complete) d;
