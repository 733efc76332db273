CREATE TABLE "campaigns" (
	"key" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"service_code" text NOT NULL,
	"rounds" jsonb NOT NULL,
	"teams" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "categories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"user_id" uuid,
	"price_ordinary" integer,
	"price_kibimba" integer,
	"price_vip" integer,
	"price_vvip" integer,
	"price_olukalala" integer,
	"price_bigsingle" integer,
	"price_singleandcorporate" integer,
	"price_overs" integer,
	"price_akatambula" integer,
	"price_family" integer,
	"price_earlykickoff" integer,
	"price_doubles" integer,
	"price_latekickoff" integer,
	"price_normal" integer,
	"price_single" integer,
	"price_odd2" integer,
	"price_odd3" integer,
	"price_supper" integer,
	"price_corporate" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text,
	"message" text NOT NULL,
	"description" text,
	"category_id" uuid NOT NULL,
	"category_level" text NOT NULL,
	"created_by" uuid,
	"active" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "login_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mail_outbox" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "password_resets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"family_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"category_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"phone_number" text NOT NULL,
	"message" text NOT NULL,
	"category_level" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"provider" text DEFAULT 'local' NOT NULL,
	"provider_ref" text,
	"failure_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "transactions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"service_code" text NOT NULL,
	"phone_number" text NOT NULL,
	"network" text NOT NULL,
	"category_id" uuid,
	"category_level" text,
	"amount" integer,
	"session_id" text,
	"payment_ref" text,
	"is_complete" boolean DEFAULT false NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL,
	"is_resolved" boolean DEFAULT false NOT NULL,
	"resolved_by" uuid,
	"resolved_at" timestamp with time zone,
	"callback_time" timestamp with time zone,
	"message_statuses" text,
	"ticket_message" text,
	"campaign_key" text,
	"round" text,
	"team_name" text,
	"team_name2" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_name" text NOT NULL,
	"email" text,
	"password_hash" text NOT NULL,
	"role" text DEFAULT 'agent' NOT NULL,
	"is_afcon" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contents" ADD CONSTRAINT "contents_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contents" ADD CONSTRAINT "contents_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "password_resets" ADD CONSTRAINT "password_resets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_codes" ADD CONSTRAINT "service_codes_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_messages" ADD CONSTRAINT "sms_messages_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_category_id_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_campaign_key_campaigns_key_fk" FOREIGN KEY ("campaign_key") REFERENCES "public"."campaigns"("key") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "categories_name_key" ON "categories" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "categories_user_idx" ON "categories" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "categories_created_at_idx" ON "categories" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "contents_one_active_key" ON "contents" USING btree ("category_id","category_level") WHERE "contents"."active";--> statement-breakpoint
CREATE INDEX "contents_created_at_idx" ON "contents" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "login_attempts_key_idx" ON "login_attempts" USING btree ("key","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "password_resets_hash_key" ON "password_resets" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "refresh_tokens_hash_key" ON "refresh_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "refresh_tokens_family_idx" ON "refresh_tokens" USING btree ("family_id");--> statement-breakpoint
CREATE UNIQUE INDEX "service_codes_name_key" ON "service_codes" USING btree ("name");--> statement-breakpoint
CREATE INDEX "service_codes_category_idx" ON "service_codes" USING btree ("category_id");--> statement-breakpoint
CREATE INDEX "sms_messages_created_at_idx" ON "sms_messages" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "sms_messages_user_idx" ON "sms_messages" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "sms_messages_provider_ref_idx" ON "sms_messages" USING btree ("provider_ref");--> statement-breakpoint
CREATE INDEX "transactions_code_time_idx" ON "transactions" USING btree ("service_code","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "transactions_time_idx" ON "transactions" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "transactions_phone_time_idx" ON "transactions" USING btree ("phone_number","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "transactions_failed_idx" ON "transactions" USING btree ("service_code","created_at" DESC NULLS LAST) WHERE "transactions"."is_deleted" and not "transactions"."is_complete";--> statement-breakpoint
CREATE INDEX "transactions_failed_time_idx" ON "transactions" USING btree ("created_at" DESC NULLS LAST) WHERE "transactions"."is_deleted" and not "transactions"."is_complete";--> statement-breakpoint
CREATE INDEX "transactions_campaign_idx" ON "transactions" USING btree ("campaign_key","round","phone_number");--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_payment_ref_key" ON "transactions" USING btree ("payment_ref");--> statement-breakpoint
CREATE UNIQUE INDEX "transactions_session_key" ON "transactions" USING btree ("session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_user_name_key" ON "users" USING btree (lower("user_name"));--> statement-breakpoint
CREATE INDEX "users_created_at_idx" ON "users" USING btree ("created_at");