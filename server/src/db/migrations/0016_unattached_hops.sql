-- Two costs of a vote found in the vote surge (issue 23, pg_stat_statements and auto_explain):
-- linking a session's hops to its new call paired the session index with the null entries of
-- transaction_events_transaction_idx, dead ones included (60,000 entries, 6 ms a call); and an
-- update that changes no counted vote (a settled vote's ticket SMS status) still planned the vote
-- triggers' EXECUTE statements to find that out. The index below, and a static early exit.
CREATE INDEX "transaction_events_unattached_idx" ON "transaction_events" USING btree ("session_id") WHERE "transaction_events"."transaction_id" is null and "transaction_events"."session_id" is not null;--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.campaign_recent_votes_apply()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  counted constant text := 'campaign_key is not null and round is not null and is_complete';
  changes text;
BEGIN
  -- No counted vote among the statement's rows, before or after: nothing to count or list (a ticket
  -- sale, a pending vote, a ticket SMS status). Static, so planned once, before any EXECUTE below.
  IF TG_OP = 'INSERT' THEN
    IF NOT EXISTS (select 1 from new_rows where campaign_key is not null and round is not null and is_complete) THEN
      RETURN NULL;
    END IF;
  ELSIF TG_OP = 'DELETE' THEN
    IF NOT EXISTS (select 1 from old_rows where campaign_key is not null and round is not null and is_complete) THEN
      RETURN NULL;
    END IF;
  ELSIF NOT EXISTS (
      select 1 from new_rows n where n.campaign_key is not null and n.round is not null and n.is_complete and not exists (
        select 1 from old_rows o where o.id = n.id and o.is_complete
          and (o.campaign_key, o.round, o.phone_number, o.team_name, o.team_name2, o.created_at)
            is not distinct from (n.campaign_key, n.round, n.phone_number, n.team_name, n.team_name2, n.created_at)))
    AND NOT EXISTS (
      select 1 from old_rows o where o.campaign_key is not null and o.round is not null and o.is_complete and not exists (
        select 1 from new_rows n where n.id = o.id and n.is_complete
          and (o.campaign_key, o.round, o.phone_number, o.team_name, o.team_name2, o.created_at)
            is not distinct from (n.campaign_key, n.round, n.phone_number, n.team_name, n.team_name2, n.created_at))) THEN
    -- An update that leaves every counted vote as it was (a settled vote's ticket SMS status, a
    -- resolve): the same test as the changes below, but static, so not planned again on each call.
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    changes := format('select campaign_key, round, phone_number from new_rows where %s', counted);
  ELSIF TG_OP = 'DELETE' THEN
    changes := format('select campaign_key, round, phone_number from old_rows where %s', counted);
  ELSE
    changes := format('select n.campaign_key, n.round, n.phone_number from new_rows n where %1$s and not exists (
          select 1 from old_rows o where o.id = n.id and o.is_complete
            and (o.campaign_key, o.round, o.phone_number, o.team_name, o.team_name2, o.created_at)
              is not distinct from (n.campaign_key, n.round, n.phone_number, n.team_name, n.team_name2, n.created_at))
      union
      select o.campaign_key, o.round, o.phone_number from old_rows o where %1$s and not exists (
          select 1 from new_rows n where n.id = o.id and n.is_complete
            and (o.campaign_key, o.round, o.phone_number, o.team_name, o.team_name2, o.created_at)
              is not distinct from (n.campaign_key, n.round, n.phone_number, n.team_name, n.team_name2, n.created_at))',
      counted);
  END IF;
  EXECUTE format($sql$
    update campaign_voters v
    set recent_votes = campaign_votes_json(v.campaign_key, v.round, v.phone_number, 50, 0)
    from (select distinct c.campaign_key, r.round, c.phone_number
          from (%s) c cross join lateral (values (c.round), ('all')) as r(round)) d
    where v.campaign_key = d.campaign_key and v.round = d.round and v.phone_number = d.phone_number
  $sql$, changes);
  RETURN NULL;
END;
$function$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION public.campaign_vote_counts_apply()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  -- This backend's stripe of the round totals and team votes (COUNTER_STRIPES in schema.ts).
  backend_stripe constant smallint := pg_backend_pid() % 16;
  vote_columns constant text := 'campaign_key, round, phone_number, team_name, team_name2, created_at';
  counted constant text := 'campaign_key is not null and round is not null and is_complete';
  changes text;
  touched boolean;
  removed boolean;
