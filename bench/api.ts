/**
 * API benchmark: seeds transactions into a fresh local PostgreSQL database and into
 * PGlite, starts the real server alone in its own process (bench/api-server.ts), and measures with
 * autocannon, run in processes of its own, the transactions page, the failed page, the phone
 * search and the dashboard summary beside a bare Fastify route that answers the same 50-row JSON
 * from memory. Appends the numbers to bench/RESULTS.md.
 *
 *   npm run bench:api                          1,000,000 rows (and 100,000 for the cost comparison)
 *   npm run bench:api -- --rows 200000 --small 20000 --pglite-rows 100000 --duration 5
 *   npm run bench:api -- --reuse               keep PostgreSQL databases already seeded to that size
 *   npm run bench:api -- --db NAME             the PostgreSQL database's name (default dialdesk_bench)
 *   npm run bench:api -- --base DIR            also measure the server of another checkout (DIR, with its
 *                                              node_modules) on the same databases in the same run: "before"
 *   npm run bench:api -- --no-campaigns       the transaction reads alone, without the campaign answers after them
 *   BENCH_DATABASE_URL='postgres://postgres@localhost/postgres?host=/var/run/postgresql' npm run bench:api
 *                                              over PostgreSQL's Unix socket (pg and pgbench alike), as a one-box install may
 *   npm run bench:api -- --port N              the servers' ports: N (this checkout's), N+1 (--base's; its
 *                                              bench/api-server.ts must read BENCH_PORT), N+2 (the bare routes)
 *
 * On PostgreSQL, pgbench then runs each endpoint's SQL at the same concurrency: the database's own
 * limit, against which each endpoint's req/s is reported as a share. PostgreSQL's CPU per request
 * (its backends' CPU from /proc, the bench's own connection left out) is reported for both, so a
 * shortfall against pgbench can be told apart: more database work, or the same work sharing the
 * machine's CPUs with the server and the load generator.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import type { Result } from 'autocannon';
import { fillPlaceholders, is, Placeholder, sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { Client, Pool } from 'pg';
import { ensureFirstAdmin } from '../server/src/auth/first-admin';
import { openDatabase, type Database } from '../server/src/db/client';
import { seedDemoData } from '../server/src/db/seed';
import { dailySummarySql, filterValues, pageSql, type TransactionFilter } from '../server/src/repositories/transaction-reads';
import { todayInServiceZone } from '../src/domain/format';
import { benchCampaigns } from './api-campaigns';
import type { FloorStatement } from './api-server';
import { BENCH_APPLICATION, sampleBackendsCpu } from './ingest';
import { procCpuMs } from './measure';
import { startServer, type ServerProcess } from './server-process';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const ROWS = option('rows', 1_000_000);
const SMALL = option('small', 100_000);
const PGLITE_ROWS = option('pglite-rows', 100_000);
const DURATION = option('duration', 10);
const CONNECTIONS = option('connections', 10);
/** Keep an already seeded database of the same size (for repeated runs while tuning). */
const REUSE = args.includes('--reuse');
/** A checkout of the version to compare with (the "before" server), or undefined. */
const BASE = args.includes('--base') ? path.resolve(args[args.indexOf('--base') + 1]) : undefined;
const PGBENCH = '/usr/bin/pgbench';
/** The PostgreSQL database's name (`<name>_small` for the small one), so parallel runs need not share. */
/** The first of three ports of one's own for the servers; 0 lets each take any free port. */
const PORT = option('port', 0);
const portOf = (offset: number): Record<string, string> => (PORT ? { BENCH_PORT: String(PORT + offset) } : {});
const DB_NAME = args.includes('--db') ? args[args.indexOf('--db') + 1] : 'dialdesk_bench';
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ZONE = 'Africa/Kampala';
const ADMIN = { userName: 'bench-admin', password: 'bench-password-1' };
const CODE = '*217*1#'; // the busiest code of the seed
const DAY = new Date(Date.now() - 86_400_000);
const YESTERDAY = todayInServiceZone(DAY); // a whole day, the heaviest one to page and count
/** The first day of the 31 that end yesterday: the longest range the lists take. */
const MONTH_BEFORE = todayInServiceZone(new Date(DAY.getTime() - 30 * 86_400_000));

interface Endpoint {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: object;
  /** The one statement the endpoint runs for an admin, for pgbench. */
  query?: SQL;
  values?: Record<string, unknown>;
}

