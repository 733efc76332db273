import crypto from 'node:crypto';
import helmet from 'helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyServerOptions, type RouteOptions } from 'fastify';
import { DEFAULT_SERVICE_TIME_ZONE, setServiceTimeZone } from '../../src/domain/format';
import { DEFAULT_SERVICE_CURRENCY } from '../../src/domain/reconciliation';
import type { Db } from './db/client';
import { ingestion } from './ingestion/ingestion';
import { inProcessChangeFeed, postgresChangeFeed } from './live/change-feed';
import { DEFAULT_INCIDENT_SETTINGS, incidentDetector, type IncidentSettings } from './live/incident-detector';
import { liveStream } from './live/live-stream';
import answerCachePlugin, { answerCache, DEFAULT_RANKING_CACHE_MS, type AnswerCache } from './plugins/answer-cache';
import authPlugin from './plugins/auth';
import databasePlugin from './plugins/database';
import errorsPlugin, { frameworkError } from './plugins/errors';
import ingestionPlugin from './plugins/ingestion';
import inputGuardPlugin from './plugins/input-guard';
import livePlugin from './plugins/live';
import metricsPlugin from './plugins/metrics';
import providersPlugin, { type Providers } from './plugins/providers';
import webPlugin from './plugins/web';
import { componentSchemas, TAGS } from './openapi';
import { localMailProvider } from './providers/mail';
import { externalPaymentProvider, type PaymentProvider } from './providers/payment';
import type { PaymentProviderFactory } from './providers/payment-from-config';
import { localSmsProvider } from './providers/sms';
import { serviceSettingsRepository } from './repositories/service-settings-repository';
import { transactionsRepository } from './repositories/transactions-repository';
import auditRoutes from './routes/audit';
import authRoutes from './routes/auth';
import campaignIntegrityRoutes from './routes/campaign-integrity';
import campaignListsRoutes from './routes/campaign-lists';
import campaignRankingsRoutes from './routes/campaign-rankings';
import campaignVotesRoutes from './routes/campaign-votes';
import campaignsRoutes from './routes/campaigns';
import categoriesRoutes from './routes/categories';
import contentsRoutes from './routes/contents';
import dashboardRoutes from './routes/dashboard';
import healthRoutes from './routes/health';
import incidentsRoutes from './routes/incidents';
import liveRoutes from './routes/live';
import twoFactorRoutes from './routes/two-factor';
import serviceCodesRoutes from './routes/service-codes';
import smsRoutes from './routes/sms';
import transactionEventsRoutes from './routes/transaction-events';
import transactionsRoutes from './routes/transactions';
import customersRoutes from './routes/customers';
import reportsRoutes from './routes/reports';
import ussdRoutes from './routes/ussd';
import paymentsRoutes from './routes/payments';
import reconciliationRoutes from './routes/reconciliation';
import refundsRoutes from './routes/refunds';
import usersRoutes from './routes/users';

