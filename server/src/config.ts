import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_SERVICE_TIME_ZONE, isTimeZone } from '../../src/domain/format';

/** Configuration from the environment (DESIGN §2). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  adminUserName: string;
  adminPassword?: string;
  timeZone: string;
  seedDemo: boolean;
  jwtSecret: string;
  smsProvider: string;
  mailProvider: string;
  paymentProvider: string;
  /** Minutes a payment may stay pending before the sweeper fails it (DESIGN §6). */
  paymentTimeoutMinutes: number;
  webRoot?: string;
  logLevel: string;
  /** Public origin of the site, used in links sent by mail. */
  publicUrl?: string;
  /** 1/true to believe any proxy, or a list of proxy addresses/CIDRs; unset believes none. */
  trustProxy: boolean | string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = env.DATA_DIR ?? './data';
  const databaseUrl = env.DATABASE_URL || undefined;
  return {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '127.0.0.1',
    dataDir,
    databaseUrl,
    adminUserName: env.ADMIN_USERNAME ?? 'admin',
    adminPassword: env.ADMIN_PASSWORD || undefined,
    timeZone: timeZone(env.TZ_NAME),
    seedDemo: (env.SEED_DEMO ?? (databaseUrl ? '0' : '1')) === '1',
    jwtSecret: env.JWT_SECRET ?? persistentSecret(dataDir),
    smsProvider: env.SMS_PROVIDER ?? 'local',
    mailProvider: env.MAIL_PROVIDER ?? 'local',
    paymentProvider: env.PAYMENT_PROVIDER ?? 'local',
    paymentTimeoutMinutes: positiveNumber(env.PAYMENT_TIMEOUT_MINUTES, 15),
    // npm scripts run from the project root, where the SPA is built to dist/web.
    webRoot: env.WEB_ROOT ?? path.resolve(process.cwd(), 'dist/web'),
    logLevel: env.LOG_LEVEL ?? 'info',
    publicUrl: env.PUBLIC_URL || undefined,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
  };
}

/** TZ_NAME, refused at start when it names no zone: days would silently fall back otherwise. */
function timeZone(value: string | undefined): string {
  if (!value) return DEFAULT_SERVICE_TIME_ZONE;
  if (!isTimeZone(value)) throw new Error(`TZ_NAME ${value} is not a time zone name (for example Africa/Kampala)`);
  return value;
}

function positiveNumber(value: string | undefined, fallback: number): number {
  const n = Number(value);
  return value && Number.isFinite(n) && n > 0 ? n : fallback;
}

function parseTrustProxy(value: string | undefined): boolean | string {
  if (!value || value === '0' || value === 'false') return false;
  if (value === '1' || value === 'true') return true;
  return value;
}

/** A random signing key kept in DATA_DIR so sessions survive a restart. */
function persistentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    const secret = crypto.randomBytes(48).toString('base64url');
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}
