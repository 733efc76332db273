/**
 * Export contention: do full CSV exports starve the USSD callback? Starts the
 * built server (`npm run build` first) on a fresh embedded DATA_DIR with the demo data, times USSD
 * first hops at a steady rate alone, then while `--exports` full exports (every code, every day,
 * as an admin) run at once, and reports the hops' p50/p99/max, /healthz's, and each export's time
 * and size. Target: hop p99 < 300 ms while 4 exports run.
 *
 *   npm run build && npm run bench:export -- [--exports 4] [--rate 20] [--baseline 5]
 *     [--data-dir DIR]   reuse (or seed once and keep) a DATA_DIR, so runs compare on the same data
 *     [--record]         append the result to bench/RESULTS.md
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startBuiltServer, type ServerProcess } from './server-process';
import { freePort } from '../scripts/free-port';
import { percentile, sleep } from './measure';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => (args.includes(`--${name}`) ? Number(args[args.indexOf(`--${name}`) + 1]) : fallback);
const EXPORTS = option('exports', 4);
const RATE = option('rate', 20);
const BASELINE_S = option('baseline', 5);
const RECORD = args.includes('--record');
const KEPT_DATA_DIR = args.includes('--data-dir') ? path.resolve(args[args.indexOf('--data-dir') + 1]) : undefined;
const ADMIN = { userName: 'bench-admin', password: 'bench-password-1' };
const USSD_TOKEN = 'bench-ussd-callback-token-0123456789';
const CODE = '*217*1#';



/** One request on its own connection; answers status, bytes read and milliseconds. */
function request(base: string, method: string, url: string, body?: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; bytes: number; ms: number; text: string }>((resolve, reject) => {
    const started = performance.now();
    const outgoing = http.request(`${base}${url}`, { method, agent: false, headers: { ...headers, ...(body ? { 'content-length': Buffer.byteLength(body) } : {}) } }, (response) => {
      let bytes = 0;
      const head: Buffer[] = [];
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes < 4096) head.push(chunk);
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, bytes, ms: performance.now() - started, text: Buffer.concat(head).toString() }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

interface Timings {
  hops: number[];
  health: number[];
}

/** USSD first hops (a new session each) and /healthz at a steady rate until `until` resolves. */
async function timeHops(base: string, until: Promise<unknown>): Promise<Timings> {
  const timings: Timings = { hops: [], health: [] };
  let done = false;
  void until.finally(() => (done = true));
  const pending: Promise<void>[] = [];
  for (let i = 0; !done; i += 1) {
    const form = new URLSearchParams({ sessionId: `bench-${crypto.randomUUID()}`, serviceCode: CODE, phoneNumber: `2567${String(10_000_000 + i).slice(-8)}`, networkCode: '64110', text: '' }).toString();
    pending.push(
      request(base, 'POST', `/v1/ussd/callback?token=${USSD_TOKEN}`, form, { 'content-type': 'application/x-www-form-urlencoded' }).then((answer) => {
        if (answer.status !== 200 || !answer.text.startsWith('CON ')) throw new Error(`USSD hop answered ${answer.status}: ${answer.text.slice(0, 120)}`);
        timings.hops.push(answer.ms);
      }),
    );
    if (i % RATE === 0) pending.push(request(base, 'GET', '/healthz').then((answer) => void timings.health.push(answer.ms)));
    await sleep(1000 / RATE);
  }
  await Promise.all(pending);
  return timings;
}

const row = (label: string, values: number[]) =>
  `| ${label} | ${values.length} | ${Math.round(percentile(values, 50))} | ${Math.round(percentile(values, 99))} | ${Math.round(Math.max(...values))} |`;

async function main() {
  const load = os.loadavg()[0].toFixed(1);
  const dataDir = KEPT_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'dialdesk-export-'));
  const port = await freePort();
  let server: ServerProcess | undefined;
  try {
    const seeding = performance.now();
    server = await startBuiltServer({
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      SEED_DEMO: '1',
      ADMIN_USERNAME: ADMIN.userName,
      ADMIN_PASSWORD: ADMIN.password,
      USSD_CALLBACK_TOKEN: USSD_TOKEN,
      PAYMENT_PROVIDER: 'external',
      LOG_LEVEL: 'warn',
    });
    const startedInS = Math.round((performance.now() - seeding) / 1000);
    const base = server.url;
    const login = await request(base, 'POST', '/v1/auth/login', JSON.stringify(ADMIN), { 'content-type': 'application/json' });
    if (login.status !== 200) throw new Error(`sign-in answered ${login.status}: ${login.text.slice(0, 200)}`);
    const authorization = `Bearer ${(JSON.parse(login.text) as { results: { accessToken: string } }).results.accessToken}`;
    // Warm-up: the first hops and an export load the catalogue and the statements.
    await request(base, 'GET', '/v1/transactions/export', undefined, { authorization });
    await timeHops(base, sleep(1000));

    const alone = await timeHops(base, sleep(BASELINE_S * 1000));
    const exportsStarted = performance.now();
    const exports = Promise.all(Array.from({ length: EXPORTS }, () => request(base, 'GET', '/v1/transactions/export', undefined, { authorization })));
    const during = await timeHops(base, exports);
    const finished = await exports;
    const exportsS = (performance.now() - exportsStarted) / 1000;
    if (finished.some((answer) => answer.status !== 200)) throw new Error(`an export answered ${finished.map((a) => a.status).join(', ')}`);

    const report = [
      `## ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC — export contention`,
      '',
      `Command: \`npm run bench:export -- ${args.join(' ')}\` (after \`npm run build\`). Machine: ${os.cpus().length} CPUs (${os.cpus()[0]?.model}), Node ${process.version}; load average (1 min) ${load} at the start, ${os.loadavg()[0].toFixed(1)} at the end.`,
      `The built server on the embedded PGlite in ${KEPT_DATA_DIR ? 'a kept' : 'a fresh'} DATA_DIR with the demo data (started${KEPT_DATA_DIR ? '' : ' and seeded'} in ${startedInS} s). USSD first hops on ${CODE} (a new session each, each on a new connection) at ${RATE}/s and /healthz once a second: ${BASELINE_S} s alone, then while ${EXPORTS} full CSV exports (every code and day, as an admin) ran at once. Target: hop p99 < 300 ms during the exports.`,
      '',
      '| requests | count | p50 ms | p99 ms | max ms |',
      '|---|---:|---:|---:|---:|',
      row('USSD first hop, alone', alone.hops),
      row(`USSD first hop, during ${EXPORTS} exports`, during.hops),
      row('/healthz, alone', alone.health),
      row(`/healthz, during ${EXPORTS} exports`, during.health),
      '',
      `Exports: ${finished.map((answer) => `${(answer.ms / 1000).toFixed(1)} s`).join(', ')} (all ${EXPORTS} done in ${exportsS.toFixed(1)} s), ${(finished[0].bytes / 1e6).toFixed(1)} MB each.`,
      '',
    ].join('\n');
    console.log(`\n${report}`);
    if (RECORD) fs.appendFileSync(path.join(__dirname, 'RESULTS.md'), `\n${report}`);
  } finally {
    await server?.stop();
    if (!KEPT_DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
