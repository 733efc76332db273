ALTER TABLE "reconciliation_rows" ADD COLUMN "type" text DEFAULT 'PAYMENT' NOT NULL;--> statement-breakpoint
ALTER TABLE "reconciliation_rows" ADD COLUMN "refund_id" uuid;--> statement-breakpoint
ALTER TABLE "reconciliation_rows" ADD CONSTRAINT "reconciliation_rows_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reconciliation_rows_transaction_idx" ON "reconciliation_rows" USING btree ("transaction_id") WHERE "reconciliation_rows"."transaction_id" is not null;--> statement-breakpoint
CREATE INDEX "reconciliation_rows_refund_idx" ON "reconciliation_rows" USING btree ("refund_id") WHERE "reconciliation_rows"."refund_id" is not null;
--> statement-breakpoint
-- hand-written:
-- Statements imported before refund lines count none of the refund kinds.
UPDATE "reconciliation_statements" SET "counts" = '{"refundUnknown": 0, "refundMismatch": 0, "refundMissing": 0}'::jsonb || "counts";
--> statement-breakpoint
-- A refund's rules as before, except that a call a standing statement shows paid (a paid-no-ticket
-- call, failed or pending here) may be refunded too: the provider holds its money.
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
  -- Processed, or shown paid by a standing statement (a paid-no-ticket call): either way the provider took its money.
  IF coalesce(call.amount, 0) <= 0 OR NOT ((call.is_complete AND NOT call.is_deleted) OR EXISTS (
    SELECT 1 FROM reconciliation_rows rr JOIN reconciliation_statements st ON st.id = rr.statement_id
    WHERE rr.transaction_id = NEW.transaction_id AND rr.type = 'PAYMENT' AND rr.status = 'SUCCESSFUL' AND st.voided_at IS NULL AND st.imported_at IS NOT NULL
  )) THEN
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
COMMENT ON FUNCTION "refunds_check"() IS 'Holds a refund''s rules under concurrency: locks the call, refuses a call neither processed nor shown paid by a standing statement, a second open refund, a total past the call''s amount, and a state change the flow does not allow.';
