CREATE TABLE "audit_head" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"seq" bigint DEFAULT 0 NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "audit_head_one_row" CHECK ("audit_head"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" uuid PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"actor_id" uuid,
	"actor_user_name" text,
	"actor_role" text,
	"ip" text,
	"action" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text,
	"entity_label" text NOT NULL,
	"service_code" text,
	"changes" jsonb NOT NULL,
	"reason" text,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "audit_log_seq_key" ON "audit_log" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "audit_log_entity_idx" ON "audit_log" USING btree ("entity_type","entity_id","seq");--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_id","seq");--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at");--> statement-breakpoint
-- The chain starts from 64 zeros (server/src/audit/audit-chain.ts, GENESIS_HASH).
INSERT INTO "audit_head" ("id", "seq", "hash") VALUES (1, 0, repeat('0', 64));
--> statement-breakpoint
-- The trail is append-only: the database itself refuses to change or remove an entry, whoever asks,
-- and refuses to remove the chain's head (a superuser can still switch triggers off, which verify finds).
CREATE OR REPLACE FUNCTION "audit_log_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% on % is refused: the audit trail is append-only', TG_OP, TG_TABLE_NAME USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
COMMENT ON FUNCTION "audit_log_refuse_change"() IS 'Refuses any change to or removal of an audit entry, and removal of the chain''s head: the trail is append-only.';
--> statement-breakpoint
CREATE TRIGGER "audit_log_no_update_delete" BEFORE UPDATE OR DELETE ON "audit_log" FOR EACH ROW EXECUTE FUNCTION "audit_log_refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "audit_log_no_truncate" BEFORE TRUNCATE ON "audit_log" FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "audit_head_no_delete" BEFORE DELETE ON "audit_head" FOR EACH ROW EXECUTE FUNCTION "audit_log_refuse_change"();
--> statement-breakpoint
CREATE TRIGGER "audit_head_no_truncate" BEFORE TRUNCATE ON "audit_head" FOR EACH STATEMENT EXECUTE FUNCTION "audit_log_refuse_change"();
