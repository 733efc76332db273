/**
 * `npm run simulate -- --rate 50 --duration 60 [--url http://127.0.0.1:3000] [--campaign] [--seed 1]`
 *
 * Plays USSD customers against a running server on this machine: `--rate` new
 * sessions a second for `--duration` seconds, each walking the menus like a person (scripts/
 * simulator.ts). Ticket codes are the demo's `*217*1#` … `*217*25#` (or `--codes a,b`); with
 * `--campaign` half the customers vote on the demo campaigns' codes instead. The server's payment
 * provider (local by default) settles what they confirm, so the lists, the dashboard and the
 * rankings move while you watch. Refuses any host but 127.0.0.1 and localhost. The callback URL
 * carries the server's USSD_CALLBACK_TOKEN: from that variable, else the file the server keeps it
 * in (DATA_DIR, default ./data), as `npm start` on this machine left it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { DEMO_CAMPAIGNS } from '../server/src/db/seed-data';
import { checkLocalUrl, customerFor, playCustomer, randomSource, type Hop, type Outcome } from './simulator';

const args = process.argv.slice(2);
const value = (name: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined);
function bounded(name: string, fallback: number, min: number, max: number): number {
  const given = value(name);
  const n = given === undefined ? fallback : Number(given);
  if (!Number.isFinite(n) || n < min || n > max) throw new Error(`--${name} must be a number from ${min} to ${max}`);
  return n;
}

/** The run's settings from the command line; throws with a message for any it refuses. */
/** The token the server's USSD callback URL carries (README: USSD_CALLBACK_TOKEN). */
function ussdToken(): string {
  if (process.env.USSD_CALLBACK_TOKEN) return process.env.USSD_CALLBACK_TOKEN;
  const file = path.join(process.env.DATA_DIR ?? './data', 'ussd-callback-token');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    throw new Error(`no USSD callback token: set USSD_CALLBACK_TOKEN to the server's, or run from where the server keeps ${file}`);
  }
}

function readOptions() {
  const rate = bounded('rate', 10, 0.1, 500);
  return {
    rate,
    duration: bounded('duration', 60, 1, 3600),
    seed: bounded('seed', Date.now() % 1_000_000, 0, Number.MAX_SAFE_INTEGER),
    base: checkLocalUrl(value('url') ?? 'http://127.0.0.1:3000'),
    ticketCodes: value('codes')?.split(',').map((code) => code.trim()).filter(Boolean) ?? Array.from({ length: 25 }, (_, i) => `*217*${i + 1}#`),
    campaignCodes: args.includes('--campaign') ? DEMO_CAMPAIGNS.map((campaign) => campaign.serviceCode) : [],
    /** Sessions in flight at most: a slow server slows the simulator down rather than piling up. */
    maxInFlight: Math.max(20, Math.ceil(rate * 20)),
  };
}

const HOP_TIMEOUT_MS = 10_000;
const latencies: number[] = [];
let hopErrors = 0;

/** The network's callback to the server, timed. */
const hopTo =
  (callback: URL): Hop =>
  async (form) => {
    const started = performance.now();
    try {
      const response = await fetch(callback, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
        signal: AbortSignal.timeout(HOP_TIMEOUT_MS),
      });
      const body = await response.text();
      if (response.status === 401) throw new Error('HTTP 401: the server refused the USSD token (is USSD_CALLBACK_TOKEN the one it was started with?)');
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return body;
    } catch (error) {
      hopErrors += 1;
      throw error;
    } finally {
      latencies.push(performance.now() - started);
    }
  };

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

async function main() {
  const options = readOptions();
  const { rate: RATE, duration: DURATION, seed: SEED, base: BASE } = options;
  const { ticketCodes: TICKET_CODES, campaignCodes: CAMPAIGN_CODES, maxInFlight: MAX_IN_FLIGHT } = options;
  const random = randomSource(SEED);
  const callback = new URL('/v1/ussd/callback', BASE);
  callback.searchParams.set('token', ussdToken());
  const hop = hopTo(callback);
  const pause = () => new Promise<void>((resolve) => setTimeout(resolve, 200 + random() * 1000));
  const outcomes: Record<Outcome | 'skipped', number> = { confirmed: 0, cancelled: 0, abandoned: 0, refused: 0, 'bad-input': 0, ended: 0, error: 0, skipped: 0 };
  const running = new Set<Promise<void>>();
  let started = 0;
  let owed = 0;
  const runId = `sim-${Date.now().toString(36)}`;
  console.log(`Simulating ${RATE} customers/s for ${DURATION} s against ${BASE.origin} (seed ${SEED}${CAMPAIGN_CODES.length ? ', with votes' : ''})`);

  const startOne = () => {
    if (running.size >= MAX_IN_FLIGHT) {
      outcomes.skipped += 1;
      return;
    }
    started += 1;
    const votes = CAMPAIGN_CODES.length > 0 && random() < 0.5;
    const codes = votes ? CAMPAIGN_CODES : TICKET_CODES;
    const customer = customerFor(random, codes[Math.floor(random() * codes.length)], `${runId}-${started}`);
    const session = playCustomer(hop, customer, random, pause).then(({ outcome }) => {
      outcomes[outcome] += 1;
      running.delete(session);
    });
    running.add(session);
  };

  const report = () =>
    console.log(
      `${started} sessions, ${running.size} in flight | confirmed ${outcomes.confirmed}, cancelled ${outcomes.cancelled}, ` +
        `bad input ${outcomes['bad-input']}, abandoned ${outcomes.abandoned}, refused ${outcomes.refused}, errors ${outcomes.error}` +
        `${outcomes.skipped ? `, skipped ${outcomes.skipped}` : ''} | hops ${latencies.length}, p99 ${Math.round(percentile(latencies, 99))} ms`,
    );

  const end = Date.now() + DURATION * 1000;
  const tick = setInterval(() => {
    // Ten ticks a second; fractions of a customer carry over, so any rate is kept on average.
    owed += RATE / 10;
    while (owed >= 1) {
      owed -= 1;
      startOne();
    }
  }, 100);
  const progress = setInterval(report, 5000);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, end - Date.now())));
  clearInterval(tick);
  // Sessions already dialled finish; none is left waiting past half a minute.
  await Promise.race([Promise.all(running), new Promise((resolve) => setTimeout(resolve, 30_000).unref())]);
  clearInterval(progress);
  report();
  console.log(`hop latency p50 ${Math.round(percentile(latencies, 50))} ms, p99 ${Math.round(percentile(latencies, 99))} ms; failed hops ${hopErrors}`);
  process.exit(0);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
