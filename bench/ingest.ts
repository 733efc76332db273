/**
 * Ingestion benchmark: complete USSD sales against the built server (`npm run build`
 * first), as `npm run serve` runs it, on a fresh local PostgreSQL database of its own
 * (PAYMENT_PROVIDER=external, PAYMENT_CALLBACK_SECRET set here). Each sale is a customer's three
 * hops (menu, choice, confirm) and the provider's signed payment callback, sent twice, some at
 * once, some followed by a late FAILED; the bench plays the provider. It reports completed sales a
 * second and each hop's p99, then asserts that the database holds exactly the acknowledged sales,
 * once each, with one ticket SMS each.
 *
 *   npm run bench:ingest                              20 s, 32 customers at once, PostgreSQL
 *   npm run bench:ingest -- --duration 30 --connections 64
 *   npm run bench:ingest -- --crash                   SIGKILL the server mid-run, restart it, finish, assert the same
 *   npm run bench:ingest -- --pg-restart              restart PostgreSQL mid-run (pg_ctlcluster, as root), finish, assert the same
 *   npm run bench:ingest -- --pg-restart terminate    instead end every API connection mid-run (pg_terminate_backend)
 *   npm run bench:ingest -- --pglite                  the embedded PGlite too (DATA_DIR in a temp folder)
 *   npm run bench:ingest -- --db NAME                 the PostgreSQL database (default dialdesk_ingest), dropped and created
 *   npm run bench:ingest -- --rate 200                the customers keep to 200 sales/s together (default 0: as fast as they can)
 *   npm run bench:ingest -- --codes 32                spread the sales over 32 service codes (default 1: every sale on one code and day)
 *   npm run bench:ingest -- --live-clients 500        500 admins' consoles follow GET /v1/live while the sales run (what the push costs)
 *   npm run bench:ingest -- --live-clients 500 --codes 32 --live-follow code
 *                                                     each console follows one of the codes (?serviceCode=), as a list screen does
 *   npm run bench:ingest -- --record                  append the results to bench/RESULTS.md
 *
 * The provider learns each payment's reference from the collect request; here the bench reads it
 * by session id (PostgreSQL: one batched query every few ms; PGlite, which one process holds: the
 * API's phone search, one request per sale, measured as `lookup` and not counted as a hop).
 */
