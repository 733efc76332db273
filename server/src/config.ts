import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { DEFAULT_SERVICE_TIME_ZONE, isTimeZone } from '../../src/domain/format';
import { DEFAULT_SERVICE_CURRENCY } from '../../src/domain/reconciliation';
import { DEFAULT_REFUND_SMS_TEXT } from '../../src/domain/refunds';
import { ROLES, type Role } from '../../src/domain/roles';
import { twoFactorKeyFrom } from './auth/two-factor-key';
import { DEFAULT_INCIDENT_SETTINGS, type IncidentSettings } from './live/incident-detector';
import { DEFAULT_LIVE_STREAMS_MAX, DEFAULT_LIVE_STREAMS_PER_SESSION, DEFAULT_LIVE_STREAMS_PER_USER } from './live/live-stream';
import { DEFAULT_RANKING_CACHE_MS } from './plugins/answer-cache';
import type { SmsSettings } from './providers/africastalking-sms';
import type { PaymentSettings } from './providers/payment-from-config';
import type { MomoSettings } from './providers/payment-momo';
import type { MomoDisbursementSettings } from './providers/refund-momo';

/** Configuration from the environment (DESIGN §2). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  adminUserName: string;
  adminPassword?: string;
  timeZone: string;
  /** SERVICE_CURRENCY: the ISO 4217 code the service sells in; a provider statement's line in another is never matched. */
  serviceCurrency: string;
  seedDemo: boolean;
  jwtSecret: string;
  /** SMS_PROVIDER and what it needs: the local provider's share of refusals, or Africa's Talking's account. */
  sms: SmsSettings;
  mailProvider: string;
  /** PAYMENT_PROVIDER and what it needs: the local provider's delay and share of refusals, or MoMo's account. */
  payment: PaymentSettings;
  /** REFUND_SELF_APPROVE_BELOW (UGX, 0: never) and REFUND_SMS_TEXT: a manager's own refund under it goes at once; the customer's SMS. */
  refunds: { selfApproveBelow: number; smsText: string };
  /** Minutes a payment may stay pending before the sweeper asks the provider and settles or fails it (DESIGN §6). */
  paymentTimeoutMinutes: number;
  /** How long a campaign ranking or results answer is served from memory; 0 turns that off (answer-cache.ts). */
  rankingCacheMs: number;
  /** Key of the HMAC every payment callback carries (X-Callback-Signature). */
  paymentCallbackSecret: string;
  /** How long the USSD menu keeps a code's catalogue, in ms (0: read it on every hop). */
  ussdMenuCacheMs: number;
  /** The token the USSD callback URL carries (?token=): Africa's Talking signs nothing. */
  ussdCallbackToken: string;
  /** USSD_ALLOWED_SOURCES: addresses or CIDR ranges the USSD callback may come from; unset allows any. */
  ussdAllowedSources?: string[];
  /** USSD_CONFIRMS_PER_MINUTE: confirmed payments one phone number may ask for in a minute. */
  ussdConfirmsPerMinute: number;
  /** LIVE_FEED: how GET /v1/live hears of changes: in this process, or through PostgreSQL from every instance. */
  liveFeed: 'process' | 'postgres';
  /** LIVE_FLUSH_MS: at most one write to each live client this often (changes in between go together). */
  liveFlushMs: number;
  /** LIVE_WRITES_PER_SECOND: writes a second to all live clients together; past it each client is written to less often. */
  liveWritesPerSecond: number;
  /** LIVE_STREAMS_PER_SESSION, LIVE_STREAMS_PER_USER, LIVE_STREAMS_MAX: live streams one session, one user, this process may hold open. */
  liveStreams: { perSession: number; perUser: number; max: number };
  /** INCIDENT_CHECK_SECONDS: how often the incident rules run (0: never). */
  incidentCheckSeconds: number;
  /** The incident rules' thresholds (INCIDENT_*). */
  incidents: IncidentSettings;
  /** With SMS_PROVIDER=africastalking: the token its delivery-report URL carries (?token=). */
  atCallbackToken?: string;
  /** METRICS_TOKEN (at least 16 characters): the Bearer token GET /metrics asks for; without one it answers this machine only. */
  metricsToken?: string;
  webRoot?: string;
  logLevel: string;
  /** Public origin of the site, used in links sent by mail. */
  publicUrl?: string;
  /** Without publicUrl, the Host names (`name` or `name:port`) a reset link may be built on. */
  allowedHosts: string[];
  /** 1/true to believe any proxy, or a list of proxy addresses/CIDRs; unset believes none. */
  trustProxy: boolean | string;
  /** TOTP_ENCRYPTION_KEY, or the key file made once in DATA_DIR: seals the two-factor secrets. */
  twoFactorKey: Buffer;
  /** REQUIRE_2FA_ROLES: roles that must enrol in two-factor sign-in before they reach more than its set-up. */
  requireTwoFactorRoles: Role[];
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = env.DATA_DIR ?? './data';
  const databaseUrl = env.DATABASE_URL || undefined;
  const seedDemo = (env.SEED_DEMO ?? (databaseUrl ? '0' : '1')) === '1';
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '127.0.0.1',
    dataDir,
    databaseUrl,
    adminUserName: env.ADMIN_USERNAME ?? 'admin',
    adminPassword: env.ADMIN_PASSWORD || undefined,
    timeZone: timeZone(env.TZ_NAME),
    serviceCurrency: serviceCurrency(env.SERVICE_CURRENCY),
    seedDemo,
    jwtSecret: env.JWT_SECRET ?? persistentSecret(dataDir, 'jwt-secret'),
    mailProvider: env.MAIL_PROVIDER ?? 'local',
    payment: paymentSettings(env),
    paymentTimeoutMinutes: positiveNumber(env.PAYMENT_TIMEOUT_MINUTES, 15),
    refunds: {
      selfApproveBelow: numberIn(env.REFUND_SELF_APPROVE_BELOW, 'REFUND_SELF_APPROVE_BELOW', 0, 100_000_000, 0),
      smsText: env.REFUND_SMS_TEXT || DEFAULT_REFUND_SMS_TEXT,
    },
    rankingCacheMs: rankingCacheMs(env),
    paymentCallbackSecret: env.PAYMENT_CALLBACK_SECRET || persistentSecret(dataDir, 'payment-callback-secret'),
    ussdMenuCacheMs: numberIn(env.USSD_MENU_CACHE_MS, 'USSD_MENU_CACHE_MS', 0, 3_600_000, 5000),
    ussdCallbackToken: callbackToken(env.USSD_CALLBACK_TOKEN, 'USSD_CALLBACK_TOKEN') ?? persistentSecret(dataDir, 'ussd-callback-token'),
    ussdAllowedSources: allowedSources(env.USSD_ALLOWED_SOURCES),
    ussdConfirmsPerMinute: numberIn(env.USSD_CONFIRMS_PER_MINUTE, 'USSD_CONFIRMS_PER_MINUTE', 1, 1000, 5),
    atCallbackToken: atCallbackToken(env),
    metricsToken: callbackToken(env.METRICS_TOKEN, 'METRICS_TOKEN'),
    liveFeed: liveFeed(env.LIVE_FEED, databaseUrl),
    liveFlushMs: numberIn(env.LIVE_FLUSH_MS, 'LIVE_FLUSH_MS', 50, 10_000, 250),
    liveWritesPerSecond: numberIn(env.LIVE_WRITES_PER_SECOND, 'LIVE_WRITES_PER_SECOND', 10, 1_000_000, 500),
    liveStreams: {
      perSession: numberIn(env.LIVE_STREAMS_PER_SESSION, 'LIVE_STREAMS_PER_SESSION', 1, 100_000, DEFAULT_LIVE_STREAMS_PER_SESSION),
      perUser: numberIn(env.LIVE_STREAMS_PER_USER, 'LIVE_STREAMS_PER_USER', 1, 100_000, DEFAULT_LIVE_STREAMS_PER_USER),
      max: numberIn(env.LIVE_STREAMS_MAX, 'LIVE_STREAMS_MAX', 1, 100_000, DEFAULT_LIVE_STREAMS_MAX),
    },
    incidentCheckSeconds: numberIn(env.INCIDENT_CHECK_SECONDS, 'INCIDENT_CHECK_SECONDS', 0, 3600, 30),
    incidents: incidentSettings(env),
    // npm scripts run from the project root, where the SPA is built to dist/web.
    webRoot: env.WEB_ROOT ?? path.resolve(process.cwd(), 'dist/web'),
    logLevel: env.LOG_LEVEL ?? 'info',
    publicUrl: publicUrl(env.PUBLIC_URL),
    allowedHosts: allowedHosts(env),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    twoFactorKey: twoFactorKeyFrom(env.TOTP_ENCRYPTION_KEY || undefined, dataDir),
    requireTwoFactorRoles: requiredTwoFactorRoles(env.REQUIRE_2FA_ROLES, seedDemo),
    // After atCallbackToken: a half-configured Africa's Talking hears of its delivery-report token first.
    sms: smsSettings(env),
  };
}

