-- The daily counts' upsert written once. transaction_daily_stats_apply wrote the same grouped upsert
-- for inserts, deletes and updates, and set_service_time_zone a fourth time for its recount: the trigger
-- now gathers the statement's changed calls into an array, as the vote trigger does, and both hand it
-- to transaction_daily_stats_add. The counters' stripe count is set once, in counter_stripe(), for
-- both triggers. Every function says what it is for (COMMENT ON FUNCTION), which database-logic.sql
-- shows above each one. And the pending calls no payment was ever requested for get a small index of
-- their own, for the sweeper that fails them once the payment timeout has passed.
CREATE INDEX "transactions_unrequested_idx" ON "transactions" USING btree ("created_at") WHERE not "transactions"."is_complete" and not "transactions"."is_deleted" and "transactions"."payment_ref" is null;--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.counter_stripe()
 RETURNS smallint
 LANGUAGE sql
 STABLE
AS $function$
  select (pg_backend_pid() % 16)::smallint
$function$;--> statement-breakpoint
CREATE TYPE "transaction_stats_change" AS (service_code text, created_at timestamptz, is_complete boolean, is_deleted boolean, category_level text, network text, amount int, sign int);--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.transaction_daily_stats_add(changes transaction_stats_change[], zone text, backend_stripe smallint)
 RETURNS void
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
BEGIN
  insert into transaction_daily_stats as s (service_code, day, dimension, key, is_complete, is_deleted, stripe, calls, amount)
  select c.service_code, (c.created_at at time zone zone)::date, d.dimension, d.key,
         c.is_complete, c.is_deleted, backend_stripe, sum(c.sign)::int, coalesce(sum(c.sign * c.amount), 0)::bigint
  from unnest(changes) c
  cross join lateral (values
    ('hour', extract(hour from c.created_at at time zone zone)::int::text),
    ('level', coalesce(c.category_level, '')),
    ('network', c.network)) as d(dimension, key)
  group by 1, 2, 3, 4, 5, 6
  order by 1, 2, 3, 4, 5, 6
  on conflict (service_code, day, dimension, key, is_complete, is_deleted, stripe)
  do update set calls = s.calls + excluded.calls, amount = s.amount + excluded.amount;