import { execFile, execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { Client, Pool } from 'pg';
import { signedCallback } from '../server/src/ingestion/callback-signature';
import { openDatabase, type Database } from '../server/src/db/client';
import { categories, contents, serviceCodes } from '../server/src/db/schema';
import { startBuiltServer, startServer, type ServerProcess } from './server-process';
import { freePort } from '../scripts/free-port';
import { percentile, procCpuMs, sleep, waitTurn } from './measure';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => (args.includes(`--${name}`) ? Number(args[args.indexOf(`--${name}`) + 1]) : fallback);
const DURATION_S = option('duration', 20);
const CONNECTIONS = option('connections', 32);
/** Sales a second the customers keep to together (0: as fast as the box allows); a fixed rate compares CPU per sale at the same batching. */
const RATE = option('rate', 0);
const CRASH = args.includes('--crash');
const PGLITE = args.includes('--pglite');
/** PostgreSQL taken away half-way: 'restart' (the whole cluster, pg_ctlcluster) or 'terminate' (the API's connections); '' not. */
const PG_RESTART = args.includes('--pg-restart') ? (args[args.indexOf('--pg-restart') + 1] === 'terminate' ? 'terminate' : 'restart') : '';
const RECORD = args.includes('--record');
const DB_NAME = args.includes('--db') ? args[args.indexOf('--db') + 1] : 'dialdesk_ingest';
export const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const LIVE_CLIENTS = option('live-clients', 0);
/** How long the consoles' connection burst is let pass before the sales start (ms). */
const CONSOLES_SETTLE_MS = 5000;
/** `all`: every console follows every code (an admin with no screen narrowing it); `code`: console i follows code i mod --codes. */
const LIVE_FOLLOW = args.includes('--live-follow') ? args[args.indexOf('--live-follow') + 1] : 'all';
const CODES = Array.from({ length: Math.max(1, option('codes', 1)) }, (_, i) => `*217*${900 + i}#`);
const ADMIN = { userName: 'bench-admin', password: 'bench-password-1' };
const HOPS = ['menu', 'choice', 'confirm', 'callback', 'callback again', 'lookup'] as const;
type HopName = (typeof HOPS)[number];

export interface Run {
  label: string;
  sales: number;
  seconds: number;
  latencies: Record<HopName, number[]>;
  errors: number;
  crashes: number;
  /** CPU time the server processes and this bench process spent while the customers ran, in ms. */
  serverCpuMs: number;
  clientCpuMs: number;
  /** CPU time of the server's PostgreSQL backends while the customers ran (local PostgreSQL, not --crash), in ms. */
  databaseCpuMs: number | undefined;
  checked: string;
}

/** Servers still running, stopped if the bench fails half-way so none is left behind. */
const live = new Set<ServerProcess>();
async function start(env: Record<string, string>, floor = false): Promise<ServerProcess> {
  // The floor server takes the same database and port (bench/sale-floor.ts).
  const server = await (floor ? startServer({ BENCH_MODE: 'sale-floor', BENCH_DATABASE_URL: env.DATABASE_URL, BENCH_PORT: env.PORT }) : startBuiltServer(env));
  live.add(server);
  return server;
}
async function end(server: ServerProcess, how: 'stop' | 'kill') {
  live.delete(server);
  await (how === 'stop' ? server.stop() : server.kill());
}



/** A category with one priced level and its active ticket, on each code the customers dial. */
async function addCatalogue(database: Database) {
  const [category] = await database.db.insert(categories).values({ name: 'Bench Tips', ordinary: 1000 }).returning();
  await database.db.insert(serviceCodes).values(CODES.map((name) => ({ name, categoryId: category.id })));
  await database.db.insert(contents).values({ categoryId: category.id, categoryLevel: 'ordinary', message: 'Bench ticket: Arsenal v Chelsea 1X @1.45', active: true });
}

export async function adminQuery(query: string) {
  const client = new Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/** Finds payment references by session id, many sessions per query. */
export function batchedLookup(pool: Pool) {
  let waiting = new Map<string, ((ref: string | undefined) => void)[]>();
  let timer: NodeJS.Timeout | undefined;
  const flush = async () => {
    timer = undefined;
    const batch = waiting;
    waiting = new Map();
    try {
      const { rows } = await pool.query<{ session_id: string; payment_ref: string }>('select session_id, payment_ref from transactions where session_id = any($1)', [[...batch.keys()]]);
      const found = new Map(rows.map((row) => [row.session_id, row.payment_ref]));
      for (const [session, resolvers] of batch) for (const resolve of resolvers) resolve(found.get(session));
    } catch {
      for (const resolvers of batch.values()) for (const resolve of resolvers) resolve(undefined);
    }
  };
  return (sessionId: string) =>
    new Promise<string | undefined>((resolve) => {
      waiting.set(sessionId, [...(waiting.get(sessionId) ?? []), resolve]);
      timer ??= setTimeout(() => void flush(), 5);
    });
}

export interface RunOptions {
  /** API processes sharing the database (several only on PostgreSQL); each hop and callback goes to any of them. */
  instances?: number;
  /** SIGKILL an instance half-way and start it again (--crash; with several, the others keep serving). */
  crash?: boolean;
  /** The database URL the servers connect to when it is not `where`'s (PgBouncer in front). */
  serverDatabaseUrl?: string;
  /** The database's name, for its backends' CPU. */
  databaseName?: string;
  /** The sale's floor server (bench/sale-floor.ts) instead of the API: PostgreSQL only, one instance, no crash. */
  floor?: boolean;
}

export async function runOnce(label: string, where: { databaseUrl: string } | { dataDir: string }, options: RunOptions = {}): Promise<Run> {
  const instances = options.instances ?? 1;
  const crashing = options.crash ?? CRASH;
  const databaseName = options.databaseName ?? DB_NAME;
  const secret = crypto.randomBytes(32).toString('hex');
  // The USSD callback URL's token, as the network's gateway is given it.
  const ussdToken = crypto.randomBytes(24).toString('hex');
  const port = await freePort();
  const env: Record<string, string> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    PAYMENT_PROVIDER: 'external',
    PAYMENT_CALLBACK_SECRET: secret,
    USSD_CALLBACK_TOKEN: ussdToken,
    SMS_PROVIDER: 'local',
    SEED_DEMO: '0',
    // The bench's admin signs in with its password alone, as before two-factor sign-in existed.
    REQUIRE_2FA_ROLES: '',
    LOG_LEVEL: 'warn',
    ADMIN_USERNAME: ADMIN.userName,
    ADMIN_PASSWORD: ADMIN.password,
    JWT_SECRET: crypto.randomBytes(32).toString('hex'),
    // The consoles are one sign-in's many tabs (followLive): let it hold them all.
    ...(LIVE_CLIENTS > 0 ? { LIVE_STREAMS_PER_SESSION: String(LIVE_CLIENTS), LIVE_STREAMS_PER_USER: String(LIVE_CLIENTS), LIVE_STREAMS_MAX: String(Math.max(LIVE_CLIENTS, 2000)) } : {}),
    ...('databaseUrl' in where ? { DATABASE_URL: options.serverDatabaseUrl ?? where.databaseUrl } : { DATA_DIR: where.dataDir, DATABASE_URL: '' }),
  };
  // Migrations and the catalogue first, with the server's own code, then the server alone.
  const setup = await openDatabase(where);
  await addCatalogue(setup);
  await setup.close();

  // Each instance on a port of its own; the first migrates, the others find the schema up to date.
  const servers: ServerProcess[] = [];
  const envs: Record<string, string>[] = [];
  for (let i = 0; i < instances; i += 1) {
    envs.push(i === 0 ? env : { ...env, PORT: String(await freePort()) });
    servers.push(await start(envs[i], options.floor));
  }
  /** Instances taking requests now (one is out while it is killed and restarted). */
  const serving = new Set(servers.map((_, i) => i));
  const anyServer = () => {
    const up = [...serving];
    return servers[up[Math.floor(Math.random() * up.length)] ?? 0];
  };
  const run = crypto.randomBytes(4).toString('hex');
  const latencies = Object.fromEntries(HOPS.map((hop) => [hop, [] as number[]])) as Record<HopName, number[]>;
  const acknowledged = new Set<string>();
  let errors = 0;
  /** Callbacks the API answered 503 (the provider retries) and other 5xx (a fault) while PostgreSQL was away. */
  let callbacks503 = 0;
  let callbacksOther5xx = 0;
  let crashes = 0;
  let restarting: Promise<void> | undefined;
  /** While PostgreSQL is away (--pg-restart): the bench's own lookups wait for it; the customers and callbacks do not. */
  let databaseAway: Promise<void> | undefined;

  const timed = async <T>(hop: HopName, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await work();
    latencies[hop].push(performance.now() - started);
    return result;
  };
  // node:http on kept-alive connections, as a network gateway holds them: fetch cost this process
  // more CPU per request than the server spent answering it, on the same 2 cores.
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS * 2 + 8 });
  const post = (url: string, body: string, headers: Record<string, string>) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = http.request(`${anyServer().url}${url}`, { method: 'POST', agent, timeout: 10_000, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
        response.on('error', reject);
      });
      request.on('timeout', () => request.destroy(new Error('timed out after 10 s')));
      request.on('error', reject);
      request.end(body);
    });
  const hop = (sessionId: string, phoneNumber: string, text: string, serviceCode: string) =>
    post(`/v1/ussd/callback?token=${ussdToken}`, new URLSearchParams({ sessionId, serviceCode, phoneNumber, networkCode: '64110', text }).toString(), {
      'content-type': 'application/x-www-form-urlencoded',
    });
  /** The provider's callback: signed, and sent until the server acknowledges it. */
  const callback = async (hopName: HopName, reference: string, status: string) => {
    const { payload: body, headers } = signedCallback({ reference, status, financialTransactionId: `bench-${reference.slice(0, 8)}` }, secret);
    for (let attempt = 0; ; attempt += 1) {
      try {
        const answer = await timed(hopName, () => post('/v1/payments/callback', body, headers));
        if (answer.status >= 200 && answer.status < 300) return;
        if (answer.status === 503) callbacks503 += 1;
        else if (answer.status >= 500) callbacksOther5xx += 1;
        if (answer.status === 401) throw new Error('the server refused the signed callback (401): is PAYMENT_CALLBACK_SECRET the one it was started with?');
        if (answer.status < 500) throw new Error(`callback ${status} answered ${answer.status}: ${answer.text.slice(0, 200)}`);
      } catch (error) {
        if (error instanceof Error && /refused the signed|callback .* answered/.test(error.message)) throw error;
      }
      errors += 1;
      if (attempt > 600) throw new Error(`callback for ${reference} never acknowledged`);
      await (restarting ?? sleep(100));
    }
  };

  let lookup: (sessionId: string, phoneNumber: string) => Promise<string | undefined>;
  let pool: Pool | undefined;
  if ('databaseUrl' in where) {
    pool = new Pool({ connectionString: where.databaseUrl, max: 2, application_name: BENCH_APPLICATION });
    // A connection cut by a PostgreSQL restart is an 'error' event on an idle client; the next query reconnects.
    pool.on('error', () => {});
    const bySession = batchedLookup(pool);
    lookup = (sessionId) => bySession(sessionId);
  } else {
    const login = await post('/v1/auth/login', JSON.stringify(ADMIN), { 'content-type': 'application/json' });
    const token = (JSON.parse(login.text) as { results: { accessToken: string } }).results.accessToken;
    lookup = async (_sessionId, phoneNumber) => {
      const answer = await post('/v1/transactions/search', JSON.stringify({ phoneNumber }), { 'content-type': 'application/json', authorization: `Bearer ${token}` });
      return (JSON.parse(answer.text) as { results?: { docs?: { paymentRef?: string }[] } }).results?.docs?.[0]?.paymentRef ?? undefined;
    };
  }

  let sale = 0;
  // Set when the customers start (after the consoles have connected), so the run lasts DURATION_S and keeps RATE from its start.
  let startedAt = Date.now();
  let until = startedAt + DURATION_S * 1000;
  /** One customer after another until the time is up: three hops, then the provider's callbacks. */
  const customer = async () => {
    while (Date.now() < until) {
      sale += 1;
      const n = sale;
      if (!(await waitTurn(n, RATE, startedAt, until))) return;
      const sessionId = `${run}-${n}`;
      const phoneNumber = `2567${String(10_000_000 + ((n * 7919) % 89_999_999)).slice(-8)}`;
      try {
        const code = CODES[n % CODES.length];
        const menu = await timed('menu', () => hop(sessionId, phoneNumber, '', code));
        if (!menu.text.startsWith('CON ')) throw new Error(`menu: ${menu.status} ${menu.text.slice(0, 100)}`);
        await timed('choice', () => hop(sessionId, phoneNumber, '1', code));
        const confirmed = await timed('confirm', () => hop(sessionId, phoneNumber, '1*1', code));
        if (!confirmed.text.startsWith('END Approve')) throw new Error(`confirm: ${confirmed.status} ${confirmed.text.slice(0, 100)}`);
      } catch {
        // The customer's session is lost (the server died mid-hop); the next customer dials.
        errors += 1;
        await (restarting ?? sleep(50));
        continue;
      }
      let reference: string | undefined;
      for (let attempt = 0; !reference && attempt < 200; attempt += 1) {
        reference = await timed('lookup', () => lookup(sessionId, phoneNumber)).catch(() => undefined);
        if (!reference) await (restarting ?? databaseAway ?? sleep(50));
      }
      if (!reference) throw new Error(`no payment reference for acknowledged session ${sessionId}`);
      const kind = n % 10;
      if (kind < 6) {
        await callback('callback', reference, 'SUCCESSFUL');
        await callback('callback again', reference, 'SUCCESSFUL');
      } else if (kind < 8) {
        // Both at once: one settles, the other finds it settled.
        await Promise.all([callback('callback', reference, 'SUCCESSFUL'), callback('callback again', reference, 'successful')]);
      } else {
        // Late and out of order: a FAILED after the success changes nothing.
        await callback('callback', reference, 'SUCCESSFUL');
        await callback('callback again', reference, 'SUCCESSFUL');
        await callback('callback again', reference, 'FAILED');
      }
      acknowledged.add(sessionId);
    }
  };

  const consoles = LIVE_CLIENTS > 0 ? await followLive(servers, LIVE_CLIENTS, post) : undefined;
  // The consoles' connections cost the server a burst of work (sign-in checks, scope reads, the garbage
  // after): a one-off, not a cost of the sales, so it is let pass before the CPU is counted.
  if (consoles) await sleep(CONSOLES_SETTLE_MS);
  startedAt = Date.now();
  until = startedAt + DURATION_S * 1000;
  const started = performance.now();
  const clientCpuAtStart = process.cpuUsage();
  // Backends are replaced when PostgreSQL goes away, so their CPU is not counted then.
  const databaseCpu = pool && !PG_RESTART ? await sampleBackendsCpu(pool, databaseName) : undefined;
  // The servers' CPU while serving (their start-up, and a restarted one's, are not counted).
  let serverCpuMs = 0;
  const serverCpuMarks = servers.map((one) => one.cpuMs());
  const progress = setInterval(() => console.log(`  ${label}: ${acknowledged.size} sales, ${sale} started, ${errors} retried or lost`), 5000);
  const crash = crashing
    ? (async () => {
        await sleep((DURATION_S * 1000) / 2);
        const victim = servers.length - 1;
        let restarted!: () => void;
        // Alone, the service is down until it is back; with others, they keep serving meanwhile.
        if (servers.length === 1) restarting = new Promise<void>((resolve) => (restarted = resolve));
        serving.delete(victim);
        serverCpuMs += servers[victim].cpuMs() - serverCpuMarks[victim];
        await end(servers[victim], 'kill');
        crashes += 1;
        servers[victim] = await start(envs[victim]);
        serverCpuMarks[victim] = servers[victim].cpuMs();
        serving.add(victim);
        restarted?.();
        restarting = undefined;
      })()
    : Promise.resolve();
  let outage: Outage | undefined;
  const pgAway =
    PG_RESTART && 'databaseUrl' in where
      ? (async () => {
          await sleep((DURATION_S * 1000) / 2);
          // The bench's own lookups wait for PostgreSQL (they stand in for the provider, which has its own
          // database); the customers and the provider's callbacks keep coming and retry as they would.
          let back!: () => void;
          databaseAway = new Promise<void>((resolve) => (back = resolve));
          outage = await takePostgresAway(PG_RESTART, databaseName, servers);
          back();
          databaseAway = undefined;
        })()
      : Promise.resolve();
  await Promise.all([...Array.from({ length: CONNECTIONS }, customer), crash, pgAway]);
  const seconds = (performance.now() - started) / 1000;
  servers.forEach((one, i) => (serverCpuMs += one.cpuMs() - serverCpuMarks[i]));
  const clientCpu = process.cpuUsage(clientCpuAtStart);
  const clientCpuMs = (clientCpu.user + clientCpu.system) / 1000;
  const databaseCpuMs = await databaseCpu?.stop();
  clearInterval(progress);
  // A sale settled just before the SIGKILL may have its ticket still 'Sending': the restarted
  // server's sweeper sends it once it is 30 s old (it looks every minute). Wait for that, so the
  // check below sees the guarantee the service gives, and report how long it took.
  let recovery = '';
  if ((crashing || PG_RESTART) && pool) {
    const waitStarted = performance.now();
    const unsent = async () =>
      (await pool.query<{ n: number }>(`select count(*)::int as n from transactions where session_id like $1 and message_statuses = 'Sending'`, [`${run}-%`])).rows[0].n;
    const left = await unsent();
    while ((await unsent()) > 0 && performance.now() - waitStarted < 150_000) await sleep(1000);
    recovery = left ? `; ${left} tickets left 'Sending' by the ${crashing ? 'kill' : 'outage'} were sent by the ${crashing ? 'restarted ' : ''}server's sweeper ${Math.round((performance.now() - waitStarted) / 1000)} s after the run` : '';
  }
  const pushed = consoles?.stop();
  for (const one of servers) await end(one, 'stop');
  agent.destroy();
  await pool?.end();

  const checked =
    (await verify(where, run, acknowledged)) +
    recovery +
    (outage
      ? `; ${outage.how} half-way: PostgreSQL away ${(outage.awayMs / 1000).toFixed(1)} s, every instance's /readyz 200 again ${(outage.readyMs / 1000).toFixed(1)} s after it returned (no restart of the API); ` +
        `${callbacks503} payment callbacks answered 503 meanwhile and retried, ${callbacksOther5xx} answered another 5xx`
      : '') +
    (pushed ? `; ${LIVE_CLIENTS} consoles followed GET /v1/live (${pushed.connected} connected), receiving ${pushed.events} transaction events in ${pushed.bytes} bytes` : '');
  return { label, sales: acknowledged.size, seconds, latencies, errors, crashes, serverCpuMs, clientCpuMs, databaseCpuMs, checked };
}