export interface AppDeps {
  db: Db;
  jwtSecret: string;
  /** The service's time zone (TZ_NAME), for days, daily counts and the SPA's display. */
  timeZone?: string;
  /** The ISO 4217 code the service sells in (SERVICE_CURRENCY, default UGX): statement lines in another are never matched. */
  serviceCurrency?: string;
  /** Outbound adapters; the payment provider may be made with the settlement it hands its own decisions to. */
  providers?: Partial<Omit<Providers, 'payment'>> & { payment?: PaymentProvider | PaymentProviderFactory };
  /** Folder of the built SPA; served with a fallback to index.html when it exists. */
  webRoot?: string;
  logger?: FastifyServerOptions['logger'];
  /** Public origin of the site, for links in mail (PUBLIC_URL). */
  publicUrl?: string;
  /**
   * Proxies whose X-Forwarded-* headers are believed (TRUST_PROXY). Off by default: believing
   * any client's X-Forwarded-For would let it dodge the per-address sign-in limit.
   */
  trustProxy?: boolean | string;
  /** PAYMENT_CALLBACK_SECRET: the HMAC key of payment callbacks (and of delivery reports off Africa's Talking). Random when unset. */
  callbackSecret?: string;
  /** AT_CALLBACK_TOKEN: with Africa's Talking, the token its delivery-report URL carries instead of a signature. */
  deliveryReportToken?: string;
  /** The campaign answer cache; one of RANKING_CACHE_MS (`rankingCacheMs`) otherwise. */
  answerCache?: AnswerCache;
  /** How long a campaign ranking or results answer is served from memory (RANKING_CACHE_MS). */
  rankingCacheMs?: number;
  /** REFUND_SELF_APPROVE_BELOW (UGX, default 0: never) and REFUND_SMS_TEXT. */
  refunds?: { selfApproveBelow?: number; smsText?: string };
  /** Runs the payment sweeper while the app is up (main.ts); tests sweep by hand. */
  sweeper?: { timeoutMinutes: number };
  /** How long the USSD menu keeps a code's catalogue (USSD_MENU_CACHE_MS); 0, the default here, keeps nothing. */
  ussdMenuCacheMs?: number;
  /** The USSD callback's door: its URL token (random when unset), allowed sources, confirmations a minute per number (default 5). */
  ussd?: { callbackToken?: string; allowedSources?: string[]; confirmsPerMinute?: number };
  /** How long this process trusts its last look at a session (at most and by default 5000 ms, session-check.ts). */
  sessionCheckMs?: number;
  /** The key two-factor secrets are sealed with (TOTP_ENCRYPTION_KEY or DATA_DIR's file); a random one per process when absent. */
  twoFactorKey?: Buffer;
  /** REQUIRE_2FA_ROLES: roles that must enrol in two-factor sign-in before they reach more than its set-up; none when absent. */
  requireTwoFactorRoles?: readonly string[];
  /** The clock the session check keeps its answers by; Date.now unless a test moves time on rather than waits. */
  now?: () => number;
  /**
   * The Host names (`name` or `name:port`) a password-reset link may be built on when `publicUrl`
   * is unset (ALLOWED_HOSTS); by default localhost and 127.0.0.1 on any port.
   */
  allowedHosts?: readonly string[];
  /**
   * The live stream's change feed (LIVE_FEED): in this process unless `{ kind: 'postgres', databaseUrl }`,
   * which several API processes on one PostgreSQL need (LISTEN/NOTIFY); and its timings.
   */
  live?: {
    feed?: { kind: 'process' } | { kind: 'postgres'; databaseUrl: string };
    batchMs?: number;
    flushMs?: number;
    writesPerSecond?: number;
    heartbeatMs?: number;
    maxBufferedBytes?: number;
    /** Streams one session, one user, this process may hold open (LIVE_STREAMS_PER_SESSION, LIVE_STREAMS_PER_USER, LIVE_STREAMS_MAX). */
    streams?: { perSession?: number; perUser?: number; max?: number };
  };
  /** METRICS_TOKEN: GET /metrics asks for it as a Bearer token; without one it answers callers on this machine only. */
  metricsToken?: string;
  /** The incident rules' thresholds (INCIDENT_*); `everyMs` runs the detector while the app is up (main.ts; tests detect on fixed clocks). */
  incidents?: Partial<IncidentSettings> & { everyMs?: number };
  /** Sees every route as it is registered (the OpenAPI coverage test lists them with it). */
  onRoute?: (route: RouteOptions) => void;
}

