CREATE TABLE "refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transaction_id" uuid NOT NULL,
	"amount" integer NOT NULL,
	"reason" text NOT NULL,
	"note" text,
	"state" text DEFAULT 'requested' NOT NULL,
	"provider_ref" uuid DEFAULT gen_random_uuid() NOT NULL,
	"requested_by" uuid,
	"decided_by" uuid,
	"decision_reason" text,
	"failure_reason" text,
	"sweep_claimed_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"settled_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refunds_amount_positive" CHECK ("refunds"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_provider_ref_key" ON "refunds" USING btree ("provider_ref");--> statement-breakpoint
CREATE UNIQUE INDEX "refunds_one_open_key" ON "refunds" USING btree ("transaction_id") WHERE "refunds"."state" in ('requested', 'approved', 'submitted', 'unknown');--> statement-breakpoint
CREATE INDEX "refunds_transaction_idx" ON "refunds" USING btree ("transaction_id","created_at");--> statement-breakpoint
CREATE INDEX "refunds_state_idx" ON "refunds" USING btree ("state","created_at");--> statement-breakpoint
CREATE INDEX "refunds_created_idx" ON "refunds" USING btree ("created_at");--> statement-breakpoint
-- hand-written:
-- A refund's rules, held by the database whatever writes and however many at once: the call's row
-- is locked first (FOR UPDATE), so concurrent requests for one call are checked one after the
-- other, each seeing the refunds committed before it.
CREATE OR REPLACE FUNCTION "refunds_check"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  call record;
  taken integer;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.state IS DISTINCT FROM OLD.state AND NOT (
    (OLD.state = 'requested' AND NEW.state IN ('approved', 'rejected'))
    OR (OLD.state = 'approved' AND NEW.state IN ('submitted', 'unknown', 'completed', 'failed'))
    OR (OLD.state IN ('submitted', 'unknown') AND NEW.state IN ('submitted', 'unknown', 'completed', 'failed'))
  ) THEN
    RAISE EXCEPTION 'A % refund cannot become %', OLD.state, NEW.state USING ERRCODE = 'check_violation', CONSTRAINT = 'refunds_state_change';
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.amount = OLD.amount AND NEW.transaction_id = OLD.transaction_id THEN
    RETURN NEW;
  END IF;
  SELECT t.amount, t.is_complete, t.is_deleted INTO call FROM transactions t WHERE t.id = NEW.transaction_id FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'No such call' USING ERRCODE = 'foreign_key_violation', CONSTRAINT = 'refunds_transaction_id_transactions_id_fk';
  END IF;
  IF NOT call.is_complete OR call.is_deleted OR coalesce(call.amount, 0) <= 0 THEN
    RAISE EXCEPTION 'Only a processed call can be refunded' USING ERRCODE = 'check_violation', CONSTRAINT = 'refunds_processed_call';
  END IF;
  IF TG_OP = 'INSERT' AND NEW.state IN ('requested', 'approved', 'submitted', 'unknown') AND EXISTS (
    SELECT 1 FROM refunds r WHERE r.transaction_id = NEW.transaction_id AND r.state IN ('requested', 'approved', 'submitted', 'unknown')
  ) THEN
    RAISE EXCEPTION 'This call already has a refund in progress' USING ERRCODE = 'unique_violation', CONSTRAINT = 'refunds_one_open_key';
  END IF;
  SELECT coalesce(sum(r.amount), 0) INTO taken FROM refunds r
    WHERE r.transaction_id = NEW.transaction_id AND r.state NOT IN ('rejected', 'failed') AND r.id <> NEW.id;
  IF NEW.amount IS NULL THEN
    NEW.amount := call.amount - taken;
  END IF;
  IF NEW.amount <= 0 OR (NEW.state NOT IN ('rejected', 'failed') AND taken + NEW.amount > call.amount) THEN
    RAISE EXCEPTION 'Refunds cannot add up to more than the call''s amount (% left)', greatest(call.amount - taken, 0) USING ERRCODE = 'check_violation', CONSTRAINT = 'refunds_within_amount';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
COMMENT ON FUNCTION "refunds_check"() IS 'Holds a refund''s rules under concurrency: locks the call, refuses a call not processed, a second open refund, a total past the call''s amount, and a state change the flow does not allow.';
--> statement-breakpoint
CREATE TRIGGER "refunds_check" BEFORE INSERT OR UPDATE ON "refunds" FOR EACH ROW EXECUTE FUNCTION "refunds_check"();