interface Outage {
  how: string;
  /** From taking PostgreSQL away to its taking connections again. */
  awayMs: number;
  /** From PostgreSQL's return to every API instance's /readyz answering 200. */
  readyMs: number;
}

/** The cluster serving PG_URL's port, as pg_lsclusters names it ('15 main'). */
function clusterOfUrl(): [string, string] {
  const port = new URL(PG_URL).port || '5432';
  const line = execFileSync('pg_lsclusters', ['-h'], { encoding: 'utf8' })
    .split('\n')
    .map((row) => row.trim().split(/\s+/))
    .find((fields) => fields[2] === port);
  if (!line) throw new Error(`no PostgreSQL cluster of this machine listens on port ${port} (pg_lsclusters)`);
  return [line[0], line[1]];
}

/** Takes PostgreSQL away under the running servers and times its return and theirs. */
async function takePostgresAway(how: 'restart' | 'terminate', database: string, servers: ServerProcess[]): Promise<Outage> {
  const started = performance.now();
  let described: string;
  if (how === 'restart') {
    const [version, cluster] = clusterOfUrl();
    described = `PostgreSQL restarted (\`pg_ctlcluster ${version} ${cluster} restart\`)`;
    // Resolves once the cluster takes connections again; asynchronous, so the customers keep dialling meanwhile.
    await promisify(execFile)('pg_ctlcluster', [version, cluster, 'restart']);
  } else {
    described = "every API connection ended (`pg_terminate_backend`)";
    await adminQuery(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${database}' and application_name <> '${BENCH_APPLICATION}' and pid <> pg_backend_pid()`);
  }
  const returned = performance.now();
  const ready = async (server: ServerProcess) => {
    for (;;) {
      const status = await fetch(`${server.url}/readyz`).then((answer) => answer.status, () => 0);
      if (status === 200) return;
      if (performance.now() - returned > 120_000) throw new Error(`${server.url} not ready 120 s after PostgreSQL returned`);
      await sleep(100);
    }
  };
  await Promise.all(servers.map(ready));
  return { how: described, awayMs: returned - started, readyMs: performance.now() - returned };
}

/**
 * `count` consoles signed in as the bench's admin, each following GET /v1/live on an instance of its
 * own connection (as many tabs would), reading and counting what they are sent until `stop()`.
 */
async function followLive(servers: ServerProcess[], count: number, post: (url: string, body: string, headers: Record<string, string>) => Promise<{ text: string }>) {
  const login = await post('/v1/auth/login', JSON.stringify(ADMIN), { 'content-type': 'application/json' });
  const token = (JSON.parse(login.text) as { results: { accessToken: string } }).results.accessToken;
  const requests: http.ClientRequest[] = [];
  let connected = 0;
  let events = 0;
  let bytes = 0;
  for (let i = 0; i < count; i += 1) {
    const server = servers[i % servers.length];
    const path = LIVE_FOLLOW === 'code' ? `/v1/live?serviceCode=${encodeURIComponent(CODES[i % CODES.length])}` : '/v1/live';
    const request = http.get(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } }, (response) => {
      if (response.statusCode === 200) connected += 1;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        events += chunk.toString().split('event: transaction').length - 1;
      });
      response.on('error', () => {});
    });
    request.on('error', () => {});
    requests.push(request);
  }
  // Connected before the sales start, so every console hears every sale.
  for (let i = 0; i < 100 && connected < count; i += 1) await sleep(50);
  return {
    stop() {
      for (const request of requests) request.destroy();
      return { connected, events, bytes };
    },
  };
}

