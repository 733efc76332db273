/**
 * Scale-out benchmark: `npm run build && npm run bench:scale`. Starts N = 1, 2 and 3 built
 * API processes on one fresh PostgreSQL database (and once N = 2 through PgBouncer in session
 * pooling), plays bench:ingest's customers with every hop and callback going to any instance, kills
 * one instance with SIGKILL half-way and starts it again, and records per N: completed sales/s, each
 * hop's p99, CPU ms per sale of the servers and of PostgreSQL, and the database check (acknowledged =
 * processed, once each, one ticket SMS each). Then the floors a sale's cost is held against on this
 * machine: the floor server (bench/sale-floor.ts) playing the same customers at the same rate for the
 * server's, and pgbench running a sale's statements for PostgreSQL's.
 *
 *   npm run bench:scale -- [--duration 20] [--connections 32] [--instances 1,2,3] [--no-pgbouncer] [--no-floor] [--record]
 *   npm run bench:scale -- --campaign [--votes 1000000] [--vote-rate 0] [--readers 50] [--read-every 1000] [--surge-instances 1] [--record]
 *
 * With --campaign it runs the vote surge instead (bench/vote-surge.ts): votes on one campaign as fast
 * as the box allows (or --vote-rate a second) while 50 clients read ranking pages and team results.
 *
 * It takes bench:ingest's options too (--codes). BENCH_DATABASE_URL names the PostgreSQL server
 * (default postgres://postgres@127.0.0.1:5432/postgres); PgBouncer is Debian's /usr/sbin/pgbouncer.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { openDatabase } from '../server/src/db/client';
import { adminQuery, killAll, PG_URL, runOnce, table, type Run } from './ingest';
import { PGBOUNCER, startPgBouncer } from '../scripts/pgbouncer';
import { procCpuMs } from './measure';
import { SALE_SCRIPT, withExpressions } from './sale-statements';
import { voteSurge } from './vote-surge';

const args = process.argv.slice(2);
const value = (name: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined);
const INSTANCES = (value('instances') ?? '1,2,3').split(',').map(Number).filter((n) => n >= 1 && n <= 8);
const WITH_PGBOUNCER = !args.includes('--no-pgbouncer') && fs.existsSync(PGBOUNCER);
const WITH_FLOOR = !args.includes('--no-floor');
const RECORD = args.includes('--record');
const DB_NAME = value('db') ?? 'dialdesk_scale';

const log = (...parts: unknown[]) => console.log(`[scale ${new Date().toISOString().slice(11, 19)}]`, ...parts);

async function freshDatabase(): Promise<string> {
  await adminQuery(`drop database if exists ${DB_NAME} with (force)`);
  await adminQuery(`create database ${DB_NAME}`);
  const url = new URL(PG_URL);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
}

/**
 * A sale's statements as pgbench runs them (each its own commit, as the API commits them), and
 * PostgreSQL's CPU per sale: as fast as 32 clients go, or held to `rate` sales a second (pgbench -R).
 * Held to the API's rate, it tells what the rate alone does to a statement's cost (commits sharing
 * WAL flushes, backends sleeping between statements) from what sharing the CPUs with a server does.
 */
async function pgbenchSale(url: string, rate?: number): Promise<{ tps: number; cpuMsPerSale: number }> {
  const script = path.join(os.tmpdir(), `dialdesk-sale-${process.pid}.sql`);
  const expressions = { session: `('pgb-' || :client_id::text || '-' || :n::text)`, phone: `('2567' || (:n::bigint % 100000000)::text)`, n: ':n::text' };
  fs.writeFileSync(script, ['\\set n random(1, 2000000000)', ...SALE_SCRIPT.map((statement) => `${withExpressions(statement, expressions)};`), ''].join('\n'));
  const client = new Client({ connectionString: url });
  await client.connect();
  const backends = async () => {
    const { rows } = await client.query<{ pid: number }>(`select pid from pg_stat_activity where datname = $1 and application_name = 'pgbench'`, [DB_NAME]);
    return rows.map(({ pid }) => {
      try {
        return [pid, procCpuMs(pid)] as const;
      } catch {
        return [pid, 0] as const;
      }
    });
  };
  try {
    const target = new URL(url);
    const pgbench = spawn('/usr/bin/pgbench', ['-n', '-M', 'prepared', '-c', '32', '-j', '2', '-T', '15', ...(rate ? ['-R', String(rate)] : []), '-f', script, '-h', target.hostname, '-p', target.port || '5432', '-U', target.username || 'postgres', DB_NAME], {
      env: { ...process.env, PGAPPNAME: 'pgbench' },
    });
    let output = '';
    const exited = new Promise<void>((resolve) => pgbench.once('exit', () => resolve()));
    pgbench.stdout.on('data', (chunk) => (output += chunk));
    pgbench.stderr.on('data', (chunk) => (output += chunk));
    // Backends' CPU at the start (once connected) and just before the end.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const start = new Map(await backends());
    await new Promise((resolve) => setTimeout(resolve, 12000));
    const end = new Map(await backends());
    const tpsBefore = Number(/tps = ([\d.]+)/.exec(output)?.[1] ?? 0);
    await exited;
    const tps = Number(/tps = ([\d.]+)/.exec(output)?.[1] ?? tpsBefore);
    if (!tps) throw new Error(`pgbench: ${output.slice(-1500)}`);
    const cpu = [...end].reduce((sum, [pid, ms]) => sum + ms - (start.get(pid) ?? ms), 0);
    return { tps: Math.round(tps), cpuMsPerSale: tps ? cpu / (tps * 12) : NaN };
  } finally {
    await client.end();
    fs.rmSync(script, { force: true });
  }
}

