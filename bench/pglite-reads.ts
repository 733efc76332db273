/**
 * The transaction reads on PGlite, in process and without HTTP: each endpoint's statement of
 * bench:api (page, failed, phone search, summary) run a few hundred times per variant, the variants
 * taking turns call by call, and the median CPU time per call of each (PGlite runs in this process,
 * and CPU time is steadier than wall time on a shared machine). Variants:
 *   drizzle           what the API runs: transactionReads(db); its statements are built with drizzle's
 *                     sql template and, on PGlite, parsed once by name (preparedReadRows, db/prepared.ts)
 *   parsersPerQuery   the same text and values with drizzle's parsers handed to PGlite per query,
 *                     as drizzle did before openDatabase gave PGlite its parsers (db/client.ts)
 *   client            the same text and values straight to PGlite's query, no options (an unnamed
 *                     statement, parsed and planned on every call)
 *   withoutResolved   as client, without the resolvedBy and resolvedAt fields (added after 1647e71)
 *   old               only with --old MODULE: another transaction-reads module's transactionReads(db),
 *                     for example 1647e71's, written beside today's with its imports pointed at
 *                     copies of its own db/raw.ts (and SERVICE_TIME_ZONE made a constant)
 *
 *   node --import tsx bench/pglite-reads.ts [--rounds 300] [--dir /tmp/pgl-reads] [--rows 100000] [--only page,search] [--old ./path.ts]
 *
 * The folder is seeded the first time as bench:api seeds (100,000 calls, Africa/Kampala) and reused.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { fillPlaceholders, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { ensureFirstAdmin } from '../server/src/auth/first-admin';
import { DRIZZLE_TEXT_PARSERS, openDatabase, type Db } from '../server/src/db/client';
import { seedDemoData } from '../server/src/db/seed';
import { dailySummarySql, filterValues, pageSql, transactionReads, type TransactionFilter } from '../server/src/repositories/transaction-reads';
import { setServiceTimeZone, todayInServiceZone } from '../src/domain/format';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const ROUNDS = Number(option('rounds', '300'));
const DIR = path.resolve(option('dir', '/tmp/pgl-reads'));
const ROWS = Number(option('rows', '100000'));
const ONLY = option('only', '');
const OLD = option('old', '');
const ZONE = 'Africa/Kampala';
const CODE = '*217*1#'; // the busiest code of the seed, as bench:api

/** Today's reads, or an older module's (before dailySummaryJson, the summary's counts were read as rows). */
type Reads = Pick<ReturnType<typeof transactionReads>, 'pageJson'> &
  Partial<Pick<ReturnType<typeof transactionReads>, 'dailySummaryJson'>> & { dailyStats?(filter: { codes: string[]; day: string }): Promise<unknown> };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  setServiceTimeZone(ZONE);
  fs.mkdirSync(DIR, { recursive: true });
  const database = await openDatabase({ dataDir: DIR });
  const db = database.db;
  const client = (db as unknown as { $client: PGlite }).$client;
  const count = async () => (await client.query<{ n: number }>('select count(*)::int as n from transactions')).rows[0].n;
  if ((await count()) < ROWS * 0.9) {
    const started = Date.now();
    await ensureFirstAdmin(db, 'bench-admin', 'bench-password-1');
    await seedDemoData(db, { timeZone: ZONE, transactions: ROWS, votesPerCampaign: 100 });
    await client.query('vacuum analyze transactions');
    console.log(`seeded in ${(Date.now() - started) / 1000} s`);
  }
  // As bench:api: yesterday (a whole day) and the phone of a recent call.
  const day = todayInServiceZone(new Date(Date.now() - 86_400_000));
  const [{ phone_number: phone }] = (await client.query<{ phone_number: string }>('select phone_number from transactions where campaign_key is null order by created_at desc limit 1 offset 500')).rows;
  console.log(`${await count()} calls; ${CODE} on ${day}; searching ${phone}; ${ROUNDS} rounds`);

  const reads = transactionReads(db);
  const old = OLD ? ((await import(path.resolve(OLD))) as { transactionReads(db: Db): Reads }).transactionReads(db) : undefined;
  const dialect = new PgDialect();
  const drizzleOptions = { rowMode: 'object' as const, parsers: DRIZZLE_TEXT_PARSERS };
  /** The variants that send the statement's text themselves. */
  function textVariants(statement: SQL, values: Record<string, unknown>) {
    const query = dialect.sqlToQuery(statement);
    const params = fillPlaceholders(query.params, values);
    const resolved = /, \(select json_build_object\('_id', "users"."id".*? as "resolvedAt"/;
    return {
      // PGlite's own query, past DrizzlePGlite's, with the parsers drizzle hands over.
      parsersPerQuery: () => PGlite.prototype.query.call(client, query.sql, params, drizzleOptions),
      client: () => client.query(query.sql, params),
      ...(resolved.test(query.sql) ? { withoutResolved: () => client.query(query.sql.replace(resolved, ''), params) } : {}),
    };
  }

  const endpoints: Record<string, Record<string, () => Promise<unknown>>> = {};
  const pages: Record<string, TransactionFilter> = {
    page: { codes: [CODE], day },
    failed: { codes: [CODE], day, status: 'failed' },
    search: { phoneNumber: phone },
  };
  for (const [name, filter] of Object.entries(pages)) {
    endpoints[name] = {
      ...(old ? { old: () => old.pageJson(filter, 0, 50) } : {}),
      drizzle: () => reads.pageJson(filter, 0, 50),
      ...textVariants(pageSql(filter), { ...filterValues(filter), offset: 0, limit: 50 }),
    };
  }
  const summary = { codes: [CODE], day };
  endpoints.summary = {
    ...(old ? { old: () => (old.dailySummaryJson ? old.dailySummaryJson(summary, CODE) : old.dailyStats!(summary)) } : {}),
    drizzle: () => reads.dailySummaryJson(summary, CODE),
    ...textVariants(dailySummarySql(summary), { ...filterValues(summary), name: CODE }),
  };

  for (const [name, variants] of Object.entries(endpoints)) {
    if (ONLY && !ONLY.split(',').includes(name)) continue;
    const entries = Object.entries(variants);
    const times: Record<string, number[]> = Object.fromEntries(entries.map(([variant]) => [variant, []]));
    for (const [, run] of entries) for (let i = 0; i < 20; i++) await run(); // warm-up
    for (let round = 0; round < ROUNDS; round++) {
      // Every variant once per round, the order rotating, so a change in load falls on all alike.
      for (let j = 0; j < entries.length; j++) {
        const [variant, run] = entries[(round + j) % entries.length];
        const start = process.cpuUsage();
        await run();
        const used = process.cpuUsage(start);
        times[variant].push((used.user + used.system) / 1000);
      }
    }
    const base = median(times[old ? 'old' : 'drizzle']);
    const cells = entries.map(([variant]) => `${variant} ${median(times[variant]).toFixed(3)} ms (${Math.round((base / median(times[variant])) * 100)}%)`);
    console.log(`${name}: ${cells.join(' | ')}`);
  }
  console.log(`speed in % of ${old ? 'old' : 'drizzle'} (its median CPU ms per call / the variant's)`);
  await database.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
