/**
 * Vote surge (issues 23 and 25), `npm run bench:scale -- --campaign` or alone
 * `node --import tsx bench/vote-surge.ts`: a fresh PostgreSQL database seeded with `--votes` World
 * Cup votes (default 1,000,000), `--instances` built API processes (default 1), and on them at once:
 * voters walking the USSD menu to a general vote and the provider's signed SUCCESSFUL callback, at
 * `--vote-rate` votes a second (0: as fast as the box allows), and `--readers` clients (default 50)
 * reading the overall ranking's first page and the team results, each every `--read-every` ms
 * (default 1000: an open ranking screen reads again at most every 2.5 s when votes land; 0 reads back
 * to back, which measures how many reads the box can serve, not how long one takes). Records votes/s, each hop's p99,
 * the reads' p99, and how far the results lag the votes: every second the bench notes how many votes
 * were acknowledged, and measures when a read first counts them all.
 *
 * The surge runs `--warmup` seconds (default 5) before the `--duration` it measures.
 *
 * With `--created` the votes go to a campaign an admin creates through the API (POST /v1/campaigns,
 * then publish) instead of the seeded World Cup: a teams round and a games round, holdSuspicious on.
 * The voters vote in its teams round, which the results and the lag are read from; `--stuffers`
 * numbers (default 2) each vote again and again in its games round, past the campaign's
 * velocityPerMinute, so they are flagged and their votes settle held; the readers read the generic
 * ranking (every round, so its first page carries the flagged numbers).
 *
 *   --votes 1000000 --vote-rate 200 --readers 50 --read-every 1000 --duration 20 --warmup 5 --surge-instances 1 --voters 32 --created --stuffers 2 --reuse --record
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Client, Pool } from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../server/src/db/client';
import { WORLD_CUP_2022, type DemoCampaign } from '../server/src/db/seed-data';
import { serviceCodes } from '../server/src/db/schema';
import { seedCampaigns, seedVotes } from '../server/src/db/seed-votes';
import { ensureFirstAdmin } from '../server/src/auth/first-admin';
import { signedCallback } from '../server/src/ingestion/callback-signature';
import { adminQuery, BENCH_APPLICATION, batchedLookup, PG_URL, sampleBackendsCpu } from './ingest';
import { startBuiltServer, type ServerProcess } from './server-process';
import { freePort } from '../scripts/free-port';
import { percentile, sleep, waitTurn } from './measure';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => (args.includes(`--${name}`) ? Number(args[args.indexOf(`--${name}`) + 1]) : fallback);
const VOTES = option('votes', 1_000_000);
const VOTE_RATE_DEFAULT = option('vote-rate', 200);
const READERS = option('readers', 50);
/** Each reader reads this often (ms); 0: back to back. */
const READ_EVERY_MS = option('read-every', 1000);
const VOTERS = option('voters', 32);
const DURATION_S = option('duration', 20);
/** Seconds of the surge before it is measured (below). */
const WARMUP_S = option('warmup', 5);
const INSTANCES = option('surge-instances', 1);
const RECORD = args.includes('--record');
/** Keep the database a previous run seeded (1,000,000 votes take minutes to seed). */
const REUSE = args.includes('--reuse');
const CREATED = args.includes('--created');
const STUFFERS = CREATED ? option('stuffers', 2) : 0;
const DB_NAME = CREATED ? 'dialdesk_surge_created' : 'dialdesk_surge';
/** The campaign `--created` makes through the API: the voters' teams round first, the stuffers' games round second. */
const CREATED_CAMPAIGN: DemoCampaign & { votePrice: number; velocityPerMinute: number; holdSuspicious: boolean } = {
  key: 'surge-league',
  name: 'Surge League',
  serviceCode: '*217*77#',
  teams: ['Uganda', 'Kenya', 'Tanzania', 'Rwanda', 'Burundi', 'South Sudan', 'Ethiopia', 'Somalia'],
  rounds: [
    { key: 'general', label: 'General', kind: 'teams' },
    { key: 'final', label: 'Final', kind: 'games', games: [['Uganda', 'Kenya'], ['Tanzania', 'Rwanda']] },
  ],
  opensAt: '2026-01-01T00:00:00Z',
  votePrice: 500,
  velocityPerMinute: 10,
  holdSuspicious: true,
};
const CAMPAIGN = CREATED ? CREATED_CAMPAIGN : WORLD_CUP_2022;
const ADMIN = { userName: 'surge-admin', password: 'surge-password-1' };
const HOPS = ['menu', 'round', 'team', 'confirm', 'callback'] as const;


