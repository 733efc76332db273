DROP INDEX "transactions_code_time_idx";--> statement-breakpoint
DROP INDEX "transactions_time_idx";--> statement-breakpoint
DROP INDEX "transactions_phone_time_idx";--> statement-breakpoint
DROP INDEX "transactions_failed_idx";--> statement-breakpoint
DROP INDEX "transactions_failed_time_idx";--> statement-breakpoint
CREATE INDEX "transactions_code_time_idx" ON "transactions" USING btree ("service_code","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST,"is_complete","is_deleted","network","category_level","amount");--> statement-breakpoint
CREATE INDEX "transactions_time_idx" ON "transactions" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "transactions_phone_time_idx" ON "transactions" USING btree ("phone_number","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "transactions_failed_idx" ON "transactions" USING btree ("service_code","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "transactions"."is_deleted" and not "transactions"."is_complete";--> statement-breakpoint
CREATE INDEX "transactions_failed_time_idx" ON "transactions" USING btree ("created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "transactions"."is_deleted" and not "transactions"."is_complete";