/**
 * Campaign benchmark, run by bench:api after the transactions and alone as
 * `node --import tsx bench/api-campaigns.ts`: seeds World Cup votes into fresh local PostgreSQL
 * databases at two sizes, starts the real server alone in its own process (bench/api-server.ts), and
 * measures with autocannon, in a process of its own, the overall ranking page, a round ranking page
 * and the team results. Target: p99 under 25 ms at 10 connections, the two sizes within 30%.
 * Each size is measured twice, on servers with the answer cache (RANKING_CACHE_MS, default 1000)
 * and without it (0), so the reader sees what the cache buys. autocannon repeating one URL reads
 * the cache almost always; the mixed run walks 50 pages of 5 rankings, so misses show too.
 * Appends a "Campaigns (API)" section to bench/RESULTS.md.
 *
 *   --campaign-votes 1000000 --campaign-small 100000   the two sizes (votes)
 *   --duration 10 --connections 10                     as bench/api.ts
 *   --reuse                                            keep databases already seeded to that size
 *   --db NAME                                          databases NAME_votes_small and NAME_votes (default dialdesk_bench, as bench/api.ts)
 *   --cached-only                                      skip the servers without the cache
 *   --port N                                           the server's port (default: any free one)
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import type { Result } from 'autocannon';
import { sql } from 'drizzle-orm';
import { Client } from 'pg';
import { ensureFirstAdmin } from '../server/src/auth/first-admin';
import { rankingCacheMs } from '../server/src/config';
import { openDatabase, type Database } from '../server/src/db/client';
import { WORLD_CUP_2022 } from '../server/src/db/seed-data';
import { seedCampaigns, seedVotes } from '../server/src/db/seed-votes';
import { startServer } from './server-process';

const ADMIN = { userName: 'bench-admin', password: 'bench-password-1' };
const AUTOCANNON = path.join(__dirname, '..', 'node_modules', 'autocannon', 'autocannon.js');
const LOAD_REQUESTS = path.join(__dirname, 'load-requests.ts');

interface Endpoint {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: object;
  /** Paths each connection asks in turn (same method and body), instead of `path` alone. */
  paths?: string[];
}

const WORLD_CUP_RANKINGS = ['better/all', 'final/winner/better/all', 'week2/better/all', 'week3/better/all', 'week4/better/all'];

const ENDPOINTS: Endpoint[] = [
  { name: 'overall ranking page', method: 'POST', path: '/v1/world/cup/better/all?page=1&limit=50', body: { serviceCode: WORLD_CUP_2022.serviceCode } },
  { name: 'week 2 ranking page', method: 'POST', path: '/v1/world/cup/week2/better/all?page=1&limit=50', body: { serviceCode: WORLD_CUP_2022.serviceCode } },
  { name: 'team results (all rounds)', method: 'GET', path: `/v1/campaigns/${WORLD_CUP_2022.key}/results` },
  { name: 'team results (week 2)', method: 'GET', path: `/v1/campaigns/${WORLD_CUP_2022.key}/results?round=week2` },
  {
    name: 'ranking pages mixed (5 rankings × pages 1–10)',
    method: 'POST',
    path: '/v1/world/cup/better/all',
    body: { serviceCode: WORLD_CUP_2022.serviceCode },
    paths: Array.from({ length: 10 }, (_, page) => WORLD_CUP_RANKINGS.map((ranking) => `/v1/world/cup/${ranking}?page=${page + 1}&limit=50`)).flat(),
  },
];