interface Measured {
  name: string;
  /** The server process's CPU time per request, in ms. */
  cpuMs: number;
  /** PostgreSQL's backends' CPU time per request, in ms (PostgreSQL on this machine only). */
  dbCpuMs?: number;
  /** The load generator's (autocannon's) CPU time per request, in ms. */
  loadCpuMs: number;
  rps: number;
  p99: number;
  p50: number;
  errors: number;
}

interface Run {
  label: string;
  rows: number;
  seedSeconds: number;
  measured: Measured[];
  peakRssMb: number;
  /** The same endpoints on the --base checkout's server, measured just before. */
  before?: Measured[];
  /** pgbench of each endpoint's SQL, by endpoint name: transactions per second and PostgreSQL's CPU ms each. */
  pgbench?: Record<string, PgbenchRun>;
  /** The same SQL sent by a bare Fastify route through pg (bench/api-server.ts, the driver floors), by endpoint name. */
  floors?: Record<string, Measured>;
}

interface PgbenchRun {
  tps: number;
  dbCpuMs?: number;
}

/** Samples the CPU of the database's backends (but the bench's own) while `work` runs; undefined off this machine. */
type DbCpuSampler = () => Promise<{ stop(): Promise<number | undefined> }>;

const round3 = (x: number) => Math.round(x * 1000) / 1000;

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
const log = (...parts: unknown[]) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}]`, ...parts);

async function freshPostgres(name: string, rows: number): Promise<{ database: Database; seeded: boolean; url: string }> {
  const admin = new Client({ connectionString: PG_URL });
  await admin.connect();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  if (REUSE) {
    const exists = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (exists.rowCount) {
      const database = await openDatabase({ databaseUrl: url.toString() });
      const [{ n }] = await rowsOf<{ n: number }>(database, sql`select count(*)::int as n from transactions where campaign_key is null`).catch(() => [{ n: -1 }]);
      if (n >= rows * 0.99) {
        await admin.end();
        return { database, seeded: true, url: url.toString() };
      }
      await database.close();
    }
  }
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  return { database: await openDatabase({ databaseUrl: url.toString() }), seeded: false, url: url.toString() };
}

async function seed(database: Database, rows: number) {
  const started = Date.now();
  await ensureFirstAdmin(database.db, ADMIN.userName, ADMIN.password);
  await seedDemoData(database.db, { timeZone: ZONE, transactions: rows, votesPerCampaign: 100 });
  // Fresh statistics and visibility map, as autovacuum would have them on a live database.
  await database.db.execute(sql`vacuum analyze transactions`);
  return (Date.now() - started) / 1000;
}

/** Both drivers answer raw SQL with `rows`. */
async function rowsOf<T>(database: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

const AUTOCANNON = path.join(__dirname, '..', 'node_modules', 'autocannon', 'autocannon.js');

/** One autocannon run in its own process, so the load generator does not share the server's event loop. */
function loadRun(url: string, endpoint: Endpoint, headers: Record<string, string>, duration: number): Promise<Result> {
  const argv = [AUTOCANNON, '--json', '-c', String(CONNECTIONS), '-d', String(duration), '-m', endpoint.method];
  for (const [key, value] of Object.entries({ ...headers, 'content-type': 'application/json' })) argv.push('-H', `${key}=${value}`);
  if (endpoint.body) argv.push('-b', JSON.stringify(endpoint.body));
  argv.push(url + endpoint.path);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, argv, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      if (error) reject(error);
      else resolve(JSON.parse(stdout) as Result);
    });
  });
}

/** This process's ended children's CPU time, in ms: across one load run, the load generator's own. */
const endedChildrenCpuMs = () => procCpuMs('self', true);

/**
 * Warm-up seconds of each endpoint before any is measured: a fresh server's JIT, plans, pool and
 * heap. Its CPU a request kept falling for some 20 s of load (0.33, 0.26, 0.24 ms on the failed page
 * in three 5 s runs one after another), so four endpoints of 5 s each come first.
 */
const WARMUP = option('warmup', 5);

async function measure(server: ServerProcess, endpoint: Endpoint, headers: Record<string, string>, dbCpu?: DbCpuSampler): Promise<Measured> {
  await loadRun(server.url, endpoint, headers, 1); // this endpoint's plans and caches, right before it
  const cpuBefore = server.cpuMs();
  const loadBefore = endedChildrenCpuMs();
  const database = await dbCpu?.();
  const result = await loadRun(server.url, endpoint, headers, DURATION);
  const dbMs = await database?.stop();
  return {
    name: endpoint.name,
    cpuMs: round3((server.cpuMs() - cpuBefore) / result.requests.total),
    loadCpuMs: round3((endedChildrenCpuMs() - loadBefore) / result.requests.total),
    ...(dbMs === undefined ? {} : { dbCpuMs: round3(dbMs / result.requests.total) }),
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
  };
}


/** Runs every endpoint against a seeded database, then the bare routes with the same page JSON. */
async function benchmark(label: string, database: Database, where: Record<string, string>, rows: number, seedSeconds: number): Promise<Run> {
  // A few figures for the log, read before the server opens the database (PGlite is single-process).
  // A caller with a typical number of calls: the phone of a recent call.
  const [{ phone_number: phone }] = await rowsOf<{ phone_number: string }>(database, sql`select phone_number from transactions where campaign_key is null order by created_at desc limit 1 offset 500`);
  const [{ n: dayRows }] = await rowsOf<{ n: number }>(database, sql`select count(*)::int as n from transactions where service_code = ${CODE} and created_at >= ${YESTERDAY}::date::timestamp at time zone ${ZONE} and created_at < (${YESTERDAY}::date + 1)::timestamp at time zone ${ZONE}`);
  log(`${label}: ${CODE} has ${dayRows} calls on ${YESTERDAY}; searching ${phone}`);
  await database.close();

  const secret = crypto.randomUUID();
  const pageBody = { name: CODE, date: YESTERDAY };
  const failed: TransactionFilter = { codes: [CODE], day: YESTERDAY, status: 'failed' };
  const endpoints: Endpoint[] = [
    { name: 'transactions page', method: 'POST', path: '/v1/transactions?page=1&limit=50', body: pageBody, query: pageSql({ codes: [CODE], day: YESTERDAY }), values: { ...filterValues({ codes: [CODE], day: YESTERDAY }), offset: 0, limit: 50 } },
    { name: 'failed page', method: 'GET', path: `/v1/transactions/to/give/attention?page=1&limit=50&name=${encodeURIComponent(CODE)}&date=${YESTERDAY}`, query: pageSql(failed), values: { ...filterValues(failed), offset: 0, limit: 50 } },
    { name: 'search', method: 'POST', path: '/v1/transactions/search?page=1&limit=50', body: { phoneNumber: phone }, query: pageSql({ phoneNumber: phone }), values: { ...filterValues({ phoneNumber: phone }), offset: 0, limit: 50 } },
    { name: 'dashboard summary', method: 'GET', path: `/v1/dashboard/summary?name=${encodeURIComponent(CODE)}&date=${YESTERDAY}`, query: dailySummarySql({ codes: [CODE], day: YESTERDAY }), values: { ...filterValues({ codes: [CODE], day: YESTERDAY }), name: CODE } },
    // The rest have no one statement for pgbench: their figures are the API's alone.
    // Over 31 days, as one day's failed calls of a code fill fewer than 20 pages.
    { name: 'failed page 20 (31 days)', method: 'GET', path: `/v1/transactions/to/give/attention?page=20&limit=50&name=${encodeURIComponent(CODE)}&dateFrom=${MONTH_BEFORE}&dateTo=${YESTERDAY}` },
    { name: '31-day range page', method: 'POST', path: '/v1/transactions?page=1&limit=50', body: { name: CODE, dateFrom: MONTH_BEFORE, dateTo: YESTERDAY } },
    { name: 'customer page', method: 'GET', path: `/v1/customers/${phone}` },
    { name: "customer's calls", method: 'GET', path: `/v1/customers/${phone}/calls?page=1&limit=20` },
    { name: 'full-day CSV export', method: 'GET', path: `/v1/transactions/export?name=${encodeURIComponent(CODE)}&date=${YESTERDAY}` },
  ];

  /** Starts a server (this checkout's, or --base's) and signs in; answers it with its headers and the first page's JSON. */
  async function startApp(root: string | undefined, env: Record<string, string> = where) {
    const server = await startServer({ BENCH_MODE: 'app', BENCH_JWT_SECRET: secret, ...env, ...portOf(root ? 1 : 0) }, root);
    const login = await fetch(`${server.url}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
    const { results } = (await login.json()) as { results: { accessToken: string } };
    const headers = { authorization: `Bearer ${results.accessToken}` };
    const pageResponse = await fetch(`${server.url}/v1/transactions?page=1&limit=50`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(pageBody) });
    return { server, headers, json: await pageResponse.text() };
  }

  /** The mean of two measurements: req/s, latency and CPU averaged. */
  const mean = (a: Measured, b: Measured): Measured => ({
    name: a.name,
    cpuMs: round3((a.cpuMs + b.cpuMs) / 2),
    ...(a.dbCpuMs === undefined || b.dbCpuMs === undefined ? {} : { dbCpuMs: round3((a.dbCpuMs + b.dbCpuMs) / 2) }),
    loadCpuMs: round3((a.loadCpuMs + b.loadCpuMs) / 2),
    rps: Math.round((a.rps + b.rps) / 2),
    p50: (a.p50 + b.p50) / 2,
    p99: (a.p99 + b.p99) / 2,
    errors: a.errors + b.errors,
  });

  const measured: Measured[] = [];
  let before: Measured[] | undefined;
  let pageJson = '';
  let peakRssMb = 0;
  // Both servers run at once and take turns per endpoint (before, after, after, before), so a
  // change in the machine's load falls on both alike. PGlite is one process per data folder: the
  // base server gets a copy of the seeded folder.
  const baseDir = BASE && where.BENCH_DATA_DIR ? `${where.BENCH_DATA_DIR}-base` : undefined;
  if (baseDir) fs.cpSync(where.BENCH_DATA_DIR, baseDir, { recursive: true });
  const base = BASE ? await startApp(BASE, baseDir ? { BENCH_DATA_DIR: baseDir } : where) : undefined;
  const app = await startApp(undefined);
  // PostgreSQL's share of each request, beside the server's: the bench's own pool is left out.
  const dbUrl = where.BENCH_DATABASE_URL;
  const pool = dbUrl ? new Pool({ connectionString: dbUrl, max: 1, application_name: BENCH_APPLICATION }) : undefined;
  const dbCpu: DbCpuSampler | undefined = pool ? () => sampleBackendsCpu(pool, new URL(dbUrl!).pathname.slice(1)) : undefined;
  try {
    pageJson = app.json;
    // Every endpoint before any is measured (WARMUP says why).
    for (const endpoint of endpoints) {
      if (base) await loadRun(base.server.url, endpoint, base.headers, WARMUP);
      await loadRun(app.server.url, endpoint, app.headers, WARMUP);
    }
    if (base) before = [];
    for (const endpoint of endpoints) {
      if (base && before) {
        const b1 = await measure(base.server, endpoint, base.headers, dbCpu);
        const a1 = await measure(app.server, endpoint, app.headers, dbCpu);
        const a2 = await measure(app.server, endpoint, app.headers, dbCpu);
        const b2 = await measure(base.server, endpoint, base.headers, dbCpu);
        before.push(mean(b1, b2));
        measured.push(mean(a1, a2));
        log(label, 'before', JSON.stringify(before[before.length - 1]));
      } else {
        measured.push(await measure(app.server, endpoint, app.headers, dbCpu));
      }
      log(label, JSON.stringify(measured[measured.length - 1]));
    }
    peakRssMb = app.server.peakRssMb();
  } finally {
    await app.server.stop();
    await base?.server.stop();
    if (baseDir) fs.rmSync(baseDir, { recursive: true, force: true });
  }
  let pgbench: Record<string, PgbenchRun> | undefined;
  let floors: Record<string, Measured> | undefined;
  // The endpoints with one statement: pgbench runs each, and so does the bare server (the driver floors).
  const withStatements = endpoints.filter((one) => one.query);
  try {
    if (dbUrl) {
      pgbench = {};
      for (const endpoint of withStatements) {
        const database = await dbCpu!();
        const run = await pgbenchRun(dbUrl, endpoint);
        const dbMs = await database.stop();
        pgbench[endpoint.name] = { tps: run.tps, ...(dbMs === undefined ? {} : { dbCpuMs: round3(dbMs / run.transactions) }) };
        log(label, 'pgbench', endpoint.name, JSON.stringify(pgbench[endpoint.name]));
      }
    }

    const pageFile = path.join(os.tmpdir(), `dialdesk-bench-page-${process.pid}.json`);
    fs.writeFileSync(pageFile, pageJson);
    const floorFile = path.join(os.tmpdir(), `dialdesk-bench-floors-${process.pid}.json`);
    const floorStatements: FloorStatement[] = withStatements.map((one) => {
      const { sql: text, params } = dialect.sqlToQuery(one.query!);
      return { text, values: fillPlaceholders(params, one.values ?? {}) };
    });
    fs.writeFileSync(floorFile, JSON.stringify(floorStatements));
    const bare = await startServer({ BENCH_MODE: 'bare', BENCH_PAGE_FILE: pageFile, ...(dbUrl ? { BENCH_DATABASE_URL: dbUrl, BENCH_FLOOR_FILE: floorFile } : {}), ...portOf(2) });
    try {
      for (const bareRoute of ['/bare', '/bare-string']) await loadRun(bare.url, { name: bareRoute, method: 'GET', path: bareRoute }, {}, WARMUP);
      measured.push(await measure(bare, { name: 'bare route (same 50 rows)', method: 'GET', path: '/bare' }, {}));
      log(label, JSON.stringify(measured[measured.length - 1]));
      measured.push(await measure(bare, { name: 'bare route, pre-serialized string', method: 'GET', path: '/bare-string' }, {}));
      log(label, JSON.stringify(measured[measured.length - 1]));
      if (dbUrl) {
        floors = {};
        for (const [i, endpoint] of withStatements.entries()) {
          const route: Endpoint = { name: endpoint.name, method: 'GET', path: `/floor/${i}` };
          await loadRun(bare.url, route, {}, WARMUP);
          floors[endpoint.name] = await measure(bare, route, {}, dbCpu);
          log(label, 'driver floor', JSON.stringify(floors[endpoint.name]));
        }
      }
    } finally {
      await bare.stop();
      fs.rmSync(pageFile, { force: true });
      fs.rmSync(floorFile, { force: true });
    }
  } finally {
    await pool?.end();
  }
  return { label, rows, seedSeconds, measured, peakRssMb, before, pgbench, floors };
}