/**
 * REQUIRE_2FA_ROLES, a comma-separated list of roles; set empty, nothing is required. Unset, admins
 * and super-users must enrol, except in the demo (SEED_DEMO, the default without DATABASE_URL),
 * whose accounts sign in with their password alone so that `npm start` leads straight in.
 */
function requiredTwoFactorRoles(value: string | undefined, seedDemo: boolean): Role[] {
  const listed = (value ?? (seedDemo ? '' : 'admin,super-user'))
    .split(',')
    .map((role) => role.trim())
    .filter(Boolean);
  const unknown = listed.filter((role) => !(ROLES as readonly string[]).includes(role));
  if (unknown.length) throw new Error(`REQUIRE_2FA_ROLES names no role: ${unknown.join(', ')} (roles: ${ROLES.join(', ')})`);
  return listed as Role[];
}

/** TZ_NAME, refused at start when it names no zone: days would silently fall back otherwise. */
function timeZone(value: string | undefined): string {
  if (!value) return DEFAULT_SERVICE_TIME_ZONE;
  if (!isTimeZone(value)) throw new Error(`TZ_NAME ${value} is not a time zone name (for example Africa/Kampala)`);
  return value;
}

/** SERVICE_CURRENCY, refused at start unless it is a three-letter code: every statement line would be a mismatch otherwise. */
function serviceCurrency(value: string | undefined): string {
  if (!value) return DEFAULT_SERVICE_CURRENCY;
  if (!/^[A-Za-z]{3}$/.test(value)) throw new Error(`SERVICE_CURRENCY ${value} is not a three-letter ISO 4217 code (for example UGX)`);
  return value.toUpperCase();
}

