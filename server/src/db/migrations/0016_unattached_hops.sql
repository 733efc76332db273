-- A cost of a vote found in the vote surge (issue 23, pg_stat_statements and auto_explain): linking a
-- session's hops to its new call paired the session index with the null entries of
-- transaction_events_transaction_idx, dead ones included (60,000 entries, 6 ms a call). The vote
-- triggers' other costs are 0017's.
CREATE INDEX "transaction_events_unattached_idx" ON "transaction_events" USING btree ("session_id") WHERE "transaction_events"."transaction_id" is null and "transaction_events"."session_id" is not null;
