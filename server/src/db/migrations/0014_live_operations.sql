CREATE TABLE "incidents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"service_code" text,
	"kind" text NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone,
	"figures" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "resolved_reason" text;--> statement-breakpoint
ALTER TABLE "transactions" ADD COLUMN "resolved_note" text;--> statement-breakpoint
CREATE UNIQUE INDEX "incidents_open_key" ON "incidents" USING btree ("kind",coalesce("service_code", '')) WHERE "incidents"."closed_at" is null;--> statement-breakpoint
CREATE INDEX "incidents_opened_idx" ON "incidents" USING btree ("opened_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);