CREATE TABLE "transaction_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "transaction_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"transaction_id" uuid,
	"session_id" text,
	"kind" text NOT NULL,
	"actor" text NOT NULL,
	"actor_user_id" uuid,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"dedupe_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "votes_per_round_cap" integer;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "ticket_sms_ref" text;--> statement-breakpoint
ALTER TABLE "transaction_events" ADD CONSTRAINT "transaction_events_transaction_id_transactions_id_fk" FOREIGN KEY ("transaction_id") REFERENCES "public"."transactions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transaction_events" ADD CONSTRAINT "transaction_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transaction_events_transaction_idx" ON "transaction_events" USING btree ("transaction_id","id");--> statement-breakpoint
CREATE INDEX "transaction_events_session_idx" ON "transaction_events" USING btree ("session_id","id") WHERE "transaction_events"."session_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "transaction_events_dedupe_key" ON "transaction_events" USING btree ("dedupe_key");--> statement-breakpoint
CREATE INDEX "transactions_ticket_sms_ref_idx" ON "transactions" USING btree ("ticket_sms_ref") WHERE "transactions"."ticket_sms_ref" is not null;