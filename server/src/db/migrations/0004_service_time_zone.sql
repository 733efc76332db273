CREATE TABLE "service_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"time_zone" text DEFAULT 'Africa/Kampala' NOT NULL,
	CONSTRAINT "service_settings_one_row" CHECK ("service_settings"."id" = 1)
);
--> statement-breakpoint
INSERT INTO "service_settings" ("id", "time_zone") VALUES (1, 'Africa/Kampala');
--> statement-breakpoint
-- As in 0002, with the days and hours of the zone in service_settings instead of a constant.
CREATE OR REPLACE FUNCTION "transaction_daily_stats_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changes text;
  zone text := (select time_zone from service_settings where id = 1);
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
    select c.service_code, (c.created_at at time zone $1)::date, d.dimension, d.key,
           c.is_complete, c.is_deleted, sum(c.sign)::int, coalesce(sum(c.sign * c.amount), 0)::bigint
    from (%s) c
    cross join lateral (values
      ('hour', extract(hour from c.created_at at time zone $1)::int::text),
      ('level', coalesce(c.category_level, '')),
      ('network', c.network)) as d(dimension, key)
    group by 1, 2, 3, 4, 5, 6
    order by 1, 2, 3, 4, 5, 6
    on conflict (service_code, day, dimension, key, is_complete, is_deleted)
    do update set calls = s.calls + excluded.calls, amount = s.amount + excluded.amount
  $sql$, changes) USING zone;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Makes `zone` the service's zone; when it changes, counts every call again by that zone's days.
-- Answers whether it changed. An unknown zone raises an error and changes nothing.
CREATE FUNCTION "set_service_time_zone"(zone text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  PERFORM now() at time zone zone;
  UPDATE service_settings SET time_zone = zone WHERE id = 1 AND time_zone <> zone;
  IF NOT FOUND THEN
    RETURN false;
  END IF;
  LOCK TABLE transactions IN SHARE MODE;
  DELETE FROM transaction_daily_stats;
  INSERT INTO transaction_daily_stats (service_code, day, dimension, key, is_complete, is_deleted, calls, amount)
  SELECT t.service_code, (t.created_at at time zone zone)::date, d.dimension, d.key,
         t.is_complete, t.is_deleted, count(*)::int, coalesce(sum(t.amount), 0)::bigint
  FROM transactions t
  CROSS JOIN LATERAL (VALUES
    ('hour', extract(hour from t.created_at at time zone zone)::int::text),
    ('level', coalesce(t.category_level, '')),
    ('network', t.network)) AS d(dimension, key)
  GROUP BY 1, 2, 3, 4, 5, 6;
  RETURN true;
END;
$$;