function positiveNumber(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value && Number.isFinite(n) && n > 0 ? n : fallback;
}

export const PAYMENT_PROVIDERS = ['local', 'external', 'momo'] as const;
export type PaymentProviderName = (typeof PAYMENT_PROVIDERS)[number];

function paymentProviderName(value: string | undefined): PaymentProviderName {
  const name = (value || 'local').toLowerCase();
  if (!(PAYMENT_PROVIDERS as readonly string[]).includes(name)) throw new Error(`Unknown PAYMENT_PROVIDER "${value}" (use ${PAYMENT_PROVIDERS.join(', ')})`);
  return name as PaymentProviderName;
}

/** PAYMENT_PROVIDER with what it needs; the local provider's PAYMENT_LOCAL_* are checked whichever is chosen. */
function paymentSettings(env: NodeJS.ProcessEnv): PaymentSettings {
  const kind = paymentProviderName(env.PAYMENT_PROVIDER);
  // The local provider approves after this long and refuses this share of payments (0 to 1).
  const delayMs = numberIn(env.PAYMENT_LOCAL_DELAY_MS, 'PAYMENT_LOCAL_DELAY_MS', 0, 3_600_000, 3000);
  const failRate = numberIn(env.PAYMENT_LOCAL_FAIL_RATE, 'PAYMENT_LOCAL_FAIL_RATE', 0, 1, 0.15);
  const refundFailRate = numberIn(env.PAYMENT_LOCAL_REFUND_FAIL_RATE, 'PAYMENT_LOCAL_REFUND_FAIL_RATE', 0, 1, 0.1);
  if (kind === 'local') return { kind, delayMs, failRate, refundFailRate };
  if (kind === 'momo') return { kind, ...momoSettings(env) };
  return { kind };
}

/** PAYMENT_PROVIDER=momo reads MOMO_* (README); missing credentials stop the start. */
function momoSettings(env: NodeJS.ProcessEnv): MomoSettings & { disbursement?: MomoDisbursementSettings } {
  const missing = ['MOMO_SUBSCRIPTION_KEY', 'MOMO_API_USER', 'MOMO_API_KEY'].filter((name) => !env[name]);
  if (missing.length > 0) throw new Error(`PAYMENT_PROVIDER=momo needs ${missing.join(', ')}`);
  const targetEnvironment = env.MOMO_TARGET_ENVIRONMENT || 'sandbox';
  const baseUrl = env.MOMO_BASE_URL || 'https://sandbox.momodeveloper.mtn.com';
  const currency = env.MOMO_CURRENCY || (targetEnvironment === 'sandbox' ? 'EUR' : 'UGX');
  return {
    disbursement: momoDisbursementSettings(env, { baseUrl, targetEnvironment, currency }),
    baseUrl,
    subscriptionKey: env.MOMO_SUBSCRIPTION_KEY!,
    apiUser: env.MOMO_API_USER!,
    apiKey: env.MOMO_API_KEY!,
    targetEnvironment,
    currency,
    callbackUrl: env.MOMO_CALLBACK_URL || undefined,
  };
}

