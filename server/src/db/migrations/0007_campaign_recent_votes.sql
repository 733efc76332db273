ALTER TABLE "campaign_voters" ADD COLUMN "recent_votes" text DEFAULT '[]' NOT NULL;--> statement-breakpoint
-- One voter's counted votes, newest first, in a round or in all rounds ('all'), as the JSON array
-- text ranking rows and the votes call answer (`VoteTransaction`: no teamName2 for a single-team
-- pick). Each branch reads its partial index alone (transactions_voter_round_idx, transactions_voter_idx).
CREATE FUNCTION "campaign_votes_json"(p_key text, p_round text, p_phone text, p_limit int, p_offset int)
RETURNS text LANGUAGE plpgsql STABLE AS $$
DECLARE
  result text;
BEGIN
  IF p_round = 'all' THEN
    SELECT '[' || coalesce(string_agg(a.vote, ','), '') || ']' INTO result FROM (
      SELECT '{"_id":"' || t.id || '","createdAt":"' || to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
        || '","teamName":' || coalesce(to_json(t.team_name)::text, 'null') || coalesce(',"teamName2":' || to_json(t.team_name2)::text, '') || '}' AS vote
      FROM transactions t
      WHERE t.campaign_key = p_key AND t.round IS NOT NULL AND t.phone_number = p_phone AND t.is_complete
      ORDER BY t.created_at DESC, t.id DESC LIMIT p_limit OFFSET p_offset) a;
  ELSE
    SELECT '[' || coalesce(string_agg(a.vote, ','), '') || ']' INTO result FROM (
      SELECT '{"_id":"' || t.id || '","createdAt":"' || to_char(t.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
        || '","teamName":' || coalesce(to_json(t.team_name)::text, 'null') || coalesce(',"teamName2":' || to_json(t.team_name2)::text, '') || '}' AS vote
      FROM transactions t
      WHERE t.campaign_key = p_key AND t.round = p_round AND t.phone_number = p_phone AND t.is_complete
      ORDER BY t.created_at DESC, t.id DESC LIMIT p_limit OFFSET p_offset) a;
  END IF;
  RETURN result;
END;
$$;
--> statement-breakpoint
-- Keeps campaign_voters.recent_votes (the 50 newest votes a ranking row carries) in step, once per
-- statement, for the voters whose counted votes the statement changed — the same changes
-- campaign_vote_counts_apply (0005) counts. PostgreSQL fires a table's triggers for one event in
-- name order: these are named transactions_votes_zz_* to run after transactions_votes_*, so the
-- voter rows they update exist. A statement touching no vote, such as a ticket SMS status, costs one query.
CREATE FUNCTION "campaign_recent_votes_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  counted constant text := 'campaign_key is not null and round is not null and is_complete';
  changes text;
BEGIN
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
$$;
--> statement-breakpoint
CREATE TRIGGER "transactions_votes_zz_recent_insert" AFTER INSERT ON "transactions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "campaign_recent_votes_apply"();
--> statement-breakpoint
CREATE TRIGGER "transactions_votes_zz_recent_update" AFTER UPDATE ON "transactions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "campaign_recent_votes_apply"();
--> statement-breakpoint
CREATE TRIGGER "transactions_votes_zz_recent_delete" AFTER DELETE ON "transactions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "campaign_recent_votes_apply"();
--> statement-breakpoint
-- The votes already recorded.
UPDATE "campaign_voters" SET recent_votes = campaign_votes_json(campaign_key, round, phone_number, 50, 0) WHERE votes > 0;
