/**
 * Scale-out benchmark: `npm run build && npm run bench:scale`. Starts N = 1, 2 and 3 built
 * API processes on one fresh PostgreSQL database (and once N = 2 through PgBouncer in session
 * pooling), plays bench:ingest's customers with every hop and callback going to any instance, kills
 * one instance with SIGKILL half-way and starts it again, and records per N: completed sales/s, each
 * hop's p99, CPU ms per sale of the servers and of PostgreSQL, and the database check (acknowledged =
 * processed, once each, one ticket SMS each). Then the floor a sale could cost on this machine: a
 * bare Fastify route's CPU per request times a sale's requests, plus pgbench running a sale's
 * statements.
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
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { openDatabase } from '../server/src/db/client';
import { freePort } from '../scripts/free-port';
import { adminQuery, killAll, PG_URL, runOnce, table, type Run } from './ingest';
import { PGBOUNCER, startPgBouncer } from '../scripts/pgbouncer';
import { procCpuMs } from './measure';
import { startServer } from './server-process';
import { voteSurge } from './vote-surge';

const args = process.argv.slice(2);
const value = (name: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined);
const INSTANCES = (value('instances') ?? '1,2,3').split(',').map(Number).filter((n) => n >= 1 && n <= 8);
const WITH_PGBOUNCER = !args.includes('--no-pgbouncer') && fs.existsSync(PGBOUNCER);
const WITH_FLOOR = !args.includes('--no-floor');
const RECORD = args.includes('--record');
const DB_NAME = value('db') ?? 'dialdesk_scale';
const AUTOCANNON = require.resolve('autocannon/autocannon.js');
/** Requests a sale makes: three hops, then two callbacks (a fifth of sales a third, a late FAILED). */
const REQUESTS_PER_SALE = 3 + 2.2;

const log = (...parts: unknown[]) => console.log(`[scale ${new Date().toISOString().slice(11, 19)}]`, ...parts);

async function freshDatabase(): Promise<string> {
  await adminQuery(`drop database if exists ${DB_NAME} with (force)`);
  await adminQuery(`create database ${DB_NAME}`);
  const url = new URL(PG_URL);
  url.pathname = `/${DB_NAME}`;
  return url.toString();
}

/** A bare Fastify route's CPU per request (a small answer, as a USSD hop's), in ms. */
async function bareRouteCpuMs(): Promise<{ cpuMs: number; rps: number }> {
  const page = path.join(os.tmpdir(), `dialdesk-bare-${process.pid}.json`);
  fs.writeFileSync(page, JSON.stringify({ status: true, message: 'CON Bench Tips: choose a ticket\n1. Ordinary UGX 1,000' }));
  const server = await startServer({ BENCH_MODE: 'bare', BENCH_PAGE_FILE: page, BENCH_PORT: String(await freePort()) });
  try {
    const run = (seconds: number) =>
      new Promise<{ requests: { total: number; average: number } }>((resolve, reject) =>
        execFile(process.execPath, [AUTOCANNON, '--json', '-c', '32', '-d', String(seconds), `${server.url}/bare-string`], { maxBuffer: 16 << 20 }, (error, stdout) =>
          error ? reject(error) : resolve(JSON.parse(stdout)),
        ),
      );
    await run(1);
    const before = server.cpuMs();
    const result = await run(5);
    return { cpuMs: (server.cpuMs() - before) / result.requests.total, rps: Math.round(result.requests.average) };
  } finally {
    await server.stop();
    fs.rmSync(page, { force: true });
  }
}

