ALTER TABLE "incidents" ADD COLUMN "acknowledged_by" uuid;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "acknowledged_by_name" text;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "acknowledged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "incidents" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_acknowledged_by_users_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;