BEGIN
  -- No counted vote among the statement's rows, before or after: nothing to count or list (a ticket
  -- sale, a pending vote, a ticket SMS status). Static, so planned once, before any EXECUTE below.
  IF TG_OP = 'INSERT' THEN
    IF NOT EXISTS (select 1 from new_rows where campaign_key is not null and round is not null and is_complete) THEN
      RETURN NULL;
    END IF;
  ELSIF TG_OP = 'DELETE' THEN
    IF NOT EXISTS (select 1 from old_rows where campaign_key is not null and round is not null and is_complete) THEN
      RETURN NULL;
    END IF;
  ELSIF NOT EXISTS (
      select 1 from new_rows n where n.campaign_key is not null and n.round is not null and n.is_complete and not exists (
        select 1 from old_rows o where o.id = n.id and o.is_complete
          and (o.campaign_key, o.round, o.phone_number, o.team_name, o.team_name2, o.created_at)
            is not distinct from (n.campaign_key, n.round, n.phone_number, n.team_name, n.team_name2, n.created_at)))
    AND NOT EXISTS (
      select 1 from old_rows o where o.campaign_key is not null and o.round is not null and o.is_complete and not exists (
        select 1 from new_rows n where n.id = o.id and n.is_complete
          and (o.campaign_key, o.round, o.phone_number, o.team_name, o.team_name2, o.created_at)
            is not distinct from (n.campaign_key, n.round, n.phone_number, n.team_name, n.team_name2, n.created_at))) THEN
    -- An update that leaves every counted vote as it was (a settled vote's ticket SMS status, a
    -- resolve): the same test as the changes below, but static, so not planned again on each call.
    RETURN NULL;
  END IF;
  IF TG_OP = 'INSERT' THEN
    changes := format('select %s, 1 as sign from new_rows where %s', vote_columns, counted);
  ELSIF TG_OP = 'DELETE' THEN
    changes := format('select %s, -1 as sign from old_rows where %s', vote_columns, counted);
  ELSE
    changes := format('select %1$s, 1 as sign from new_rows n where %2$s and not exists (
          select 1 from old_rows o where o.id = n.id and o.is_complete
            and (o.campaign_key, o.round, o.phone_number, o.team_name, o.team_name2, o.created_at)
              is not distinct from (n.campaign_key, n.round, n.phone_number, n.team_name, n.team_name2, n.created_at))
      union all
      select %1$s, -1 as sign from old_rows o where %2$s and not exists (
          select 1 from new_rows n where n.id = o.id and n.is_complete
            and (o.campaign_key, o.round, o.phone_number, o.team_name, o.team_name2, o.created_at)
              is not distinct from (n.campaign_key, n.round, n.phone_number, n.team_name, n.team_name2, n.created_at))',
      vote_columns, counted);
  END IF;
  EXECUTE format('select exists (select 1 from (%1$s) c), exists (select 1 from (%1$s) c where c.sign < 0)', changes) INTO touched, removed;
  IF NOT touched THEN
    RETURN NULL;
  END IF;

  -- The voters' counts in the round and in 'all', then the rounds' totals. A voter is new to a round
  -- when its count rises from 0 (read from the row as written, so concurrent first votes agree).
  EXECUTE format($sql$
    with k as (
      select c.campaign_key, r.round, c.phone_number, sum(c.sign)::int as n,
             max(c.created_at) filter (where c.sign > 0) as added_last
      from (%1$s) c cross join lateral (values (c.round), ('all')) as r(round)
      group by 1, 2, 3
    ),
    up as (
      insert into campaign_voters as v (campaign_key, round, phone_number, votes, last_vote_at)
      select campaign_key, round, phone_number, n, added_last from k order by 1, 2, 3
      on conflict (campaign_key, round, phone_number)
      do update set votes = v.votes + excluded.votes, last_vote_at = greatest(v.last_vote_at, excluded.last_vote_at)
      returning v.campaign_key, v.round, v.phone_number, v.votes
    )
    insert into campaign_round_totals as t (campaign_key, round, stripe, votes, voters)
    select up.campaign_key, up.round, %2$s, sum(k.n)::int,
           sum(case when up.votes > 0 and up.votes - k.n <= 0 then 1
                    when up.votes <= 0 and up.votes - k.n > 0 then -1 else 0 end)::int
    from up join k using (campaign_key, round, phone_number)
    group by 1, 2
    order by 1, 2
    on conflict (campaign_key, round, stripe)
    do update set votes = t.votes + excluded.votes, voters = t.voters + excluded.voters
  $sql$, changes, backend_stripe);

  IF removed THEN
    EXECUTE format($sql$
      update campaign_voters v
      set last_vote_at = (select max(t.created_at) from transactions t
        where t.campaign_key = v.campaign_key and t.round = v.round and t.phone_number = v.phone_number
          and t.campaign_key is not null and t.is_complete)
      from (select distinct campaign_key, round, phone_number from (%s) c where c.sign < 0) d
      where v.campaign_key = d.campaign_key and v.round = d.round and v.phone_number = d.phone_number
    $sql$, changes);
    EXECUTE format($sql$
      update campaign_voters v
      set last_vote_at = (select max(t.created_at) from transactions t
        where t.campaign_key = v.campaign_key and t.phone_number = v.phone_number
          and t.campaign_key is not null and t.is_complete and t.round is not null)
      from (select distinct campaign_key, phone_number from (%s) c where c.sign < 0) d
      where v.campaign_key = d.campaign_key and v.round = 'all' and v.phone_number = d.phone_number
    $sql$, changes);
  END IF;

  EXECUTE format($sql$
    insert into campaign_team_votes as s (campaign_key, round, team_name, team_name2, stripe, votes)
    select c.campaign_key, c.round, coalesce(c.team_name, ''), coalesce(c.team_name2, ''), %2$s, sum(c.sign)::int
    from (%1$s) c
    group by 1, 2, 3, 4
    order by 1, 2, 3, 4
    on conflict (campaign_key, round, team_name, team_name2, stripe) do update set votes = s.votes + excluded.votes
  $sql$, changes, backend_stripe);
  RETURN NULL;
END;
$function$;