/** Builds the whole API from its dependencies; main.ts listens, tests inject. */
export async function buildApp(deps: AppDeps) {
  // The service's one time zone (TZ_NAME), for src/domain's days and display in this process and
  // for the database's daily counts: set before any call is counted.
  const timeZone = deps.timeZone ?? DEFAULT_SERVICE_TIME_ZONE;
  setServiceTimeZone(timeZone);
  await serviceSettingsRepository(deps.db).useTimeZone(timeZone);
  const app = Fastify({
    logger: deps.logger ?? false,
    trustProxy: deps.trustProxy ?? false,
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false } },
    frameworkErrors: frameworkError,
    // Every answer names its request (X-Request-Id) and every log line of it carries the same id, so
    // support can quote one and find the other. A caller's own id is kept when it is a plain token,
    // so a proxy's id follows the request through; anything else could forge or flood log lines.
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[A-Za-z0-9._:-]{8,64}$/.test(given) ? given : crypto.randomUUID();
    },
  });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  if (deps.onRoute) app.addHook('onRoute', deps.onRoute);

  // Security headers on every answer. Helmet's middleware is built once here: @fastify/helmet
  // rebuilt it, parsing the CSP again, on every request (a twentieth of a list call's CPU).
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'", 'https:'],
        imgSrc: ["'self'", 'data:', 'validator.swagger.io'],
        fontSrc: ["'self'", 'data:'],
      },
    },
  });
  app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined)));
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Dialdesk API',
        version: '1.0.0',
        description:
          "Operator console API (SPEC §7 contract). Every answer carries an X-Request-Id header (the caller's own when it is 8 to 64 letters, digits or `._:-`), which a server error's body repeats as `requestId`.",
      },
      // Relative, so "Try it out" calls the server that serves /docs.
      servers: [{ url: '/', description: 'This server' }],
      tags: TAGS,
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } }, schemas: componentSchemas },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  await app.register(errorsPlugin);
  await app.register(inputGuardPlugin);
  await app.register(databasePlugin, { db: deps.db });
  const { everyMs: detectEveryMs, ...incidentSettings } = deps.incidents ?? {};
  const settings = { ...DEFAULT_INCIDENT_SETTINGS, ...incidentSettings };
  // Early, so its timing hook sees every route registered after it.
  await app.register(metricsPlugin, { db: deps.db, token: deps.metricsToken, liveClients: () => live.stream.size, silenceMinutes: settings.silenceMinutes });
  const answers = deps.answerCache ?? answerCache({ ttlMs: deps.rankingCacheMs ?? DEFAULT_RANKING_CACHE_MS });
  const sms = deps.providers?.sms ?? localSmsProvider();
  const mail = deps.providers?.mail ?? localMailProvider(deps.db);
  // What changed, for GET /v1/live: in this process, or through PostgreSQL to every instance.
  const liveFeed = deps.live?.feed;
  const feed =
    liveFeed?.kind === 'postgres'
      ? postgresChangeFeed({ databaseUrl: liveFeed.databaseUrl, db: deps.db, log: app.log, batchMs: deps.live?.batchMs })
      : inProcessChangeFeed({ batchMs: deps.live?.batchMs });
  // The money path, built once: the settlement the callback route, the providers and the sweeper share.
  const wing = ingestion({
    db: deps.db,
    sms,
    // Settles nothing by itself, so tests decide every outcome; main.ts picks PAYMENT_PROVIDER.
    payment: deps.providers?.payment ?? externalPaymentProvider(),
    onVoteCounted: answers.voteCounted,
    onVoterChanged: answers.voterChanged,
    onCallChanged: (id) => feed.callsChanged(id),
    onSaleSettled: app.metrics.saleSettled,
    refunds: deps.refunds,
    onRefundChanged: (refund) => feed.refundChanged(refund),
    ussdMenuCacheMs: deps.ussdMenuCacheMs ?? 0,
    confirmsPerMinute: deps.ussd?.confirmsPerMinute ?? 5,
    log: app.log,
  });
  await app.register(providersPlugin, { providers: { mail, sms, payment: wing.payment } });
  await app.register(authPlugin, {
    secret: deps.jwtSecret,
    db: deps.db,
    sessionCheckMs: deps.sessionCheckMs,
    now: deps.now,
    twoFactorKey: deps.twoFactorKey,
    requireTwoFactorRoles: deps.requireTwoFactorRoles,
  });
  await app.register(answerCachePlugin, { cache: answers });
  await app.register(ingestionPlugin, { wing, sweeper: deps.sweeper });
  const calls = transactionsRepository(deps.db);
  const live = {
    feed,
    settings,
    stream: liveStream({
      feed,
      readCalls: calls.liveStates,
      log: app.log,
      flushMs: deps.live?.flushMs,
      writesPerSecond: deps.live?.writesPerSecond,
      heartbeatMs: deps.live?.heartbeatMs,
      maxBufferedBytes: deps.live?.maxBufferedBytes,
      // A stream's session is checked as a request's is, on the same clock.
      readSessions: app.sessionCheck.holders,
      sessionCheckMs: deps.sessionCheckMs,
      maxPerSession: deps.live?.streams?.perSession,
      maxPerUser: deps.live?.streams?.perUser,
      maxStreams: deps.live?.streams?.max,
    }),
    detector: incidentDetector({ db: deps.db, feed, mail, settings, log: app.log }),
  };
  // Sessions this process ends or changes end their streams at once, not at the next check.
  app.sessionCheck.onForget(() => void live.stream.checkSessions());
  await app.register(livePlugin, { live, detectEveryMs });
  const callbackSecret = deps.callbackSecret ?? crypto.randomBytes(32).toString('base64url');

  // Routes, one module per resource (paths as SPEC §7).
  await app.register(healthRoutes);
  await app.register(authRoutes, { publicUrl: deps.publicUrl, allowedHosts: deps.allowedHosts });
  await app.register(twoFactorRoutes);
  await app.register(usersRoutes);
  await app.register(categoriesRoutes);
  await app.register(serviceCodesRoutes);
  await app.register(contentsRoutes);
  await app.register(smsRoutes, {
    deliveryReportAuth: deps.deliveryReportToken ? { kind: 'query-token', token: deps.deliveryReportToken } : { kind: 'signature', secret: callbackSecret },
  });
  await app.register(transactionsRoutes);
  await app.register(customersRoutes);
  await app.register(reportsRoutes);
  await app.register(transactionEventsRoutes);
  await app.register(refundsRoutes);
  await app.register(dashboardRoutes);
  await app.register(liveRoutes);
  await app.register(incidentsRoutes);
  await app.register(ussdRoutes, { token: deps.ussd?.callbackToken ?? crypto.randomBytes(32).toString('base64url'), allowedSources: deps.ussd?.allowedSources });
  await app.register(paymentsRoutes, { callbackAuth: { kind: 'signature', secret: callbackSecret } });
  await app.register(campaignsRoutes);
  await app.register(campaignListsRoutes);
  await app.register(campaignRankingsRoutes);
  await app.register(campaignVotesRoutes);
  await app.register(campaignIntegrityRoutes);
  await app.register(reconciliationRoutes, { serviceCurrency: (deps.serviceCurrency ?? DEFAULT_SERVICE_CURRENCY).toUpperCase() });
  await app.register(auditRoutes);

  await app.register(webPlugin, { webRoot: deps.webRoot, serviceTimeZone: timeZone });

  return app;
}
