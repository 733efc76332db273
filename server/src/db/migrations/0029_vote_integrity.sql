DROP INDEX "transactions_voter_round_idx";--> statement-breakpoint
DROP INDEX "transactions_voter_idx";--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "velocity_per_minute" integer DEFAULT 10 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "hold_suspicious" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "vote_hold" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "vote_hold_by" uuid;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "vote_hold_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "vote_hold_reason" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_vote_hold_by_users_id_fk" FOREIGN KEY ("vote_hold_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transactions_round_pick_idx" ON "transactions" USING btree ("campaign_key","round","team_name","created_at","team_name2","phone_number","id") WHERE "transactions"."campaign_key" is not null and "transactions"."is_complete";--> statement-breakpoint
CREATE INDEX "transactions_vote_hold_idx" ON "transactions" USING btree ("campaign_key","phone_number","round") WHERE "transactions"."vote_hold" is not null;--> statement-breakpoint
CREATE INDEX "transactions_voter_round_idx" ON "transactions" USING btree ("campaign_key","round","phone_number","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"team_name","team_name2","vote_hold") WHERE "transactions"."campaign_key" is not null and "transactions"."is_complete";--> statement-breakpoint
CREATE INDEX "transactions_voter_idx" ON "transactions" USING btree ("campaign_key","phone_number","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"round","team_name","team_name2","vote_hold") WHERE "transactions"."campaign_key" is not null and "transactions"."is_complete";--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_vote_hold_check" CHECK ("transactions"."vote_hold" in ('held', 'released', 'rejected'));--> statement-breakpoint
-- hand-written:
-- A held vote is settled (paid) but counts nowhere until released; a rejected one never counts.
-- The vote counts trigger and a voter's vote list read 'counted' as processed and not held or
-- rejected, so releasing moves the counts once (held -> released) and rejecting moves none.
CREATE OR REPLACE FUNCTION campaign_vote_counts_apply()
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
    from new_rows c where c.campaign_key is not null and c.round is not null and c.is_complete and (c.vote_hold is null or c.vote_hold = 'released');
  ELSIF TG_OP = 'DELETE' THEN
    select array_agg(row(c.campaign_key, c.round, c.phone_number, c.team_name, c.team_name2, c.created_at, -1)::campaign_vote_change) into changes
    from old_rows c where c.campaign_key is not null and c.round is not null and c.is_complete and (c.vote_hold is null or c.vote_hold = 'released');
  ELSE
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
$function$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION campaign_votes_json(p_key text, p_round text, p_phone text, p_limit integer, p_offset integer)
 RETURNS text
 LANGUAGE plpgsql
 STABLE
 SET plan_cache_mode TO 'force_generic_plan'
AS $function$
DECLARE
  result text;
BEGIN
  IF p_round = 'all' THEN
    SELECT '[' || coalesce(string_agg(a.vote, ','), '') || ']' INTO result FROM (
      SELECT '{"_id":"' || t.id || '","createdAt":"' || to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
        || '","teamName":' || coalesce(to_json(t.team_name)::text, 'null') || coalesce(',"teamName2":' || to_json(t.team_name2)::text, '') || '}' AS vote
      FROM transactions t
      WHERE t.campaign_key = p_key AND t.round IS NOT NULL AND t.phone_number = p_phone AND t.is_complete AND (t.vote_hold IS NULL OR t.vote_hold = 'released')
      ORDER BY t.created_at DESC, t.id DESC LIMIT p_limit OFFSET p_offset) a;
  ELSE
    SELECT '[' || coalesce(string_agg(a.vote, ','), '') || ']' INTO result FROM (
      SELECT '{"_id":"' || t.id || '","createdAt":"' || to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
        || '","teamName":' || coalesce(to_json(t.team_name)::text, 'null') || coalesce(',"teamName2":' || to_json(t.team_name2)::text, '') || '}' AS vote
      FROM transactions t
      WHERE t.campaign_key = p_key AND t.round = p_round AND t.phone_number = p_phone AND t.is_complete AND (t.vote_hold IS NULL OR t.vote_hold = 'released')
      ORDER BY t.created_at DESC, t.id DESC LIMIT p_limit OFFSET p_offset) a;
  END IF;
  RETURN result;
END;
$function$;
