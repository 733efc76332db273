CREATE TABLE "campaign_round_totals" (
	"campaign_key" text NOT NULL,
	"round" text NOT NULL,
	"votes" integer NOT NULL,
	"voters" integer NOT NULL,
	CONSTRAINT "campaign_round_totals_pkey" PRIMARY KEY("campaign_key","round")
);
--> statement-breakpoint
CREATE TABLE "campaign_team_votes" (
	"campaign_key" text NOT NULL,
	"round" text NOT NULL,
	"team_name" text NOT NULL,
	"team_name2" text NOT NULL,
	"votes" integer NOT NULL,
	CONSTRAINT "campaign_team_votes_pkey" PRIMARY KEY("campaign_key","round","team_name","team_name2")
);
--> statement-breakpoint
CREATE TABLE "campaign_voters" (
	"campaign_key" text NOT NULL,
	"round" text NOT NULL,
	"phone_number" text NOT NULL,
	"votes" integer NOT NULL,
	"last_vote_at" timestamp with time zone,
	CONSTRAINT "campaign_voters_pkey" PRIMARY KEY("campaign_key","round","phone_number")
);
--> statement-breakpoint
DROP INDEX "transactions_campaign_idx";--> statement-breakpoint
CREATE INDEX "campaign_voters_ranking_idx" ON "campaign_voters" USING btree ("campaign_key","round","votes" DESC NULLS FIRST,"last_vote_at","phone_number") WHERE "campaign_voters"."votes" > 0;--> statement-breakpoint
CREATE INDEX "transactions_voter_round_idx" ON "transactions" USING btree ("campaign_key","round","phone_number","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"team_name","team_name2") WHERE "transactions"."campaign_key" is not null and "transactions"."is_complete";--> statement-breakpoint
CREATE INDEX "transactions_voter_idx" ON "transactions" USING btree ("campaign_key","phone_number","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"round","team_name","team_name2") WHERE "transactions"."campaign_key" is not null and "transactions"."is_complete";--> statement-breakpoint
-- Keeps campaign_voters, campaign_round_totals and campaign_team_votes in step with the counted votes
-- (campaign transactions that are processed), once per statement through transition tables, as
-- transaction_daily_stats is kept (0002). A vote counts for its round and for round 'all'. Adding a
-- vote moves the last vote time forward; taking one away (settled back, deleted, moved) reads the
-- voter's newest remaining vote from its index. A statement touching no vote costs one query.
CREATE FUNCTION "campaign_vote_counts_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  vote_columns constant text := 'campaign_key, round, phone_number, team_name, team_name2, created_at';
  counted constant text := 'campaign_key is not null and round is not null and is_complete';
  changes text;
  touched boolean;
  removed boolean;
BEGIN
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
      from (%s) c cross join lateral (values (c.round), ('all')) as r(round)
      group by 1, 2, 3
    ),
    up as (
      insert into campaign_voters as v (campaign_key, round, phone_number, votes, last_vote_at)
      select campaign_key, round, phone_number, n, added_last from k order by 1, 2, 3
      on conflict (campaign_key, round, phone_number)
      do update set votes = v.votes + excluded.votes, last_vote_at = greatest(v.last_vote_at, excluded.last_vote_at)
      returning v.campaign_key, v.round, v.phone_number, v.votes
    )
    insert into campaign_round_totals as t (campaign_key, round, votes, voters)
    select up.campaign_key, up.round, sum(k.n)::int,
           sum(case when up.votes > 0 and up.votes - k.n <= 0 then 1
                    when up.votes <= 0 and up.votes - k.n > 0 then -1 else 0 end)::int
    from up join k using (campaign_key, round, phone_number)
    group by 1, 2
    order by 1, 2
    on conflict (campaign_key, round)
    do update set votes = t.votes + excluded.votes, voters = t.voters + excluded.voters
  $sql$, changes);

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
    insert into campaign_team_votes as s (campaign_key, round, team_name, team_name2, votes)
    select c.campaign_key, c.round, coalesce(c.team_name, ''), coalesce(c.team_name2, ''), sum(c.sign)::int
    from (%s) c
    group by 1, 2, 3, 4
    order by 1, 2, 3, 4
    on conflict (campaign_key, round, team_name, team_name2) do update set votes = s.votes + excluded.votes
  $sql$, changes);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "transactions_votes_insert" AFTER INSERT ON "transactions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "campaign_vote_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "transactions_votes_update" AFTER UPDATE ON "transactions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "campaign_vote_counts_apply"();
--> statement-breakpoint
CREATE TRIGGER "transactions_votes_delete" AFTER DELETE ON "transactions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "campaign_vote_counts_apply"();
--> statement-breakpoint
-- The votes already recorded.
INSERT INTO "campaign_voters" (campaign_key, round, phone_number, votes, last_vote_at)
SELECT t.campaign_key, r.round, t.phone_number, count(*)::int, max(t.created_at)
FROM "transactions" t CROSS JOIN LATERAL (VALUES (t.round), ('all')) AS r(round)
WHERE t.campaign_key IS NOT NULL AND t.round IS NOT NULL AND t.is_complete
GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO "campaign_round_totals" (campaign_key, round, votes, voters)
SELECT campaign_key, round, sum(votes)::int, count(*)::int FROM "campaign_voters" GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO "campaign_team_votes" (campaign_key, round, team_name, team_name2, votes)
SELECT campaign_key, round, coalesce(team_name, ''), coalesce(team_name2, ''), count(*)::int
FROM "transactions"
WHERE campaign_key IS NOT NULL AND round IS NOT NULL AND is_complete
GROUP BY 1, 2, 3, 4;
