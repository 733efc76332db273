ALTER TABLE "campaigns" ADD COLUMN "status" text DEFAULT 'draft' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "vote_price" integer;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "published_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "campaigns_live_service_code" ON "campaigns" USING btree ("service_code") WHERE "campaigns"."status" = 'live';--> statement-breakpoint
-- hand-written: the campaigns made before campaigns were data already take votes: they are live,
-- published when created, and each round name becomes a round object ('week2' → 'Week 2', picking a team).
UPDATE "campaigns" SET "status" = 'live', "published_at" = "created_at";
--> statement-breakpoint
UPDATE "campaigns" c SET "rounds" = (
  SELECT coalesce(jsonb_agg(
    CASE WHEN jsonb_typeof(e.r) = 'string' THEN jsonb_build_object(
      'key', e.r #>> '{}',
      'label', CASE WHEN (e.r #>> '{}') ~ '^week[0-9]+$' THEN 'Week ' || (substring(e.r #>> '{}' FROM 5)::int)::text
                    ELSE upper(left(e.r #>> '{}', 1)) || substr(e.r #>> '{}', 2) END,
      'kind', 'teams')
    ELSE e.r END ORDER BY e.i), '[]'::jsonb)
  FROM jsonb_array_elements(c."rounds") WITH ORDINALITY AS e(r, i));
--> statement-breakpoint
-- hand-written: World Cup 2022's week rounds and final ask for the winner of the tournament's real
-- knock-out games (round of 16, quarter-finals, semi-finals, Argentina v France), as the seed makes them.
UPDATE "campaigns" SET "rounds" = '[{"key":"general","label":"General","kind":"teams"},{"key":"week2","label":"Week 2","kind":"games","games":[["Netherlands","USA"],["Argentina","Australia"],["France","Poland"],["England","Senegal"],["Japan","Croatia"],["Brazil","South Korea"],["Morocco","Spain"],["Portugal","Switzerland"]]},{"key":"week3","label":"Week 3","kind":"games","games":[["Croatia","Brazil"],["Netherlands","Argentina"],["Morocco","Portugal"],["England","France"]]},{"key":"week4","label":"Week 4","kind":"games","games":[["Argentina","Croatia"],["France","Morocco"]]},{"key":"final","label":"Final","kind":"games","games":[["Argentina","France"]]}]'::jsonb
  WHERE "key" = 'world-cup-2022'
    AND (SELECT array_agg(e.r ->> 'key' ORDER BY e.i) FROM jsonb_array_elements("rounds") WITH ORDINALITY AS e(r, i)) = ARRAY['general', 'week2', 'week3', 'week4', 'final'];