async function main() {
  if (args.includes('--campaign')) {
    await voteSurge({ voteRate: value('vote-rate') === undefined ? 0 : Number(value('vote-rate')), record: RECORD });
    return;
  }
  const load = os.loadavg()[0].toFixed(1);
  const runs: Run[] = [];
  for (const instances of INSTANCES) {
    const url = await freshDatabase();
    log(`${instances} instance(s)`);
    runs.push(await runOnce(`PostgreSQL, ${instances} instance${instances > 1 ? 's' : ''}`, { databaseUrl: url }, { instances, crash: true, databaseName: DB_NAME }));
  }
  let pgbouncerCpu = '';
  if (WITH_PGBOUNCER) {
    const url = await freshDatabase();
    const bouncer = await startPgBouncer(PG_URL, DB_NAME);
    log('PgBouncer at', bouncer.url);
    log('2 instances through PgBouncer');
    try {
      const before = bouncer.cpuMs();
      const run = await runOnce('PgBouncer (session), 2 instances', { databaseUrl: url }, { instances: 2, crash: true, serverDatabaseUrl: bouncer.url, databaseName: DB_NAME });
      pgbouncerCpu = ` PgBouncer itself used ${((bouncer.cpuMs() - before) / run.sales).toFixed(2)} ms CPU per sale.`;
      runs.push(run);
    } finally {
      await bouncer.stop();
    }
  }
  let floor = '';
  if (WITH_FLOOR) {
    log('floor: the floor server');
    const floorRun = await runOnce('floor server, 1 instance', { databaseUrl: await freshDatabase() }, { instances: 1, crash: false, databaseName: DB_NAME, floor: true });
    log('floor: pgbench of a sale');
    const url = await freshDatabase();
    await (await openDatabase({ databaseUrl: url })).close(); // migrated, as the servers leave it
    const sale = await pgbenchSale(url);
    log('floor: pgbench of a sale at the API\'s rate');
    const [api] = runs;
    const apiRate = Math.round(api.sales / api.seconds);
    const urlAtRate = await freshDatabase();
    await (await openDatabase({ databaseUrl: urlAtRate })).close();
    const saleAtRate = await pgbenchSale(urlAtRate, apiRate);
    const perSale = (run: Run, ms: number | undefined) => (ms === undefined ? NaN : ms / run.sales);
    const floorServer = perSale(floorRun, floorRun.serverCpuMs);
    const apiServer = perSale(api, api.serverCpuMs);
    const apiDatabase = perSale(api, api.databaseCpuMs);
    floor = [
      '',
      `Floors on this machine: the floor server (bench/sale-floor.ts: a sale's requests as bare Fastify routes that run its statements through pg and answer the API's bytes) at the same rate made ${floorRun.sales} sales at ${floorServer.toFixed(2)} ms of server CPU and ${perSale(floorRun, floorRun.databaseCpuMs).toFixed(2)} ms of PostgreSQL CPU a sale (${floorRun.checked}).`,
      `pgbench running a sale's statements (32 clients, prepared, each statement its own commit) does ${sale.tps} sales/s at ${sale.cpuMsPerSale.toFixed(2)} ms of PostgreSQL CPU a sale; held to the API's ${apiRate} sales/s (-R), ${saleAtRate.tps} sales/s at ${saleAtRate.cpuMsPerSale.toFixed(2)} ms.`,
      `${api.label}: server ${apiServer.toFixed(2)} ms a sale, ${(apiServer / floorServer).toFixed(2)}× the floor server's (target ≤ 2×); PostgreSQL ${apiDatabase.toFixed(2)} ms a sale, ${(apiDatabase / sale.cpuMsPerSale).toFixed(2)}× pgbench's at full speed and ${(apiDatabase / saleAtRate.cpuMsPerSale).toFixed(2)}× at the API's rate (target ≤ 1.25×); the floor server's PostgreSQL, ${(perSale(floorRun, floorRun.databaseCpuMs) / saleAtRate.cpuMsPerSale).toFixed(2)}× at the API's rate.`,
    ].join('\n');
  }
  const report = [
    `## ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC — scale-out (several API processes on one PostgreSQL)`,
    '',
    `Command: \`npm run bench:scale -- ${args.join(' ')}\`. Machine: ${os.cpus().length} CPUs (${os.cpus()[0]?.model}), Node ${process.version}; load average (1 min) ${load} at the start, ${os.loadavg()[0].toFixed(1)} at the end. The load generator and PostgreSQL share the machine with the servers.`,
    `Each run: bench:ingest's customers on a fresh database, every hop and callback sent to any instance at random; the last instance is killed with SIGKILL half-way and started again.${pgbouncerCpu}`,
    '',
    table(runs),
    '',
    ...runs.map((run) => `- ${run.label}: ${run.checked}.`),
    floor,
    '',
  ].join('\n');
  console.log(`\n${report}`);
  if (RECORD) fs.appendFileSync(path.join(__dirname, 'RESULTS.md'), `\n${report}`);
}

main().catch(async (error: unknown) => {
  console.error(error);
  await killAll();
  process.exit(1);
});