END;
$function$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.transaction_daily_stats_apply()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  -- The calls the statement added (sign 1) and took away (sign -1), as the daily counts see them.
  changes transaction_stats_change[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    select array_agg(row(c.service_code, c.created_at, c.is_complete, c.is_deleted, c.category_level, c.network, c.amount, 1)::transaction_stats_change)
    into changes from new_rows c;
  ELSIF TG_OP = 'DELETE' THEN
    select array_agg(row(c.service_code, c.created_at, c.is_complete, c.is_deleted, c.category_level, c.network, c.amount, -1)::transaction_stats_change)
    into changes from old_rows c;
  ELSE
    -- An update moves a call's counts only when something counted changed: a ticket SMS status or a resolve moves none.
    select array_agg(c.change) into changes
    from old_rows o join new_rows n on n.id = o.id
    cross join lateral (values
      (row(n.service_code, n.created_at, n.is_complete, n.is_deleted, n.category_level, n.network, n.amount, 1)::transaction_stats_change),
      (row(o.service_code, o.created_at, o.is_complete, o.is_deleted, o.category_level, o.network, o.amount, -1)::transaction_stats_change)) as c(change)
    where (o.service_code, o.created_at, o.is_complete, o.is_deleted, o.category_level, o.network, o.amount)
      is distinct from (n.service_code, n.created_at, n.is_complete, n.is_deleted, n.category_level, n.network, n.amount);
  END IF;
  IF changes IS NOT NULL THEN
    PERFORM transaction_daily_stats_add(changes, (select time_zone from service_settings where id = 1), counter_stripe());
  END IF;
  RETURN NULL;
END;
$function$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.set_service_time_zone(zone text)
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
DECLARE
  counted_day date;
BEGIN
  PERFORM now() at time zone zone;
  UPDATE service_settings SET time_zone = zone WHERE id = 1 AND time_zone <> zone;
  IF NOT FOUND THEN
    RETURN false;
  END IF;
  LOCK TABLE transactions IN SHARE MODE;
  DELETE FROM transaction_daily_stats;
  -- Counted again as the trigger counts, a day of the new zone at a time, so memory holds one day's calls.
  FOR counted_day IN SELECT DISTINCT (t.created_at at time zone zone)::date FROM transactions t LOOP
    PERFORM transaction_daily_stats_add(array(
      select row(t.service_code, t.created_at, t.is_complete, t.is_deleted, t.category_level, t.network, t.amount, 1)::transaction_stats_change
      from transactions t
      where t.created_at >= counted_day::timestamp at time zone zone and t.created_at < (counted_day + 1)::timestamp at time zone zone), zone, 0::smallint);
  END LOOP;
  RETURN true;
END;
$function$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.campaign_vote_counts_apply()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  -- This backend's stripe of the round totals and team votes.
  backend_stripe constant smallint := counter_stripe();
  -- The counted votes the statement added (sign 1) and took away (sign -1).
  changes campaign_vote_change[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    select array_agg(row(c.campaign_key, c.round, c.phone_number, c.team_name, c.team_name2, c.created_at, 1)::campaign_vote_change) into changes
    from new_rows c where c.campaign_key is not null and c.round is not null and c.is_complete;
  ELSIF TG_OP = 'DELETE' THEN
    select array_agg(row(c.campaign_key, c.round, c.phone_number, c.team_name, c.team_name2, c.created_at, -1)::campaign_vote_change) into changes
    from old_rows c where c.campaign_key is not null and c.round is not null and c.is_complete;
  ELSE
    -- An update counts only the votes it changed: a settled vote's ticket SMS status or a resolve changes none.
    select array_agg(c.change) into changes from (
      select row(n.campaign_key, n.round, n.phone_number, n.team_name, n.team_name2, n.created_at, 1)::campaign_vote_change as change
      from new_rows n where n.campaign_key is not null and n.round is not null and n.is_complete and not exists (
        select 1 from old_rows o where o.id = n.id and o.is_complete
          and (o.campaign_key, o.round, o.phone_number, o.team_name, o.team_name2, o.created_at)
            is not distinct from (n.campaign_key, n.round, n.phone_number, n.team_name, n.team_name2, n.created_at))
      union all
      select row(o.campaign_key, o.round, o.phone_number, o.team_name, o.team_name2, o.created_at, -1)::campaign_vote_change
      from old_rows o where o.campaign_key is not null and o.round is not null and o.is_complete and not exists (
        select 1 from new_rows n where n.id = o.id and n.is_complete
          and (o.campaign_key, o.round, o.phone_number, o.team_name, o.team_name2, o.created_at)
            is not distinct from (n.campaign_key, n.round, n.phone_number, n.team_name, n.team_name2, n.created_at))) c;
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
        and t.campaign_key is not null and t.is_complete)
    from (select distinct c.campaign_key, c.round, c.phone_number from unnest(changes) c where c.sign < 0) d
    where v.campaign_key = d.campaign_key and v.round = d.round and v.phone_number = d.phone_number;
    update campaign_voters v
    set last_vote_at = (select max(t.created_at) from transactions t
      where t.campaign_key = v.campaign_key and t.phone_number = v.phone_number
        and t.campaign_key is not null and t.is_complete and t.round is not null)
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
COMMENT ON FUNCTION public.counter_stripe() IS 'This backend''s stripe of the counters every sale moves (daily counts, round totals, team votes), so concurrent sales write different rows; readers sum the 16 stripes.';--> statement-breakpoint
COMMENT ON TYPE transaction_stats_change IS 'A call as the daily counts see it, added (sign 1) or taken away (sign -1) by a statement.';--> statement-breakpoint
COMMENT ON TYPE campaign_vote_change IS 'A counted vote added (sign 1) or taken away (sign -1) by a statement.';--> statement-breakpoint
COMMENT ON FUNCTION public.transaction_daily_stats_add(transaction_stats_change[], text, smallint) IS 'Adds calls to the daily counts (or takes them away, by their sign) by day and hour in a zone, category level and network, in one stripe.';--> statement-breakpoint
COMMENT ON FUNCTION public.transaction_daily_stats_apply() IS 'Trigger on transactions: moves the daily counts by the calls a statement inserts, deletes or changes.';--> statement-breakpoint
COMMENT ON FUNCTION public.set_service_time_zone(text) IS 'Makes a zone the one the daily counts count days and hours in, recounting them when it changes; answers whether it changed.';--> statement-breakpoint
COMMENT ON FUNCTION public.campaign_vote_counts_apply() IS 'Trigger on transactions: moves the vote counts (voters, round totals, team votes) by the votes a statement counts or uncounts, and refreshes those voters'' recent votes.';--> statement-breakpoint
COMMENT ON FUNCTION public.campaign_voters_refresh_recent(campaign_vote_change[]) IS 'Rewrites the recent votes (the 50 newest) that the changed voters'' ranking rows carry.';--> statement-breakpoint
COMMENT ON FUNCTION public.campaign_votes_json(text, text, text, integer, integer) IS 'One voter''s counted votes in a round (or ''all''), newest first, as the JSON text the API answers.';
