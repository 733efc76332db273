CREATE TABLE "transaction_daily_stats" (
	"service_code" text NOT NULL,
	"day" date NOT NULL,
	"dimension" text NOT NULL,
	"key" text NOT NULL,
	"is_complete" boolean NOT NULL,
	"is_deleted" boolean NOT NULL,
	"calls" integer NOT NULL,
	"amount" bigint NOT NULL,
	CONSTRAINT "transaction_daily_stats_pkey" PRIMARY KEY("service_code","day","dimension","key","is_complete","is_deleted")
);
--> statement-breakpoint
DROP INDEX "transactions_code_time_idx";--> statement-breakpoint
CREATE INDEX "transaction_daily_stats_day_idx" ON "transaction_daily_stats" USING btree ("day");--> statement-breakpoint
CREATE INDEX "transactions_code_time_idx" ON "transactions" USING btree ("service_code","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
-- Keeps transaction_daily_stats in step with transactions, once per statement (transition tables),
-- so a bulk insert costs one upsert per touched key, not one per row. Days and hours are those of
-- the service's zone (SERVICE_TIME_ZONE in src/domain/format.ts). An update moves a call's counts
-- only when something counted changed, so resolving or recording an SMS status costs a join.
CREATE FUNCTION "transaction_daily_stats_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    changes := 'select n.*, 1 as sign from new_rows n';
  ELSIF TG_OP = 'DELETE' THEN
    changes := 'select o.*, -1 as sign from old_rows o';
  ELSE
    changes := 'with moved as (
        select o.id from old_rows o join new_rows n on n.id = o.id
        where (o.service_code, o.created_at, o.is_complete, o.is_deleted, o.category_level, o.network, o.amount)
          is distinct from (n.service_code, n.created_at, n.is_complete, n.is_deleted, n.category_level, n.network, n.amount))
      select n.*, 1 as sign from new_rows n where n.id in (select id from moved)
      union all
      select o.*, -1 as sign from old_rows o where o.id in (select id from moved)';
  END IF;
  EXECUTE format($sql$
    insert into transaction_daily_stats as s (service_code, day, dimension, key, is_complete, is_deleted, calls, amount)
    select c.service_code, (c.created_at at time zone 'Africa/Kampala')::date, d.dimension, d.key,
           c.is_complete, c.is_deleted, sum(c.sign)::int, coalesce(sum(c.sign * c.amount), 0)::bigint
    from (%s) c
    cross join lateral (values
      ('hour', extract(hour from c.created_at at time zone 'Africa/Kampala')::int::text),
      ('level', coalesce(c.category_level, '')),
      ('network', c.network)) as d(dimension, key)
    group by 1, 2, 3, 4, 5, 6
    order by 1, 2, 3, 4, 5, 6
    on conflict (service_code, day, dimension, key, is_complete, is_deleted)
    do update set calls = s.calls + excluded.calls, amount = s.amount + excluded.amount
  $sql$, changes);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "transactions_stats_insert" AFTER INSERT ON "transactions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "transaction_daily_stats_apply"();
--> statement-breakpoint
CREATE TRIGGER "transactions_stats_update" AFTER UPDATE ON "transactions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "transaction_daily_stats_apply"();
--> statement-breakpoint
CREATE TRIGGER "transactions_stats_delete" AFTER DELETE ON "transactions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "transaction_daily_stats_apply"();
--> statement-breakpoint
-- The calls already recorded.
INSERT INTO "transaction_daily_stats" (service_code, day, dimension, key, is_complete, is_deleted, calls, amount)
SELECT t.service_code, (t.created_at at time zone 'Africa/Kampala')::date, d.dimension, d.key,
       t.is_complete, t.is_deleted, count(*)::int, coalesce(sum(t.amount), 0)::bigint
FROM "transactions" t
CROSS JOIN LATERAL (VALUES
  ('hour', extract(hour from t.created_at at time zone 'Africa/Kampala')::int::text),
  ('level', coalesce(t.category_level, '')),
  ('network', t.network)) AS d(dimension, key)
GROUP BY 1, 2, 3, 4, 5, 6;
