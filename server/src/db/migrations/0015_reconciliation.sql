CREATE TABLE "reconciliation_rows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "reconciliation_rows_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"statement_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"line" integer,
	"reference" text NOT NULL,
	"amount" numeric(14, 2),
	"currency" text,
	"status" text,
	"completed_at" timestamp with time zone,
	"transaction_id" uuid,
	"action" text,
	"action_by" uuid,
	"action_at" timestamp with time zone,
	"note" text
);
--> statement-breakpoint
CREATE TABLE "reconciliation_statements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"content_hash" text NOT NULL,
	"file_name" text,
	"uploaded_by" uuid,
	"lines" integer NOT NULL,
	"period_from" timestamp with time zone NOT NULL,
	"period_to" timestamp with time zone NOT NULL,
	"counts" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "reconciliation_rows" ADD CONSTRAINT "reconciliation_rows_statement_id_reconciliation_statements_id_fk" FOREIGN KEY ("statement_id") REFERENCES "public"."reconciliation_statements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_rows" ADD CONSTRAINT "reconciliation_rows_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_rows" ADD CONSTRAINT "reconciliation_rows_action_by_users_id_fk" FOREIGN KEY ("action_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reconciliation_statements" ADD CONSTRAINT "reconciliation_statements_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reconciliation_rows_statement_idx" ON "reconciliation_rows" USING btree ("statement_id","seq");--> statement-breakpoint
CREATE INDEX "reconciliation_rows_statement_kind_idx" ON "reconciliation_rows" USING btree ("statement_id","kind","seq");--> statement-breakpoint
CREATE INDEX "reconciliation_rows_reference_idx" ON "reconciliation_rows" USING btree ("reference");--> statement-breakpoint
CREATE UNIQUE INDEX "reconciliation_statements_content_hash_key" ON "reconciliation_statements" USING btree ("content_hash");--> statement-breakpoint
CREATE INDEX "reconciliation_statements_created_idx" ON "reconciliation_statements" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);