CREATE TABLE "local_payment_decisions" (
	"reference" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"due_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ussd_confirmations" (
	"phone_number" text PRIMARY KEY NOT NULL,
	"recent" timestamp with time zone[] DEFAULT '{}' NOT NULL
);