/** The application_name of the benches' own connections, whose CPU sampleBackendsCpu leaves out. */
export const BENCH_APPLICATION = 'bench-ingest';

/**
 * The CPU time PostgreSQL's backends for `database` spend from now until `stop()`, sampled every
 * 250 ms so that the backends of a killed instance (gone by the end) and of a restarted one
 * (not there at the start) count too; undefined where /proc cannot be read.
 */
export async function sampleBackendsCpu(pool: Pool, database: string) {
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  let readable = true;
  let initial = true;
  const sample = async () => {
    const now = await backendsCpuMs(pool, database).catch(() => undefined);
    if (!now) return void (readable = false);
    for (const [pid, ms] of now) {
      // A backend there at the start counts from then; one that connected later, all it spent.
      if (!first.has(pid)) first.set(pid, initial ? ms : 0);
      last.set(pid, ms);
    }
    initial = false;
  };
  await sample();
  const timer = setInterval(() => void sample(), 250);
  return {
    async stop(): Promise<number | undefined> {
      clearInterval(timer);
      await sample();
      if (!readable) return undefined;
      return [...last].reduce((sum, [pid, ms]) => sum + ms - (first.get(pid) ?? ms), 0);
    },
  };
}

/**
 * CPU time so far of each PostgreSQL backend serving `database` but the bench's own, by pid (from
 * /proc: PostgreSQL on this machine, readable by this user), or undefined where that cannot be read.
 */