/** A sale's statements as pgbench runs them (each its own commit, as the API commits them), and PostgreSQL's CPU per sale. */
async function pgbenchSale(url: string): Promise<{ tps: number; cpuMsPerSale: number }> {
  const script = path.join(os.tmpdir(), `dialdesk-sale-${process.pid}.sql`);
  fs.writeFileSync(
    script,
    `\\set n random(1, 2000000000)
insert into transaction_events (session_id, kind, actor, detail, dedupe_key) values (('pgb-' || :client_id::text || '-' || :n::text), 'ussd_hop', 'customer', '{"input":"","reply":"CON"}', 'hop' || chr(58) || 'pgb-' || :client_id::text || '-' || :n::text || ':') on conflict (dedupe_key) do nothing;
insert into transaction_events (session_id, kind, actor, detail, dedupe_key) values (('pgb-' || :client_id::text || '-' || :n::text), 'ussd_hop', 'customer', '{"input":"1","reply":"CON"}', 'hop' || chr(58) || 'pgb-' || :client_id::text || '-' || :n::text || ':1') on conflict (dedupe_key) do nothing;
with created as (insert into transactions (service_code, phone_number, network, category_level, amount, session_id, payment_ref) values ('*217*900#', '2567' || (:n::bigint % 100000000)::text, 'MTN', 'ordinary', 1000, ('pgb-' || :client_id::text || '-' || :n::text), ('pgb-' || :client_id::text || '-' || :n::text)) on conflict (session_id) do nothing returning id), attached as (update transaction_events set transaction_id = (select id from created) where session_id = ('pgb-' || :client_id::text || '-' || :n::text) and transaction_id is null) insert into transaction_events (transaction_id, kind, actor, detail, dedupe_key) select id, 'payment_requested', 'system', '{"amount":1000}', 'payment_requested:' || id from created;
insert into transaction_events (session_id, kind, actor, detail, dedupe_key) values (('pgb-' || :client_id::text || '-' || :n::text), 'ussd_hop', 'customer', '{"input":"1","reply":"END"}', 'hop' || chr(58) || 'pgb-' || :client_id::text || '-' || :n::text || ':1*1') on conflict (dedupe_key) do nothing;
select t.id, (select n.message from contents n where n.category_id = t.category_id and n.category_level = t.category_level and n.active limit 1) from transactions t where t.payment_ref = ('pgb-' || :client_id::text || '-' || :n::text);
with settled as (update transactions set is_complete = true, message_statuses = 'Sending', ticket_message = 'Ticket', callback_time = now() where payment_ref = ('pgb-' || :client_id::text || '-' || :n::text) and not is_complete and not is_deleted returning id) insert into transaction_events (transaction_id, kind, actor, detail, dedupe_key) select id, 'payment_settled', 'provider' || chr(58) || 'external', '{"status":"SUCCESSFUL"}', 'settled' || chr(58) || 'pgb-' || :client_id::text || '-' || :n::text from settled;
with updated as (update transactions set message_statuses = 'Sent', ticket_sms_ref = 'sms-' || :n::text where payment_ref = ('pgb-' || :client_id::text || '-' || :n::text) returning id) insert into transaction_events (transaction_id, kind, actor, detail) select id, 'sms_sent', 'system', '{"status":"Sent"}' from updated;
select t.id from transactions t where t.payment_ref = ('pgb-' || :client_id::text || '-' || :n::text);
`,
  );
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
    const pgbench = spawn('/usr/bin/pgbench', ['-n', '-M', 'prepared', '-c', '32', '-j', '2', '-T', '15', '-f', script, '-h', target.hostname, '-p', target.port || '5432', '-U', target.username || 'postgres', DB_NAME], {
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
    log('floor: a bare route');
    const bare = await bareRouteCpuMs();
    log('floor: pgbench of a sale');
    const url = await freshDatabase();
    await (await openDatabase({ databaseUrl: url })).close(); // migrated, as the servers leave it
    const sale = await pgbenchSale(url);
    const serverFloor = bare.cpuMs * REQUESTS_PER_SALE;
    floor = [
      '',
      `Floor on this machine: a bare Fastify route costs ${bare.cpuMs.toFixed(3)} ms CPU a request (${bare.rps} req/s at 32 connections), × ${REQUESTS_PER_SALE} requests a sale = ${serverFloor.toFixed(2)} ms;`,
      `pgbench running a sale's statements (32 clients, prepared, each statement its own commit) does ${sale.tps} sales/s at ${sale.cpuMsPerSale.toFixed(2)} ms of PostgreSQL CPU a sale.`,
      `Floor per sale: ${(serverFloor + sale.cpuMsPerSale).toFixed(2)} ms (server ${serverFloor.toFixed(2)} + PostgreSQL ${sale.cpuMsPerSale.toFixed(2)}); target ≤ 2.5 ms.`,
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