/** The World Cup votes already in the surge's database, 0 when there is none. */
async function seededVotes(url: string): Promise<number> {
  const client = new Client({ connectionString: url });
  try {
    await client.connect();
    const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from transactions where campaign_key = $1`, [CAMPAIGN.key]);
    return rows[0].n;
  } catch {
    return 0;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function voteSurge({ voteRate = VOTE_RATE_DEFAULT, record = RECORD } = {}): Promise<string> {
  const VOTE_RATE = voteRate;
  const load = os.loadavg()[0].toFixed(1);
  const url = new URL(PG_URL);
  url.pathname = `/${DB_NAME}`;
  const seeded = REUSE ? await seededVotes(url.toString()) : 0;
  if (seeded < VOTES) {
    await adminQuery(`drop database if exists ${DB_NAME} with (force)`);
    await adminQuery(`create database ${DB_NAME}`);
    const setup = await openDatabase({ databaseUrl: url.toString() });
    const seedStarted = Date.now();
    await ensureFirstAdmin(setup.db, ADMIN.userName, ADMIN.password);
    await seedCampaigns(setup.db);
    if (CREATED) {
      // The campaign is made through the API (below); its votes so far are seeded once it exists.
      await setup.db.insert(serviceCodes).values({ name: CREATED_CAMPAIGN.serviceCode });
    } else {
      await seedVotes(setup.db, { campaign: WORLD_CUP_2022, count: VOTES, days: 30 });
      // As for the created campaign below: without fresh statistics the first results read outlasts the timeout.
      await setup.db.execute(sql`vacuum analyze`);
    }
    await setup.close();
    if (!CREATED) console.log(`seeded ${VOTES} votes in ${Math.round((Date.now() - seedStarted) / 1000)} s`);
  } else console.log(`reusing ${DB_NAME}: ${seeded} votes`);

  const secret = crypto.randomBytes(32).toString('hex');
  const token = crypto.randomBytes(24).toString('hex');
  const env = {
    HOST: '127.0.0.1',
    DATABASE_URL: url.toString(),
    PAYMENT_PROVIDER: 'external',
    PAYMENT_CALLBACK_SECRET: secret,
    USSD_CALLBACK_TOKEN: token,
    JWT_SECRET: crypto.randomBytes(32).toString('hex'),
    SEED_DEMO: '0',
    // The bench's admin signs in with its password alone, as before two-factor sign-in existed.
    REQUIRE_2FA_ROLES: '',
    LOG_LEVEL: 'warn',
    // A number confirms at most 5 payments a minute by default, under the velocity flag's 10: the stuffers
    // could never earn it. An operator running a TV vote raises the limit, as this does.
    ...(CREATED ? { USSD_CONFIRMS_PER_MINUTE: '1000' } : {}),
  };
  const servers: ServerProcess[] = [];
  for (let i = 0; i < INSTANCES; i += 1) servers.push(await startBuiltServer({ ...env, PORT: String(await freePort()) }));
  const agent = new http.Agent({ keepAlive: true, maxSockets: (VOTERS + READERS) * 2 });
  const request = (method: string, url: string, body: string | undefined, headers: Record<string, string>) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const server = servers[Math.floor(Math.random() * servers.length)];
      const req = http.request(`${server.url}${url}`, { method, agent, timeout: 10_000, headers: body ? { ...headers, 'content-length': Buffer.byteLength(body) } : headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      });
      req.on('timeout', () => req.destroy(new Error('timed out')));
      req.on('error', reject);
      req.end(body);
    });
  const login = await request('POST', '/v1/auth/login', JSON.stringify(ADMIN), { 'content-type': 'application/json' });
  const bearer = { authorization: `Bearer ${(JSON.parse(login.text) as { results: { accessToken: string } }).results.accessToken}` };
  if (CREATED && seeded < VOTES) {
    const json = { 'content-type': 'application/json', ...bearer };
    const { opensAt: _opensAt, ...body } = CREATED_CAMPAIGN;
    const created = await request('POST', '/v1/campaigns', JSON.stringify(body), json);
    if (created.status !== 201) throw new Error(`create campaign: ${created.status} ${created.text}`);
    const published = await request('POST', `/v1/campaigns/${CREATED_CAMPAIGN.key}/publish`, undefined, bearer);
    if (published.status !== 200) throw new Error(`publish campaign: ${published.status} ${published.text}`);
    const seedStarted = Date.now();
    const setup = await openDatabase({ databaseUrl: url.toString() });
    await seedVotes(setup.db, { campaign: CREATED_CAMPAIGN, count: VOTES, days: 30 });
    // Fresh statistics and visibility map, as autovacuum keeps them on a live database: straight after a
    // million rows the planner knows none of them, and the first results read outlasted the 10 s timeout.
    await setup.db.execute(sql`vacuum analyze`);
    await setup.close();
    console.log(`created ${CREATED_CAMPAIGN.key} through the API; seeded ${VOTES} votes in ${Math.round((Date.now() - seedStarted) / 1000)} s`);
  }
  // The voters' round: the results the lag is read from leave the stuffers' held votes out.
  const resultsUrl = CREATED ? `/v1/campaigns/${CAMPAIGN.key}/results?round=general` : `/v1/campaigns/${CAMPAIGN.key}/results`;
  const rankingRead = CREATED
    ? () => request('POST', `/v1/campaigns/${CAMPAIGN.key}/ranking?round=all&page=1&limit=50`, '{}', { 'content-type': 'application/json', ...bearer })
    : () => request('POST', '/v1/world/cup/better/all?page=1&limit=50', JSON.stringify({ serviceCode: WORLD_CUP_2022.serviceCode }), { 'content-type': 'application/json', ...bearer });
  const results = async () => {
    const answer = await request('GET', resultsUrl, undefined, bearer);
    return (JSON.parse(answer.text) as { results: { totalVotes: number } }).results.totalVotes;
  };
  const baseline = await results();

  const latencies = Object.fromEntries(HOPS.map((hop) => [hop, [] as number[]])) as Record<(typeof HOPS)[number], number[]>;
  const reads: { ranking: number[]; results: number[] } = { ranking: [], results: [] };
  // The surge runs WARMUP_S before it is measured: a process just started answers its first seconds
  // slower (code not yet optimised, statements not yet planned), which a server in service is past.
  const measuredFrom = Date.now() + WARMUP_S * 1000;
  /** Times the work, and keeps the time once the warm-up is over. */
  const timed = async <T>(into: number[], work: () => Promise<T>) => {
    const measured = Date.now() >= measuredFrom;
    const started = performance.now();
    const result = await work();
    if (measured) into.push(performance.now() - started);
    return result;
  };
  // The bench's own connections are named so that their backends are left out of PostgreSQL's CPU.
  const pool = new Pool({ connectionString: url.toString(), max: 2, application_name: BENCH_APPLICATION });
  const lookup = batchedLookup(pool);
  const until = measuredFrom + DURATION_S * 1000;
  /** Votes acknowledged in all, and of those started in the measured seconds. */
  let acknowledgedInAll = 0;
  let acknowledged = 0;
  /** The stuffers' votes acknowledged in the measured seconds (held once flagged; not in the voters' results). */
  let stuffed = 0;
  let errors = 0;
  let n = 0;
  /** The voters together keep VOTE_RATE from here. */
  const startedAt = Date.now();
  const voter = async (_: unknown, index: number) => {
    const stuffer = index < STUFFERS;
    while (Date.now() < until) {
      n += 1;
      const k = n;
      if (!(await waitTurn(k, VOTE_RATE, startedAt, until))) return;
      // A vote counts toward the measured rate when it starts in the measured seconds.
      const measured = Date.now() >= measuredFrom;
      const sessionId = `surge-${k}-${crypto.randomBytes(3).toString('hex')}`;
      const phoneNumber = stuffer ? `25679900000${index}` : `2567${String(10_000_000 + ((k * 7919 + 13) % 89_999_999)).slice(-8)}`;
      // A stuffer picks the first game's first team in the games round (one hop more: the game).
      const texts = stuffer ? ['', '2', '2*1', '2*1*1', '2*1*1*1'] : ['', '1', '1*3', '1*3*1'];
      try {
        for (const [i, text] of texts.entries()) {
          // The stuffers' hops are not timed: their extra game hop has no column, and the voters' hops are the table's.
          const hop = () =>
            request('POST', `/v1/ussd/callback?token=${token}`, new URLSearchParams({ sessionId, serviceCode: CAMPAIGN.serviceCode, phoneNumber, networkCode: '64110', text }).toString(), {
              'content-type': 'application/x-www-form-urlencoded',
            });
          const answer = stuffer ? await hop() : await timed(latencies[HOPS[i]], hop);
          if (answer.status !== 200) throw new Error(`hop ${answer.status}`);
        }
        // The provider learns the reference from the collect request; the bench reads it by session
        // from the database, as bench:ingest does (an API search a vote cost the server and PostgreSQL
        // a request and a query no real vote makes).
        const reference = await lookup(sessionId);
        if (!reference) throw new Error('no reference');
        const { payload, headers } = signedCallback({ reference, status: 'SUCCESSFUL' }, secret);
        const callback = () => request('POST', '/v1/payments/callback', payload, headers);
        const paid = stuffer ? await callback() : await timed(latencies.callback, callback);
        if (paid.status !== 200) throw new Error(`callback ${paid.status}`);
        if (stuffer) {
          if (measured) stuffed += 1;
          continue;
        }
        acknowledgedInAll += 1;
        if (measured) acknowledged += 1;
      } catch {
        errors += 1;
      }
    }
  };
  /** Every second: how many votes were acknowledged by then, and when a read first counted them all. */
  const marks: { at: number; total: number; seenAt?: number }[] = [];
  const marker = async () => {
    await sleep(measuredFrom - Date.now());
    while (Date.now() < until) {
      await sleep(1000);
      marks.push({ at: performance.now(), total: baseline + acknowledgedInAll });
    }
  };
  const reader = async (i: number) => {
    // Readers start spread over one period, so the reads arrive evenly rather than in a wave.
    let due = Date.now() + (READ_EVERY_MS * i) / READERS;
    while (Date.now() < until + 3000) {
      if (READ_EVERY_MS > 0) {
        if (due > Date.now()) await sleep(due - Date.now());
        due += READ_EVERY_MS;
      }
      if (i % 2 === 0) {
        await timed(reads.ranking, rankingRead);
      } else {
        const total = await timed(reads.results, results);
        const now = performance.now();
        for (const mark of marks) if (mark.seenAt === undefined && total >= mark.total) mark.seenAt = now;
      }
    }
  };
  const surge = Promise.all([...Array.from({ length: VOTERS }, voter), marker(), ...Array.from({ length: READERS }, (_, i) => reader(i))]);
  await sleep(measuredFrom - Date.now());
  const cpuStart = servers.map((server) => server.cpuMs());
  const databaseCpu = await sampleBackendsCpu(pool, DB_NAME);
  const started = performance.now();
  await surge;
  const seconds = Math.min((performance.now() - started) / 1000, DURATION_S);
  const serverCpuMs = servers.reduce((sum, server, i) => sum + server.cpuMs() - cpuStart[i], 0);
  const databaseCpuMs = await databaseCpu.stop();
  const { rows: holds } = await pool.query<{ held: number; flagged: number }>(
    `select count(*) filter (where vote_hold = 'held')::int as held, count(distinct phone_number) filter (where vote_hold = 'held')::int as flagged from transactions where campaign_key = $1`,
    [CAMPAIGN.key],
  );
  await pool.end();
  for (const server of servers) await server.stop();
  agent.destroy();

  const lags = marks.filter((mark) => mark.seenAt !== undefined).map((mark) => mark.seenAt! - mark.at);
  const unseen = marks.filter((mark) => mark.seenAt === undefined).length;
  const p99 = (values: number[]) => (values.length ? Math.round(percentile(values, 99)) : '—');
  const report = [
    `## ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC — vote surge (rankings under live votes)`,
    '',
    `Command: \`${process.argv.slice(1).map((a) => path.basename(a)).join(' ')}\`. Machine: ${os.cpus().length} CPUs (${os.cpus()[0]?.model}), Node ${process.version}; load average (1 min) ${load} at the start, ${os.loadavg()[0].toFixed(1)} at the end; the bench, PostgreSQL and ${INSTANCES} API process${INSTANCES > 1 ? 'es' : ''} share the machine.`,
    `${VOTES.toLocaleString('en')} votes seeded${CREATED ? ` for a campaign created through the API (${CAMPAIGN.key}: a teams round and a games round, holdSuspicious on, velocityPerMinute ${CREATED_CAMPAIGN.velocityPerMinute})` : ''}; ${VOTERS} voters${STUFFERS ? `, ${STUFFERS} of them stuffers voting back to back in the games round (${stuffed} of their votes acknowledged in the measured seconds, not in the table's columns; after the run ${holds[0].held} votes of ${holds[0].flagged} numbers held)` : ''} (a vote in the teams round: four hops, then the signed SUCCESSFUL callback) at ${VOTE_RATE || 'as many'} votes/s target for ${DURATION_S} s after ${WARMUP_S} s of warm-up; ${READERS} readers (half the ranking's first page${CREATED ? ' (every round, the generic call, with its flags)' : ''}, half the team results${CREATED ? ' of the teams round' : ''}), each ${READ_EVERY_MS > 0 ? `reading every ${READ_EVERY_MS} ms` : 'reading back to back'}. Targets: ranking p99 < 25 ms, a settled vote counted within 2 s, hop p99 < 200 ms.`,
    '',
    `| votes acknowledged | votes/s | ${HOPS.map((hop) => `${hop} p99 ms`).join(' | ')} | ranking reads | ranking p99 ms | results reads | results p99 ms | lag p50 ms | lag max ms | seconds never counted | errors | server CPU ms/vote | PostgreSQL CPU ms/vote |`,
    `|---:|---:|${HOPS.map(() => '---:').join('|')}|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|`,
    `| ${acknowledged} | ${Math.round(acknowledged / seconds)} | ${HOPS.map((hop) => p99(latencies[hop])).join(' | ')} | ${reads.ranking.length} | ${p99(reads.ranking)} | ${reads.results.length} | ${p99(reads.results)} | ${lags.length ? Math.round(percentile(lags, 50)) : '—'} | ${lags.length ? Math.round(Math.max(...lags)) : '—'} | ${unseen} | ${errors} | ${acknowledged ? (serverCpuMs / acknowledged).toFixed(1) : '—'} | ${acknowledged && databaseCpuMs !== undefined ? (databaseCpuMs / acknowledged).toFixed(1) : '—'} |`,
    '',
  ].join('\n');
  console.log(`\n${report}`);
  if (record) fs.appendFileSync(path.join(__dirname, 'RESULTS.md'), `\n${report}`);
  return report;
}

if (require.main === module) {
  voteSurge().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
