import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/client';
import { awaitingPayment, transactions } from '../db/schema';
import { HttpError } from '../http/http-error';
import { documented, textAnswer } from '../openapi';
import { incidentsRepository } from '../repositories/incidents-repository';

/** What the money path tells the metrics as it happens. */
export interface SaleMetrics {
  /** A sale settled (or reconciled) on this process: its code and what it became. */
  saleSettled(serviceCode: string, status: 'SUCCESSFUL' | 'FAILED'): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: SaleMetrics & { registry: Registry };
  }
}

export interface MetricsOptions {
  db: Db;
  /** METRICS_TOKEN: `/metrics` then asks for it as a Bearer token; without one it answers loopback callers only. */
  token?: string;
  /** The number of clients of this process's live stream. */
  liveClients: () => number;
  /** The provider-silence rule's minutes (INCIDENT_SILENCE_MINUTES): a payment pending longer with no word from the provider is silent. */
  silenceMinutes: number;
}

/** Seconds: a list read is a few milliseconds, a CSV export or a reconciliation upload can take many seconds. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** A USSD hop must answer within the network's few seconds; most take milliseconds. */
const HOP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5];

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * The socket's own address, not request.ip: with TRUST_PROXY on, request.ip comes from
 * X-Forwarded-For, which any caller can write.
 */
const fromLoopback = (request: FastifyRequest) => LOOPBACK.has(request.raw.socket.remoteAddress ?? '');

/** Constant-time comparison of the Authorization header with the token, so its length and bytes do not leak through timing. */
function bearerMatches(header: string | undefined, token: string) {
  const given = crypto.createHash('sha256').update(header ?? '').digest();
  const wanted = crypto.createHash('sha256').update(`Bearer ${token}`).digest();
  return crypto.timingSafeEqual(given, wanted);
}

/** The pg pool's counts when the database is PostgreSQL (drizzle keeps the driver as `$client`); PGlite has no pool. */
function poolOf(db: Db): { totalCount: number; idleCount: number; waitingCount: number } | undefined {
  const client = (db as unknown as { $client?: { totalCount?: unknown; idleCount?: number; waitingCount?: number } }).$client;
  return typeof client?.totalCount === 'number' ? (client as { totalCount: number; idleCount: number; waitingCount: number }) : undefined;
}

/**
 * Prometheus metrics for the on-call engineer (README: Operations): request durations per route and
 * status, USSD hop durations, sales per code and outcome, and, read when scraped, the payments
 * awaiting an answer, the live clients, the open incidents and the database pool; with Node's own.
 * One registry per app, so several apps in one process (the tests) keep their counts apart.
 */
export default fp(
  async function metricsPlugin(app: FastifyInstance, { db, token, liveClients, silenceMinutes }: MetricsOptions) {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });

    const requests = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from the request to the last byte of the answer, per route pattern, method and status',
      labelNames: ['route', 'method', 'status'] as const,
      buckets: REQUEST_BUCKETS,
      registers: [registry],
    });
    const hops = new Histogram({
      name: 'dialdesk_ussd_hop_duration_seconds',
      help: 'Time the USSD callback took to answer one hop of a dialled session',
      buckets: HOP_BUCKETS,
      registers: [registry],
    });
    const sales = new Counter({
      name: 'dialdesk_sales_total',
      help: 'Sales settled by this process, per service code and outcome (SUCCESSFUL or FAILED)',
      labelNames: ['service_code', 'status'] as const,
      registers: [registry],
    });
    // The database's figures are read when scraped. While the database is away a scrape still answers
    // (Node's figures and the requests answered meanwhile are what the on-call engineer needs then):
    // these gauges say NaN (not known; a label per kind is left out) and dialdesk_database_up says why.
    const log = app.log;
    const fromDatabase = async (gauge: Gauge, read: () => Promise<void>, labelled = false) => {
      try {
        await read();
      } catch (error) {
        gauge.reset();
        if (!labelled) gauge.set(NaN);
        log.debug({ err: error }, 'metrics: a database figure could not be read');
      }
    };
    new Gauge({
      name: 'dialdesk_database_up',
      help: 'Whether the database answered this scrape (1) or not (0)',
      registers: [registry],
      async collect() {
        this.set(await db.execute(sql`select 1`).then(() => 1, () => 0));
      },
    });
    new Gauge({
      name: 'dialdesk_payments_pending',
      help: 'Calls whose payment was requested and has had no final answer yet (the whole database)',
      registers: [registry],
      async collect() {
        await fromDatabase(this, async () => {
          const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(transactions).where(awaitingPayment(transactions));
          this.set(row?.n ?? 0);
        });
      },
    });
    // The provider-silence incident's own figure, so its alert can mirror the rule rather than guess at it;
    // read through the pending calls' partial index, a handful of rows however big the database.
    const incidents = incidentsRepository(db);
    new Gauge({
      name: 'dialdesk_payments_silent',
      help: 'Payments pending longer than INCIDENT_SILENCE_MINUTES with no word from the provider (the whole database)',
      registers: [registry],
      async collect() {
        await fromDatabase(this, async () => this.set((await incidents.silentPayments(new Date(Date.now() - silenceMinutes * 60_000))).silent));
      },
    });
    new Gauge({
      name: 'dialdesk_live_clients',
      help: 'Clients of GET /v1/live on this process',
      registers: [registry],
      collect() {
        this.set(liveClients());
      },
    });
    new Gauge({
      name: 'dialdesk_incidents_open',
      help: 'Incidents open now (the whole database), per kind',
      labelNames: ['kind'] as const,
      registers: [registry],
      async collect() {
        await fromDatabase(this, async () => {
          const rows = (await db.execute(sql`select kind, count(*)::int as n from incidents where closed_at is null group by kind`)) as unknown as { rows: { kind: string; n: number }[] };
          this.reset();
          for (const { kind, n } of rows.rows) this.set({ kind }, n);
        }, true);
      },
    });
    new Gauge({
      name: 'dialdesk_db_pool_connections',
      help: "The PostgreSQL pool's connections: total, idle, and requests waiting for one (absent on the embedded database)",
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const pool = poolOf(db);
        if (!pool) return;
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });

    app.decorate('metrics', {
      registry,
      saleSettled: (serviceCode: string, status: 'SUCCESSFUL' | 'FAILED') => sales.inc({ service_code: serviceCode, status }),
    });

    app.addHook('onResponse', (request, reply, done) => {
      // The route's pattern, never the raw URL: ids and phone numbers in paths would make a series each.
      const route = request.routeOptions.url ?? 'unmatched';
      const seconds = reply.elapsedTime / 1000;
      requests.observe({ route, method: request.method, status: String(reply.statusCode) }, seconds);
      if (route.startsWith('/v1/ussd/')) hops.observe(seconds);
      done();
    });

    const docs = documented({
      summary: "The service's metrics in Prometheus's text format",
      answer: textAnswer('text/plain; version=0.0.4', 'Prometheus exposition format'),
      errors: { 401: 'METRICS_TOKEN is set and the Bearer token is missing or wrong', 403: 'METRICS_TOKEN is unset and the caller is not on this machine' },
    });
    app.get('/metrics', { schema: { tags: ['health'] }, config: { swaggerTransform: docs } }, async (request, reply) => {
      if (token && !bearerMatches(request.headers.authorization, token)) throw new HttpError(401, 'A valid metrics token is required');
      if (!token && !fromLoopback(request)) throw new HttpError(403, 'Metrics are answered to this machine only');
      return reply.header('content-type', registry.contentType).header('cache-control', 'no-store').send(await registry.metrics());
    });
  },
  { name: 'metrics' },
);