const dialect = new PgDialect();

/**
 * Runs an endpoint's statement with pgbench, prepared, at the benchmark's concurrency for the same
 * duration; answers transactions per second and how many ran. Its parameters go in as pgbench
 * variables; a `?host=` of the URL (a Unix socket's folder) is pgbench's host, as it is pg's.
 */
function pgbenchRun(url: string, endpoint: Endpoint): Promise<{ tps: number; transactions: number }> {
  const { sql: text, params } = dialect.sqlToQuery(endpoint.query!);
  const defines = params.flatMap((param, i) => ['-D', `p${i + 1}=${String(is(param, Placeholder) ? endpoint.values![param.name] : param)}`]);
  const script = path.join(os.tmpdir(), `dialdesk-pgbench-${process.pid}.sql`);
  // pgbench reads ':name' as a variable even inside a literal: the time format's colons become chr(58).
  const literalColons = /'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'/g;
  const body = text.replace(literalColons, `'YYYY-MM-DD"T"HH24' || chr(58) || 'MI' || chr(58) || 'SS.MS"Z"'`);
  fs.writeFileSync(script, `${body.replace(/\s+/g, ' ').replace(/\$(\d+)/g, ':p$1')};\n`);
  const { hostname, port, username, pathname, searchParams } = new URL(url);
  const argv = ['-n', '-M', 'prepared', '-c', String(CONNECTIONS), '-j', '2', '-T', String(DURATION), '-f', script, ...defines];
  argv.push('-h', searchParams.get('host') ?? hostname, '-p', port || '5432', '-U', username || 'postgres', pathname.slice(1));
  return new Promise((resolve, reject) => {
    execFile(PGBENCH, argv, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      fs.rmSync(script, { force: true });
      const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout)?.[1];
      const transactions = /number of transactions actually processed: (\d+)/.exec(stdout)?.[1];
      if (error || !tps || !transactions) reject(error ?? new Error(`pgbench: ${stderr}`));
      else resolve({ tps: Math.round(Number(tps)), transactions: Number(transactions) });
    });
  });
}