/**
 * Refunds through MoMo's Disbursement product (MOMO_DISBURSEMENT_*): its own subscription key and
 * API user; unset, a refund fails with its reason (no money moves). Half set stops the start.
 */
function momoDisbursementSettings(env: NodeJS.ProcessEnv, shared: { baseUrl: string; targetEnvironment: string; currency: string }): MomoDisbursementSettings | undefined {
  const names = ['MOMO_DISBURSEMENT_SUBSCRIPTION_KEY', 'MOMO_DISBURSEMENT_API_USER', 'MOMO_DISBURSEMENT_API_KEY'];
  const missing = names.filter((name) => !env[name]);
  if (missing.length === names.length) return undefined;
  if (missing.length > 0) throw new Error(`MoMo refunds need ${missing.join(', ')} as well`);
  return {
    ...shared,
    subscriptionKey: env.MOMO_DISBURSEMENT_SUBSCRIPTION_KEY!,
    apiUser: env.MOMO_DISBURSEMENT_API_USER!,
    apiKey: env.MOMO_DISBURSEMENT_API_KEY!,
    callbackUrl: env.MOMO_DISBURSEMENT_CALLBACK_URL || undefined,
  };
}

/**
 * SMS_PROVIDER=local (the default; SMS_LOCAL_FAIL_RATE refuses a share of messages), or
 * africastalking with AT_USERNAME, AT_API_KEY (and AT_SENDER_ID): the real gateway.
 */
export function smsSettings(env: NodeJS.ProcessEnv): SmsSettings {
  const choice = (env.SMS_PROVIDER ?? 'local').toLowerCase();
  if (choice === 'local') return { kind: 'local', failRate: numberIn(env.SMS_LOCAL_FAIL_RATE, 'SMS_LOCAL_FAIL_RATE', 0, 1, 0) };
  if (choice !== 'africastalking') throw new Error(`Unknown SMS_PROVIDER "${env.SMS_PROVIDER}" (use local or africastalking)`);
  if (!env.AT_USERNAME || !env.AT_API_KEY) throw new Error('SMS_PROVIDER=africastalking needs AT_USERNAME and AT_API_KEY');
  return { kind: 'africastalking', username: env.AT_USERNAME, apiKey: env.AT_API_KEY, senderId: env.AT_SENDER_ID || undefined };
}

/** LIVE_FEED: `postgres` (LISTEN/NOTIFY, for several API processes on one database) is the default with DATABASE_URL. */
function liveFeed(value: string | undefined, databaseUrl: string | undefined): 'process' | 'postgres' {
  const feed = (value || (databaseUrl ? 'postgres' : 'process')).toLowerCase();
  if (feed !== 'process' && feed !== 'postgres') throw new Error(`Unknown LIVE_FEED "${value}" (use process or postgres)`);
  if (feed === 'postgres' && !databaseUrl) throw new Error('LIVE_FEED=postgres needs DATABASE_URL');
  return feed;
}

/** The incident rules' thresholds (README 'Incidents'). */
function incidentSettings(env: NodeJS.ProcessEnv): IncidentSettings {
  const d = DEFAULT_INCIDENT_SETTINGS;
  const mail = env.INCIDENT_MAIL ?? '1';
  if (mail !== '0' && mail !== '1') throw new Error('INCIDENT_MAIL must be 0 or 1');
  return {
    windowMinutes: numberIn(env.INCIDENT_WINDOW_MINUTES, 'INCIDENT_WINDOW_MINUTES', 1, 1440, d.windowMinutes),
    failureMinCalls: numberIn(env.INCIDENT_FAILURE_MIN_CALLS, 'INCIDENT_FAILURE_MIN_CALLS', 1, 1_000_000, d.failureMinCalls),
    failureFactor: numberIn(env.INCIDENT_FAILURE_FACTOR, 'INCIDENT_FAILURE_FACTOR', 1, 100, d.failureFactor),
    failureMargin: numberIn(env.INCIDENT_FAILURE_MARGIN, 'INCIDENT_FAILURE_MARGIN', 0, 1, d.failureMargin),
    silenceMinutes: numberIn(env.INCIDENT_SILENCE_MINUTES, 'INCIDENT_SILENCE_MINUTES', 1, 1440, d.silenceMinutes),
    silenceMinPayments: numberIn(env.INCIDENT_SILENCE_MIN_PAYMENTS, 'INCIDENT_SILENCE_MIN_PAYMENTS', 1, 1_000_000, d.silenceMinPayments),
    smsFailureShare: numberIn(env.INCIDENT_SMS_FAILURE_SHARE, 'INCIDENT_SMS_FAILURE_SHARE', 0, 1, d.smsFailureShare),
    smsMinMessages: numberIn(env.INCIDENT_SMS_MIN_MESSAGES, 'INCIDENT_SMS_MIN_MESSAGES', 1, 1_000_000, d.smsMinMessages),
    mail: mail === '1',
  };
}

