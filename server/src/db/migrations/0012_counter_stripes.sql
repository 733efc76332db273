-- Counter stripes (issue 25, no hot rows): every sale moved the same few rows of its code's daily
-- counts (and every vote its round's totals and team's votes), so concurrent sales on one code and
-- day queued on those rows' locks until each other's commit. Each backend now writes its own stripe
-- (pg_backend_pid() % 16); two transactions at once are on two backends, and readers sum the stripes.
ALTER TABLE "campaign_round_totals" ADD COLUMN "stripe" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_team_votes" ADD COLUMN "stripe" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "transaction_daily_stats" ADD COLUMN "stripe" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_round_totals" DROP CONSTRAINT "campaign_round_totals_pkey";
--> statement-breakpoint
ALTER TABLE "campaign_round_totals" ADD CONSTRAINT "campaign_round_totals_pkey" PRIMARY KEY("campaign_key","round","stripe");--> statement-breakpoint
ALTER TABLE "campaign_team_votes" DROP CONSTRAINT "campaign_team_votes_pkey";
--> statement-breakpoint
ALTER TABLE "campaign_team_votes" ADD CONSTRAINT "campaign_team_votes_pkey" PRIMARY KEY("campaign_key","round","team_name","team_name2","stripe");--> statement-breakpoint
ALTER TABLE "transaction_daily_stats" DROP CONSTRAINT "transaction_daily_stats_pkey";
--> statement-breakpoint
ALTER TABLE "transaction_daily_stats" ADD CONSTRAINT "transaction_daily_stats_pkey" PRIMARY KEY("service_code","day","dimension","key","is_complete","is_deleted","stripe");--> statement-breakpoint
CREATE OR REPLACE FUNCTION transaction_daily_stats_apply()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
DECLARE
  -- This backend's stripe of each counter (COUNTER_STRIPES in schema.ts): concurrent sales write different rows.
  backend_stripe constant smallint := pg_backend_pid() % 16;
  zone text := (select time_zone from service_settings where id = 1);
BEGIN
  IF TG_OP = 'INSERT' THEN
    insert into transaction_daily_stats as s (service_code, day, dimension, key, is_complete, is_deleted, stripe, calls, amount)
    select c.service_code, (c.created_at at time zone zone)::date, d.dimension, d.key,
           c.is_complete, c.is_deleted, backend_stripe, count(*)::int, coalesce(sum(c.amount), 0)::bigint
    from new_rows c
    cross join lateral (values
      ('hour', extract(hour from c.created_at at time zone zone)::int::text),
      ('level', coalesce(c.category_level, '')),
      ('network', c.network)) as d(dimension, key)
    group by 1, 2, 3, 4, 5, 6
    order by 1, 2, 3, 4, 5, 6
    on conflict (service_code, day, dimension, key, is_complete, is_deleted, stripe)
    do update set calls = s.calls + excluded.calls, amount = s.amount + excluded.amount;
  ELSIF TG_OP = 'DELETE' THEN
    insert into transaction_daily_stats as s (service_code, day, dimension, key, is_complete, is_deleted, stripe, calls, amount)
    select c.service_code, (c.created_at at time zone zone)::date, d.dimension, d.key,
           c.is_complete, c.is_deleted, backend_stripe, -count(*)::int, -coalesce(sum(c.amount), 0)::bigint
    from old_rows c
    cross join lateral (values
      ('hour', extract(hour from c.created_at at time zone zone)::int::text),
      ('level', coalesce(c.category_level, '')),
      ('network', c.network)) as d(dimension, key)
    group by 1, 2, 3, 4, 5, 6
    order by 1, 2, 3, 4, 5, 6
    on conflict (service_code, day, dimension, key, is_complete, is_deleted, stripe)
    do update set calls = s.calls + excluded.calls, amount = s.amount + excluded.amount;
  ELSE
    -- An update moves a call's counts only when something counted changed.
    with moved as (
      select o.id from old_rows o join new_rows n on n.id = o.id
      where (o.service_code, o.created_at, o.is_complete, o.is_deleted, o.category_level, o.network, o.amount)
        is distinct from (n.service_code, n.created_at, n.is_complete, n.is_deleted, n.category_level, n.network, n.amount)
    ), c as (
      select n.service_code, n.created_at, n.is_complete, n.is_deleted, n.category_level, n.network, n.amount, 1 as sign
      from new_rows n where n.id in (select id from moved)
      union all
      select o.service_code, o.created_at, o.is_complete, o.is_deleted, o.category_level, o.network, o.amount, -1 as sign
      from old_rows o where o.id in (select id from moved)
    )
    insert into transaction_daily_stats as s (service_code, day, dimension, key, is_complete, is_deleted, stripe, calls, amount)
    select c.service_code, (c.created_at at time zone zone)::date, d.dimension, d.key,
           c.is_complete, c.is_deleted, backend_stripe, sum(c.sign)::int, coalesce(sum(c.sign * c.amount), 0)::bigint
    from c
    cross join lateral (values
      ('hour', extract(hour from c.created_at at time zone zone)::int::text),
      ('level', coalesce(c.category_level, '')),
      ('network', c.network)) as d(dimension, key)
    group by 1, 2, 3, 4, 5, 6
    order by 1, 2, 3, 4, 5, 6
    on conflict (service_code, day, dimension, key, is_complete, is_deleted, stripe)
    do update set calls = s.calls + excluded.calls, amount = s.amount + excluded.amount;
  END IF;
  RETURN NULL;
END;
$function$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION campaign_vote_counts_apply()
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
  ELSIF NOT EXISTS (select 1 from new_rows where campaign_key is not null and round is not null and is_complete)
    AND NOT EXISTS (select 1 from old_rows where campaign_key is not null and round is not null and is_complete) THEN
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