async function backendsCpuMs(pool: Pool, database: string): Promise<Map<number, number> | undefined> {
  const { rows } = await pool.query<{ pid: number }>(
    `select pid from pg_stat_activity where datname = $1 and backend_type = 'client backend' and application_name <> $2`,
    [database, BENCH_APPLICATION],
  );
  const cpu = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      cpu.set(pid, procCpuMs(pid));
    } catch (error) {
      // Gone since the query (a killed instance's backend); unreadable /proc altogether: undefined.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return undefined;
    }
  }
  return cpu;
}

/**
 * Exactly the acknowledged sales are processed, once each, each with one ticket SMS: one 'sms_sent'
 * event where the server records them, else a sent ticket in `messageStatuses`.
 */
async function verify(where: { databaseUrl: string } | { dataDir: string }, run: string, acknowledged: Set<string>): Promise<string> {
  const database = await openDatabase(where);
  try {
    const result = (await database.db.execute(sql`
      select t.session_id, t.is_complete, t.is_deleted, t.message_statuses, t.ticket_message,
        (select count(*) from transaction_events e where e.transaction_id = t.id and e.kind = 'sms_sent')::int as sms_events
      from transactions t where t.session_id like ${`${run}-%`}`)) as unknown as {
      rows: { session_id: string; is_complete: boolean; is_deleted: boolean; message_statuses: string | null; ticket_message: string | null; sms_events: number }[];
    };
    const rows = result.rows;
    const processed = rows.filter((row) => row.is_complete);
    const problems: string[] = [];
    const processedIds = new Set(processed.map((row) => row.session_id));
    if (processed.length !== processedIds.size) problems.push('a session was processed twice');
    const lost = [...acknowledged].filter((id) => !processedIds.has(id));
    const extra = [...processedIds].filter((id) => !acknowledged.has(id));
    if (lost.length) problems.push(`${lost.length} acknowledged sales not processed (${lost.slice(0, 3).join(', ')})`);
    if (extra.length) problems.push(`${extra.length} processed sales never acknowledged (${extra.slice(0, 3).join(', ')})`);
    if (processed.some((row) => row.is_deleted)) problems.push('a processed sale is also failed');
    const eventsRecorded = rows.some((row) => Number(row.sms_events) > 0);
    const oneSms = eventsRecorded
      ? processed.filter((row) => Number(row.sms_events) !== 1)
      : processed.filter((row) => !row.ticket_message || !['Sent', 'Delivered'].includes(row.message_statuses ?? ''));
    if (oneSms.length) problems.push(`${oneSms.length} processed sales without exactly one ticket SMS`);
    const pending = rows.filter((row) => !row.is_complete && !row.is_deleted).length;
    if (problems.length) throw new Error(`database check failed: ${problems.join('; ')}`);
    return (
      `${processed.length} processed = ${acknowledged.size} acknowledged, once each, one ticket SMS each ` +
      `(${eventsRecorded ? "'sms_sent' events" : 'messageStatuses'}); ${pending} unacknowledged calls left pending`
    );
  } finally {
    await database.close();
  }
}

