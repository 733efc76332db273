/**
 * Reconciliation benchmark: a provider statement of `--lines` lines (default 50,000)
 * uploaded to the API built in this process (as the tests build it), against as many calls with
 * payment references and as many again that the statement does not name, on the embedded PGlite
 * (in memory) and on a fresh local PostgreSQL database. Reports the upload (read, checked, sorted
 * and written), the same file again (recognised by its hash), the first page of a kind and the
 * whole export, with the CPU this process spent (the API, and PGlite when it is the database).
 * Then the same lines are uploaded once more as another file (sent 64 kB at a time, as the network
 * brings it) while another request to the database is made again and again: the longest time
 * without one answered is what a USSD hop or a payment callback would wait behind an import.
 *
 *   npm run bench:reconcile                         50,000 lines, PGlite and PostgreSQL
 *   npm run bench:reconcile -- --lines 100000 --no-pg
 *   npm run bench:reconcile -- --record             append the results to bench/RESULTS.md
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { Client } from 'pg';
import { buildApp } from '../server/src/app';
import { hashPassword } from '../server/src/auth/passwords';
import { openDatabase, type Database } from '../server/src/db/client';
import { users } from '../server/src/db/schema';

const args = process.argv.slice(2);
const LINES = args.includes('--lines') ? Number(args[args.indexOf('--lines') + 1]) : 50_000;
const RECORD = args.includes('--record');
const PG = !args.includes('--no-pg');
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DB_NAME = 'dialdesk_reconcile';

interface Step {
  name: string;
  ms: number;
  cpuMs: number;
  note: string;
}

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const value = await run();
  const used = process.cpuUsage(cpu);
  return { value, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

/** 2 × LINES calls: the first LINES are named by the statement; of the rest, one in a hundred settled within its period. */
async function seed(database: Database) {
  await database.db.execute(sql`
    insert into transactions (service_code, phone_number, network, category_level, amount, payment_ref, is_complete, is_deleted, callback_time, created_at)
    select '*217*1#', '2567' || lpad(i::text, 8, '0'), 'MTN', 'vip', 20000, 'bench-' || i,
      i % 10 <> 0, i % 10 = 0, timestamptz '2026-05-01 00:00:00Z' + (i % 86000) * interval '1 second',
      timestamptz '2026-05-01 00:00:00Z' + (i % 86000) * interval '1 second'
    from generate_series(1, ${LINES}) as i`);
  await database.db.execute(sql`
    insert into transactions (service_code, phone_number, network, category_level, amount, payment_ref, is_complete, callback_time, created_at)
    select '*217*1#', '2568' || lpad(i::text, 8, '0'), 'MTN', 'vip', 20000, 'other-' || i, true, t, t
    from generate_series(1, ${LINES}) as i,
      lateral (select case when i % 100 = 0 then timestamptz '2026-05-01 12:00:00Z' else timestamptz '2026-04-01 00:00:00Z' end as t) as at`);
}