async function onPostgres(rows: number, name: string) {
  log(`PostgreSQL: seeding ${rows.toLocaleString('en-US')} transactions into ${name}`);
  const { database, seeded, url } = await freshPostgres(name, rows);
  const seconds = seeded ? 0 : await seed(database, rows).catch(async (error) => Promise.reject(await database.close().then(() => error)));
  log(seeded ? 'reusing the seeded database' : `seeded in ${seconds.toFixed(0)} s`);
  return benchmark(`PostgreSQL ${rows.toLocaleString('en-US')}`, database, { BENCH_DATABASE_URL: url }, rows, seconds);
}

async function onPglite(rows: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dialdesk-bench-'));
  log(`PGlite: seeding ${rows.toLocaleString('en-US')} transactions in ${dir}`);
  try {
    const database = await openDatabase({ dataDir: dir });
    const seconds = await seed(database, rows).catch(async (error) => Promise.reject(await database.close().then(() => error)));
    log(`seeded in ${seconds.toFixed(0)} s`);
    return await benchmark(`PGlite ${rows.toLocaleString('en-US')}`, database, { BENCH_DATA_DIR: dir }, rows, seconds);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function report(runs: Run[]): string {
  const lines: string[] = [];
  const byName = (run: Run, name: string) => run.measured.find((m) => m.name === name);
  for (const run of runs) {
    const bare = byName(run, 'bare route (same 50 rows)')!;
    lines.push(`### ${run.label} rows (seeded in ${run.seedSeconds.toFixed(0)} s; server peak RSS ${run.peakRssMb} MB)`, '');
    lines.push('| endpoint | req/s | p50 ms | p99 ms | vs bare | server CPU ms/req | errors | ≥40% and p99<25 ms |', '|---|---:|---:|---:|---:|---:|---:|:---:|');
    for (const m of run.measured) {
      const ratio = m.rps / bare.rps;
      const okay = m.name.startsWith('bare') ? '' : ratio >= 0.4 && m.p99 < 25 ? 'yes' : 'NO';
      lines.push(`| ${m.name} | ${m.rps} | ${m.p50} | ${m.p99} | ${(ratio * 100).toFixed(0)}% | ${m.cpuMs} | ${m.errors} | ${okay} |`);
    }
    lines.push('');
    if (run.before || run.pgbench) {
      lines.push(`#### ${run.label} rows: before and after${run.pgbench ? ', and the database alone (pgbench)' : ''}`, '');
      lines.push(
        '| endpoint | before req/s | after req/s | after / before | within 5% | before CPU ms/req | after CPU ms/req | pgbench tps | after / pgbench | server ÷ bare route |',
        '|---|---:|---:|---:|:---:|---:|---:|---:|---:|---:|',
      );
      const bareCpu = byName(run, 'bare route (same 50 rows)')?.cpuMs;
      for (const m of run.measured.filter((x) => !x.name.startsWith('bare'))) {
        const b = run.before?.find((x) => x.name === m.name);
        const tps = run.pgbench?.[m.name]?.tps;
        const ratio = b ? m.rps / b.rps : undefined;
        const cell = (value: number | undefined, text: (v: number) => string) => (value === undefined ? '' : text(value));
        lines.push(`| ${m.name} | ${cell(b?.rps, String)} | ${m.rps} | ${cell(ratio, (r) => `${(r * 100).toFixed(0)}%`)} | ${cell(ratio, (r) => (r >= 0.95 ? 'yes' : 'NO'))} | ${cell(b?.cpuMs, String)} | ${m.cpuMs} | ${cell(tps, String)} | ${cell(tps, (t) => `${((m.rps / t) * 100).toFixed(0)}%`)} | ${cell(bareCpu, (c) => `${(m.cpuMs / c).toFixed(2)}×`)} |`);
      }
      lines.push('');
      if (run.pgbench) lines.push(...cpuBudget(run), '');
    }
  }
  const small = runs.find((r) => r.label.startsWith('PostgreSQL') && r.rows === SMALL);
  const big = runs.find((r) => r.label.startsWith('PostgreSQL') && r.rows === ROWS);
  if (small && big && small !== big) {
    lines.push(`### Cost at ${SMALL.toLocaleString('en-US')} vs ${ROWS.toLocaleString('en-US')} rows (PostgreSQL)`, '');
    lines.push(
      `Targets: req/s at ${ROWS.toLocaleString('en-US')} within 30% of ${SMALL.toLocaleString('en-US')}'s; p99 within 1.3× and under 50 ms at ${CONNECTIONS} connections.`,
      '',
      '| endpoint | small req/s | big req/s | big / small | within 30% | small p99 ms | big p99 ms | big ÷ small p99 | ≤ 1.3× and < 50 ms |',
      '|---|---:|---:|---:|:---:|---:|---:|---:|:---:|',
    );
    for (const b of big.measured.filter((m) => !m.name.startsWith('bare'))) {
      const a = byName(small, b.name);
      if (!a) continue;
      const ratio = b.rps / a.rps;
      const p99Ratio = b.p99 / Math.max(a.p99, 1);
      lines.push(`| ${b.name} | ${a.rps} | ${b.rps} | ${(ratio * 100).toFixed(0)}% | ${ratio >= 0.7 ? 'yes' : 'NO'} | ${a.p99} | ${b.p99} | ${p99Ratio.toFixed(2)}× | ${p99Ratio <= 1.3 && b.p99 < 50 ? 'yes' : 'NO'} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

/**
 * Where each request's CPU goes, beside pgbench's: the endpoints share the machine's CPUs among the
 * server, PostgreSQL and the load generator, pgbench among PostgreSQL and its own client. The
 * machine's CPU-seconds divided by the sum is the rate the box allows for that sum.
 */
function cpuBudget(run: Run): string[] {
  const cpus = os.cpus().length;
  const lines = [
    `##### CPU a request, ms (${cpus} CPUs: ${cpus * 1000} CPU-ms a second)`,
    '',
    '| endpoint | server | PostgreSQL | load generator | sum | CPU-ms a second ÷ sum | pgbench: PostgreSQL | pgbench: its client and the rest | driver floor: server | driver floor: PostgreSQL | PostgreSQL ÷ pgbench | PostgreSQL ÷ driver floor |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const m of run.measured.filter((x) => !x.name.startsWith('bare'))) {
    const bench = run.pgbench?.[m.name];
    const sum = m.cpuMs + (m.dbCpuMs ?? 0) + m.loadCpuMs;
    const rest = bench?.dbCpuMs === undefined ? undefined : (cpus * 1000) / bench.tps - bench.dbCpuMs;
    const ms = (x: number | undefined) => (x === undefined ? '' : x.toFixed(3));
    const floor = run.floors?.[m.name];
    const times = (a: number | undefined, b: number | undefined) => (a === undefined || !b ? '' : `${(a / b).toFixed(2)}×`);
    lines.push(
      `| ${m.name} | ${ms(m.cpuMs)} | ${ms(m.dbCpuMs)} | ${ms(m.loadCpuMs)} | ${ms(sum)} | ${Math.round((cpus * 1000) / sum)} | ${ms(bench?.dbCpuMs)} | ${ms(rest)} | ${ms(floor?.cpuMs)} | ${ms(floor?.dbCpuMs)} | ${times(m.dbCpuMs, bench?.dbCpuMs)} | ${times(m.dbCpuMs, floor?.dbCpuMs)} |`,
    );
  }
  return lines;
}

async function main() {
  const loadBefore = os.loadavg()[0];
  const runs: Run[] = [];
  if (SMALL > 0 && SMALL !== ROWS) runs.push(await onPostgres(SMALL, `${DB_NAME}_small`));
  runs.push(await onPostgres(ROWS, DB_NAME));
  if (PGLITE_ROWS > 0) runs.push(await onPglite(PGLITE_ROWS));

  const command = `npm run bench:api -- ${args.join(' ')}`.trim();
  const section = [
    `## ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC — API`,
    '',
    `Command: \`${command}\`. Machine: ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), ${mb(os.totalmem())} MB memory, Node ${process.version}.`,
    `Load average (1 min) of the machine: ${loadBefore.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end (other work shares these CPUs).`,
    `autocannon: ${CONNECTIONS} connections, ${DURATION} s per endpoint after a warm-up (${WARMUP} s of every endpoint, then 1 s of the endpoint), each in its own process, apart from the server, which runs alone in a fresh process (bench/api-server.ts; its peak RSS is its VmHWM).`,
    `Queries: service code ${CODE} (the busiest), day ${YESTERDAY} (a whole day), page 1 of 50; search by the phone of a recent call; signed in as an admin.`,
    '',
    report(runs),
  ].join('\n');
  console.log(`\n${section}`);
  const file = path.join(__dirname, 'RESULTS.md');
  const head = fs.existsSync(file) ? '' : '# Benchmark results\n\n';
  fs.appendFileSync(file, `${head}${section}\n`);
  if (!args.includes('--no-campaigns')) await benchCampaigns(args);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