interface Measured {
  name: string;
  /** RANKING_CACHE_MS of the server measured (0: no cache). */
  cacheMs: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

interface Run {
  votes: number;
  voters: number;
  seedSeconds: number;
  measured: Measured[];
}

const log = (...parts: unknown[]) => console.log(`[bench campaigns ${new Date().toISOString().slice(11, 19)}]`, ...parts);

async function rowsOf<T>(database: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  return ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
}

/** A database of `votes` World Cup votes (one voter per ten votes), seeded unless `reuse` finds one. */
async function seededDatabase(baseUrl: string, name: string, votes: number, reuse: boolean) {
  const admin = new Client({ connectionString: baseUrl });
  await admin.connect();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  try {
    if (reuse && (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount) {
      const database = await openDatabase({ databaseUrl: url.toString() });
      const [{ n }] = await rowsOf<{ n: number }>(database, sql`select count(*)::int as n from transactions where campaign_key is not null`);
      if (n === votes) return { database, url: url.toString(), seedSeconds: 0 };
      await database.close();
    }
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const database = await openDatabase({ databaseUrl: url.toString() });
  const started = Date.now();
  await ensureFirstAdmin(database.db, ADMIN.userName, ADMIN.password);
  await seedCampaigns(database.db);
  await seedVotes(database.db, { campaign: WORLD_CUP_2022, count: votes, days: 30 });
  // Fresh statistics and visibility map, as autovacuum would have them on a live database.
  await database.db.execute(sql`vacuum analyze`);
  return { database, url: url.toString(), seedSeconds: (Date.now() - started) / 1000 };
}

function loadRun(url: string, endpoint: Endpoint, headers: Record<string, string>, duration: number, connections: number): Promise<Result> {
  if (endpoint.paths) {
    const body = JSON.stringify(endpoint.body);
    const options = { url, connections, duration, headers: { ...headers, 'content-type': 'application/json' }, requests: endpoint.paths.map((p) => ({ method: endpoint.method, path: p, body })) };
    return new Promise((resolve, reject) => {
      execFile(process.execPath, ['--import', 'tsx', LOAD_REQUESTS, JSON.stringify(options)], { maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout) as Result)));
    });
  }
  const argv = [AUTOCANNON, '--json', '-c', String(connections), '-d', String(duration), '-m', endpoint.method];
  for (const [key, value] of Object.entries({ ...headers, 'content-type': 'application/json' })) argv.push('-H', `${key}=${value}`);
  if (endpoint.body) argv.push('-b', JSON.stringify(endpoint.body));
  argv.push(url + endpoint.path);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, argv, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => (error ? reject(error) : resolve(JSON.parse(stdout) as Result)));
  });
}