/** The provider's view: most paid, a tenth of them for calls that failed here, some failed, a few amounts off, a few unknown. */
function statement(): string {
  const lines = ['reference,amount,currency,status,completedAt'];
  for (let i = 1; i <= LINES; i += 1) {
    const reference = i % 1000 === 0 ? `unknown-${i}` : `bench-${i}`;
    const status = i % 25 === 0 ? 'FAILED' : 'SUCCESSFUL';
    const amount = i % 500 === 7 ? '19000' : '20000';
    const completedAt = new Date(Date.UTC(2026, 4, 1) + (i % 86000) * 1000).toISOString();
    lines.push(`${reference},${amount},UGX,${status},${completedAt}`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** A body as the network brings it: 64 kB at a time, each in a turn of its own. */
async function* asPackets(text: string) {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += 65_536) {
    await new Promise((resolve) => setImmediate(resolve));
    yield bytes.subarray(at, at + 65_536);
  }
}

async function run(label: string, database: Database): Promise<string> {
  const seeded = await timed(() => seed(database));
  const app = await buildApp({ db: database.db, jwtSecret: crypto.randomUUID() });
  await app.ready();
  await database.db.insert(users).values({ userName: 'bench-admin', role: 'admin', passwordHash: await hashPassword('bench-password-1') });
  const login = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { userName: 'bench-admin', password: 'bench-password-1' } });
  const headers = { authorization: `Bearer ${login.json().results.accessToken}` };
  const csv = statement();
  const send = () => app.inject({ method: 'POST', url: '/v1/reconciliation/statements?fileName=bench.csv', headers: { ...headers, 'content-type': 'text/csv' }, payload: csv });

  const steps: Step[] = [];
  const upload = await timed(send);
  if (upload.value.statusCode !== 201) throw new Error(`upload answered ${upload.value.statusCode}: ${upload.value.body.slice(0, 300)}`);
  const id = upload.value.json().results._id as string;
  steps.push({ name: `upload ${LINES.toLocaleString('en-US')} lines (${(csv.length / 1024 / 1024).toFixed(1)} MB)`, ms: upload.ms, cpuMs: upload.cpuMs, note: 'read, checked, sorted and written' });

  // The same lines as another file (one more line end), while the open-incident count is asked for again and again.
  let uploading = true;
  const answered: number[] = [];
  const probing = (async () => {
    while (uploading) {
      await app.inject({ method: 'GET', url: '/v1/incidents/open-count', headers });
      answered.push(performance.now());
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const shared = await timed(() =>
    app.inject({ method: 'POST', url: '/v1/reconciliation/statements?fileName=bench-2.csv', headers: { ...headers, 'content-type': 'text/csv' }, payload: Readable.from(asPackets(`${csv}\r\n`)) }),
  );
  const ended = performance.now();
  uploading = false;
  await probing;
  if (shared.value.statusCode !== 201) throw new Error(`second upload answered ${shared.value.statusCode}: ${shared.value.body.slice(0, 300)}`);
  const marks = [ended - shared.ms, ...answered.filter((at) => at <= ended), ended];
  const longestGap = Math.max(...marks.slice(1).map((at, i) => at - marks[i]));
  steps.push({
    name: 'the same lines as another file, with requests meanwhile',
    ms: shared.ms,
    cpuMs: shared.cpuMs,
    note: `${marks.length - 2} open-incident counts answered meanwhile (their CPU counted too), at most ${Math.round(longestGap)} ms apart`,
  });
  const again = await timed(send);
  steps.push({ name: 'the same file again', ms: again.ms, cpuMs: again.cpuMs, note: `answered ${again.value.statusCode}, the same statement` });
  const page = await timed(() => app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${id}?kind=paidNoTicket`, headers }));
  const counts = page.value.json().results.counts as Record<string, number>;
  steps.push({ name: 'first page of paid-no-ticket rows', ms: page.ms, cpuMs: page.cpuMs, note: '50 rows with their calls' });
  const exported = await timed(() => app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${id}/export`, headers }));
  steps.push({ name: 'export every row as CSV', ms: exported.ms, cpuMs: exported.cpuMs, note: `${(exported.value.rawPayload.length / 1024 / 1024).toFixed(1)} MB` });
  await app.close();

  const table = steps.map((s) => `| ${s.name} | ${Math.round(s.ms)} | ${Math.round(s.cpuMs)} | ${s.note} |`).join('\n');
  return [
    `### ${label} (${(2 * LINES).toLocaleString('en-US')} calls seeded in ${(seeded.ms / 1000).toFixed(1)} s)`,
    '',
    '| step | wall ms | CPU ms (this process) | |',
    '|---|---:|---:|---|',
    table,
    '',
    `Counts: ${Object.entries(counts).map(([kind, n]) => `${kind} ${n.toLocaleString('en-US')}`).join(', ')}.`,
  ].join('\n');
}

async function main() {
  const cpus = os.cpus();
  const sections: string[] = [];
  const started = new Date();
  const load = os.loadavg()[0].toFixed(1);

  const pglite = await openDatabase({ dataDir: 'memory' });
  try {
    sections.push(await run('PGlite (in memory, in this process: its CPU is counted)', pglite));
  } finally {
    await pglite.close();
  }

  if (PG) {
    const admin = new Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${DB_NAME} with (force)`);
    await admin.query(`create database ${DB_NAME}`);
    await admin.end();
    const url = new URL(PG_URL);
    url.pathname = `/${DB_NAME}`;
    const database = await openDatabase({ databaseUrl: url.toString() });
    try {
      sections.push(await run('PostgreSQL (local server: its CPU is not counted)', database));
    } finally {
      await database.close();
    }
  }

  const report = [
    `## ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC — Reconciliation (bench:reconcile)`,
    '',
    `Command: \`npm run bench:reconcile -- ${args.filter((a) => a !== '--record').join(' ')}\`. Machine: ${cpus.length} CPUs (${cpus[0]?.model ?? 'unknown'}), ${Math.round(os.totalmem() / 1024 / 1024)} MB memory, Node ${process.version}.`,
    `Load average (1 min) of the machine: ${load} at the start, ${os.loadavg()[0].toFixed(1)} at the end (other work shares these CPUs). The API is built in this process and called with \`inject\` (no network).`,
    '',
    ...sections.flatMap((section) => [section, '']),
  ].join('\n');
  console.log(report);
  if (RECORD) fs.appendFileSync(path.join(__dirname, 'RESULTS.md'), `\n${report}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