export function table(runs: Run[]): string {
  const lines = [
    `| database | sales | sales/s | ${HOPS.map((hop) => `${hop} p99 ms`).join(' | ')} | retried or lost requests | crashes | server CPU ms/sale | PostgreSQL CPU ms/sale | bench CPU ms/sale |`,
    `|---|---:|---:|${HOPS.map(() => '---:').join('|')}|---:|---:|---:|---:|---:|`,
  ];
  for (const run of runs) {
    const perSale = (ms: number) => (run.sales ? (ms / run.sales).toFixed(2) : '—');
    const p99 = HOPS.map((hop) => (run.latencies[hop].length ? String(Math.round(percentile(run.latencies[hop], 99))) : '—'));
    lines.push(`| ${run.label} | ${run.sales} | ${Math.round(run.sales / run.seconds)} | ${p99.join(' | ')} | ${run.errors} | ${run.crashes} | ${perSale(run.serverCpuMs)} | ${run.databaseCpuMs === undefined ? '—' : perSale(run.databaseCpuMs)} | ${perSale(run.clientCpuMs)} |`);
  }
  return lines.join('\n');
}

async function main() {
  const load = os.loadavg()[0].toFixed(1);
  const runs: Run[] = [];
  await adminQuery(`drop database if exists ${DB_NAME} with (force)`);
  await adminQuery(`create database ${DB_NAME}`);
  const url = new URL(PG_URL);
  url.pathname = `/${DB_NAME}`;
  runs.push(await runOnce(`PostgreSQL${LIVE_CLIENTS ? `, ${LIVE_CLIENTS} live consoles${LIVE_FOLLOW === 'code' ? ' each following one code' : ''}` : ''}`, { databaseUrl: url.toString() }));
  console.log(`PostgreSQL: ${runs[0].checked}`);
  if (PGLITE) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dialdesk-ingest-'));
    try {
      runs.push(await runOnce('PGlite', { dataDir }));
      console.log(`PGlite: ${runs[1].checked}`);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  const report = [
    `## ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC — ingestion (USSD sales)`,
    '',
    `Command: \`npm run bench:ingest -- ${args.join(' ')}\`. Machine: ${os.cpus().length} CPUs (${os.cpus()[0]?.model}), Node ${process.version}; load average (1 min) ${load} at the start, ${os.loadavg()[0].toFixed(1)} at the end.`,
    `${CONNECTIONS} customers at once${RATE > 0 ? ` keeping to ${RATE} sales/s` : ""} for ${DURATION_S} s on ${CODES.length === 1 ? 'one service code' : `${CODES.length} service codes`}; a sale = menu, choice, confirm, then the signed SUCCESSFUL callback twice (20% at once, 20% followed by a late FAILED).${CRASH ? ' The server was killed with SIGKILL half-way and restarted.' : ''}${PG_RESTART ? ` PostgreSQL was taken away half-way (${PG_RESTART === 'restart' ? 'the cluster restarted' : "the API's connections terminated"}).` : ''} Target: 1,000 sales/s, every hop's p99 < 200 ms. CPU ms/sale: the CPU time the server process, its PostgreSQL backends (from /proc; — under --crash, --pg-restart or PGlite, whose database runs inside the server) and this bench spent while the customers ran, divided by the sales.`,
    '',
    table(runs),
    '',
    ...runs.map((run) => `- ${run.label}: ${run.checked}.`),
    '',
  ].join('\n');
  console.log(`\n${report}`);
  if (RECORD) fs.appendFileSync(path.join(__dirname, 'RESULTS.md'), `\n${report}`);
}

/** Stops every server still running (a bench that failed half-way). */
export const killAll = () => Promise.all([...live].map((server) => server.kill()));

if (require.main === module) {
  main().catch(async (error: unknown) => {
    console.error(error);
    await killAll();
    process.exit(1);
  });
}