async function benchmarkSize(baseUrl: string, name: string, votes: number, options: Options): Promise<Run> {
  log(`seeding ${votes.toLocaleString('en-US')} votes into ${name}`);
  const { database, url, seedSeconds } = await seededDatabase(baseUrl, name, votes, options.reuse);
  const [{ voters }] = await rowsOf<{ voters: number }>(database, sql`select sum(voters)::int as voters from campaign_round_totals where campaign_key = ${WORLD_CUP_2022.key} and round = 'all'`);
  await database.close();
  log(`${votes} votes, ${voters} voters, seeded in ${seedSeconds.toFixed(0)} s`);
  const measured: Measured[] = [];
  for (const cacheMs of options.uncached ? [options.cacheMs, 0] : [options.cacheMs]) {
    const server = await startServer({ BENCH_MODE: 'app', BENCH_DATABASE_URL: url, BENCH_JWT_SECRET: crypto.randomUUID(), RANKING_CACHE_MS: String(cacheMs), BENCH_PORT: String(options.port) });
    try {
      const login = await fetch(`${server.url}/v1/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
      const { results } = (await login.json()) as { results: { accessToken: string } };
      const headers = { authorization: `Bearer ${results.accessToken}` };
      for (const endpoint of ENDPOINTS) {
        await loadRun(server.url, endpoint, headers, 1, options.connections); // warm-up: JIT, plans, pool
        const result = await loadRun(server.url, endpoint, headers, options.duration, options.connections);
        measured.push({ name: endpoint.name, cacheMs, rps: Math.round(result.requests.average), p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx + result.timeouts });
        log(votes, JSON.stringify(measured[measured.length - 1]));
      }
    } finally {
      await server.stop();
    }
  }
  return { votes, voters: Number(voters), seedSeconds, measured };
}

interface Options {
  big: number;
  small: number;
  duration: number;
  connections: number;
  reuse: boolean;
  /** Databases `${db}_votes_small` and `${db}_votes`. */
  db: string;
  cacheMs: number;
  uncached: boolean;
  port: number;
}

function readOptions(args: string[]): Options {
  const option = (name: string, fallback: number) => {
    const i = args.indexOf(`--${name}`);
    return i >= 0 ? Number(args[i + 1]) : fallback;
  };
  return {
    big: option('campaign-votes', 1_000_000),
    small: option('campaign-small', 100_000),
    duration: option('duration', 10),
    connections: option('connections', 10),
    reuse: args.includes('--reuse'),
    db: args.includes('--db') ? args[args.indexOf('--db') + 1] : 'dialdesk_bench',
    cacheMs: rankingCacheMs(process.env),
    uncached: !args.includes('--cached-only'),
    port: option('port', 0),
  };
}

/** Runs both sizes and appends the "Campaigns (API)" section to bench/RESULTS.md. */
export async function benchCampaigns(args: string[], command = `npm run bench:api -- ${args.join(' ')}`.trim()) {
  const options = readOptions(args);
  const baseUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const loadBefore = os.loadavg()[0];
  const small = await benchmarkSize(baseUrl, `${options.db}_votes_small`, options.small, options);
  const big = await benchmarkSize(baseUrl, `${options.db}_votes`, options.big, options);
  const lines = [
    `## ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC — Campaigns (API)`,
    '',
    `Command: \`${command}\`. Machine: ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? 'unknown'}), ${Math.round(os.totalmem() / 1048576)} MB memory, Node ${process.version}, local PostgreSQL.`,
    `The machine is shared with other engineers' builds and tests: load average (1 min) ${loadBefore.toFixed(1)} at the start, ${os.loadavg()[0].toFixed(1)} at the end.`,
    `autocannon: ${options.connections} connections, ${options.duration} s per endpoint after a 1 s warm-up, in its own process; the server alone in a fresh process. World Cup votes only, one voter per ten votes (power law: the top voters have thousands, each ranking row carries its 50 newest).`,
    `Answer cache: RANKING_CACHE_MS=${options.cacheMs}${options.uncached ? ', then each size again on a server with RANKING_CACHE_MS=0 (no cache)' : ''}. One URL repeated is read from memory but for one load a second; the mixed run's 50 pages each miss once a second.`,
    '',
    '| endpoint | answer cache | votes | voters | req/s | p50 ms | p99 ms | errors | p99 < 25 ms |',
    '|---|---|---:|---:|---:|---:|---:|---:|:---:|',
  ];
  const cacheLabel = (cacheMs: number) => (cacheMs > 0 ? `${cacheMs} ms` : 'off');
  for (const run of [small, big]) {
    for (const m of run.measured) lines.push(`| ${m.name} | ${cacheLabel(m.cacheMs)} | ${run.votes.toLocaleString('en-US')} | ${run.voters.toLocaleString('en-US')} | ${m.rps} | ${m.p50} | ${m.p99} | ${m.errors} | ${m.p99 < 25 ? 'yes' : 'NO'} |`);
  }
  lines.push('', `| endpoint | answer cache | req/s at ${small.votes.toLocaleString('en-US')} | at ${big.votes.toLocaleString('en-US')} | big / small | within 30% |`, '|---|---|---:|---:|---:|:---:|');
  for (const m of small.measured) {
    const b = big.measured.find((x) => x.name === m.name && x.cacheMs === m.cacheMs)!;
    const ratio = b.rps / m.rps;
    lines.push(`| ${m.name} | ${cacheLabel(m.cacheMs)} | ${m.rps} | ${b.rps} | ${(ratio * 100).toFixed(0)}% | ${Math.abs(1 - ratio) <= 0.3 ? 'yes' : 'NO'} |`);
  }
  lines.push(`\nSeeding (votes and their counts kept by the triggers): ${small.seedSeconds.toFixed(0)} s and ${big.seedSeconds.toFixed(0)} s (0 when reused).`);
  const section = lines.join('\n');
  console.log(`\n${section}`);
  fs.appendFileSync(path.join(__dirname, 'RESULTS.md'), `\n${section}\n`);
}

if (require.main === module) {
  const args = process.argv.slice(2);
  benchCampaigns(args, `node --import tsx bench/api-campaigns.ts ${args.join(' ')}`.trim()).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