/** RANKING_CACHE_MS: up to a minute, as a ranking older than that would no longer pass for current. */
export const rankingCacheMs = (env: NodeJS.ProcessEnv) => numberIn(env.RANKING_CACHE_MS, 'RANKING_CACHE_MS', 0, 60_000, DEFAULT_RANKING_CACHE_MS);

/** A number within bounds, refused at start otherwise: a typo must not silently mean the default. */
export function numberIn(value: string | undefined, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) throw new Error(`${name} must be a number from ${min} to ${max}`);
  return n;
}

/** Africa's Talking signs nothing, so its delivery-report URL carries a token we check (README). */
function atCallbackToken(env: NodeJS.ProcessEnv): string | undefined {
  if ((env.SMS_PROVIDER ?? 'local').toLowerCase() !== 'africastalking') return undefined;
  const token = env.AT_CALLBACK_TOKEN ?? '';
  if (token.length < 16) throw new Error('SMS_PROVIDER=africastalking needs AT_CALLBACK_TOKEN (at least 16 characters) for its delivery-report URL');
  return token;
}

/** A token set by hand must be long enough not to be guessed. */
function callbackToken(value: string | undefined, name: string): string | undefined {
  if (!value) return undefined;
  if (value.length < 16) throw new Error(`${name} must be at least 16 characters`);
  return value;
}

/** USSD_ALLOWED_SOURCES: a comma-separated list of addresses and CIDR ranges, refused at start when one is not. */
export function allowedSources(value: string | undefined): string[] | undefined {
  const sources = value?.split(',').map((source) => source.trim()).filter(Boolean);
  if (!sources?.length) return undefined;
  sourceList(sources);
  return sources;
}

/** The allow-list as node's BlockList (IPv4 and IPv6 addresses and ranges). */
export function sourceList(sources: string[]): net.BlockList {
  const list = new net.BlockList();
  for (const source of sources) {
    const [address, prefix] = source.split('/');
    const type = net.isIPv6(address) ? 'ipv6' : 'ipv4';
    if (!net.isIP(address) || (prefix !== undefined && !(/^\d{1,3}$/.test(prefix) && Number(prefix) <= (type === 'ipv6' ? 128 : 32)))) {
      throw new Error(`USSD_ALLOWED_SOURCES: ${source} is not an address or a CIDR range`);
    }
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

/** PUBLIC_URL, refused at start unless it is an http(s) origin: every reset link is built on it. */
function publicUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || !['http:', 'https:'].includes(url.protocol)) throw new Error('PUBLIC_URL must be an http(s) address such as https://desk.example.com');
  return url.origin;
}

/** ALLOWED_HOSTS (comma-separated), by default the bind address, localhost and 127.0.0.1 on the port. */
export function allowedHosts(env: NodeJS.ProcessEnv): string[] {
  const listed = env.ALLOWED_HOSTS?.split(',').map((host) => host.trim().toLowerCase()).filter(Boolean);
  if (listed?.length) return listed;
  const port = env.PORT ?? '3000';
  return [...new Set([env.HOST ?? '127.0.0.1', 'localhost', '127.0.0.1'].map((host) => `${host.includes(':') ? `[${host}]` : host}:${port}`))];
}

function parseTrustProxy(value: string | undefined): boolean | string {
  if (!value || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  return value;
}

/** A random key kept in DATA_DIR so it survives a restart (sessions, the payment callback's HMAC). */
function persistentSecret(dataDir: string, name: string): string {
  const file = path.join(dataDir, name);
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    const secret = crypto.randomBytes(48).toString('base64url');
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}
