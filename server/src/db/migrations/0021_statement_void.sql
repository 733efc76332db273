DROP INDEX "reconciliation_statements_content_hash_key";--> statement-breakpoint
ALTER TABLE "reconciliation_statements" ADD COLUMN "period_declared" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "reconciliation_statements" ADD COLUMN "imported_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reconciliation_statements" ADD COLUMN "voided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reconciliation_statements" ADD COLUMN "voided_by" uuid;--> statement-breakpoint
ALTER TABLE "reconciliation_statements" ADD COLUMN "void_reason" text;--> statement-breakpoint
ALTER TABLE "reconciliation_statements" ADD CONSTRAINT "reconciliation_statements_voided_by_users_id_fk" FOREIGN KEY ("voided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "reconciliation_statements_content_hash_key" ON "reconciliation_statements" USING btree ("content_hash") WHERE "reconciliation_statements"."voided_at" is null;--> statement-breakpoint
-- Statements read before batches were imported whole, in one transaction.
UPDATE "reconciliation_statements" SET "imported_at" = "created_at";--> statement-breakpoint
UPDATE "reconciliation_statements" SET "counts" = jsonb_build_object('currencyMismatch', 0) || "counts";
