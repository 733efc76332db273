import crypto from 'node:crypto';
import { Client } from 'pg';
import { buildApp, type AppDeps } from '../src/app';
import { signedCallback } from '../src/ingestion/callback-signature';
import { hashPassword } from '../src/auth/passwords';
import { openDatabase, type Database } from '../src/db/client';
import { users } from '../src/db/schema';
import { openMemoryDatabase } from './memory-database';
import type { Role } from '../../src/domain/roles';

export const TEST_PASSWORD = 'password-123';
/** The payment callback secret of every test world. */
export const TEST_CALLBACK_SECRET = 'test-callback-secret-0123456789';
/** The USSD callback token of every test world, and the callback URL that carries it. */
export const TEST_USSD_TOKEN = 'test-ussd-token-0123456789';
export const USSD_CALLBACK_URL = `/v1/ussd/callback?token=${TEST_USSD_TOKEN}`;

export type TestWorld = Awaited<ReturnType<typeof buildTestWorld>>;
export type TestWorldOptions = Pick<
  AppDeps,
  'timeZone' | 'serviceCurrency' | 'webRoot' | 'providers' | 'refunds' | 'twoFactorKey' | 'requireTwoFactorRoles' | 'deliveryReportToken' | 'onRoute' | 'answerCache' | 'ussdMenuCacheMs' | 'ussd' | 'allowedHosts' | 'publicUrl' | 'sessionCheckMs' | 'now' | 'trustProxy' | 'live' | 'incidents' | 'metricsToken'
>;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the check holds (a loaded machine runs timers late), for at most 5 s. */
export async function eventually(check: () => Promise<boolean> | boolean) {
  for (const deadline = Date.now() + 5_000; !(await check()); await sleep(25)) if (Date.now() > deadline) throw new Error('timed out waiting');
}

/**
 * A world of its own for one test file: an in-memory PGlite (or, with TEST_DATABASE_URL,
 * a fresh database on that PostgreSQL server), migrated, and the app built in-process.
 */
export async function buildTestWorld(options: TestWorldOptions = {}) {
  const { database, drop, url } = await openTestDatabase();
  // On PostgreSQL the live stream hears changes through LISTEN/NOTIFY, as several API processes do.
  const liveOn = (more: TestWorldOptions) => ({ ...(url ? { feed: { kind: 'postgres' as const, databaseUrl: url } } : {}), ...more.live });
  const jwtSecret = 'test-secret-' + crypto.randomUUID();
  const appOn = async (db: Database['db'], more: TestWorldOptions) => {
    const built = await buildApp({ db, jwtSecret, callbackSecret: TEST_CALLBACK_SECRET, ...more, live: liveOn(more), ussd: { callbackToken: TEST_USSD_TOKEN, ...more.ussd } });
    await built.ready();
    return built;
  };
  const build = (more: TestWorldOptions) => appOn(database.db, more);
  const app = await build(options);
  const others: Awaited<ReturnType<typeof build>>[] = [];
  let counter = 0;

  const world = {
    app,
    db: database.db,
    /** The PostgreSQL database of this world (TEST_DATABASE_URL), undefined on PGlite. */
    databaseUrl: url,
    /** Another API process on the same database and secrets, with a session cache of its own. */
    async anotherProcess(more: TestWorldOptions = {}) {
      const other = await build({ ...options, ...more });
      others.push(other);
      return other;
    },
    /**
     * Another API instance on the same PostgreSQL database, with the same secrets and a pool of its
     * own, as a second process behind a load balancer would be; undefined on PGlite, which one
     * process holds.
     */
    async secondInstance(more: TestWorldOptions = options, through?: string) {
      if (!url) return undefined;
      const other = await openDatabase({ databaseUrl: through ?? url });
      const otherApp = await appOn(other.db, more);
      return {
        app: otherApp,
        db: other.db,
        close: async () => {
          await otherApp.close();
          await other.close();
        },
      };
    },
    /** The access tokens' key, for another app on the same database to accept this world's sessions. */
    jwtSecret,
    async close() {
      for (const other of others) await other.close();
      await app.close();
      await database.close();
      await drop();
    },
    /** A provider's callback as it arrives: the body signed with the world's secret. */
    callback(url: string, body: Record<string, unknown>, format: 'json' | 'form' = 'json') {
      return app.inject({ method: 'POST', url, ...signedCallback(body, TEST_CALLBACK_SECRET, format) });
    },
    /** One USSD hop as the mobile network sends it (Africa's Talking's form). */
    hop(fields: Record<string, string | number | null | undefined>, url = USSD_CALLBACK_URL) {
      const form = new URLSearchParams(Object.entries({ networkCode: '64110', ...fields }).filter(([, value]) => value !== undefined).map(([key, value]) => [key, String(value)]));
      return app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form.toString() });
    },
    /** The payment provider's signed callback. */
    pay(reference: string, status: string) {
      return world.callback('/v1/payments/callback', { reference, status });
    },
    /** Adds a user straight to the database with TEST_PASSWORD. */
    async createUser(role: Role = 'agent', extra: Partial<typeof users.$inferInsert> = {}) {
      counter += 1;
      const [row] = await database.db
        .insert(users)
        .values({ userName: `${role}-${counter}-${crypto.randomUUID().slice(0, 6)}`, role, passwordHash: await hashPassword(TEST_PASSWORD), ...extra })
        .returning();
      return row;
    },
    async login(userName: string, password = TEST_PASSWORD) {
      const response = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { userName, password } });
      const body = response.json();
      if (response.statusCode !== 200) throw new Error(`login failed: ${response.body}`);
      return body.results as { accessToken: string; refreshToken: string; user: { id: string; role: Role } };
    },
    /** Creates a user of the role and answers its Authorization header. */
    async headersFor(role: Role, extra: Partial<typeof users.$inferInsert> = {}) {
      const user = await world.createUser(role, extra);
      const { accessToken } = await world.login(user.userName);
      return { user, headers: { authorization: `Bearer ${accessToken}` } };
    },
  };
  return world;
}

async function openTestDatabase(): Promise<{ database: Database; drop: () => Promise<void>; url?: string }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return { database: await openMemoryDatabase(), drop: async () => {} };
  const name = `dialdesk_test_${crypto.randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  return {
    database,
    url: url.toString(),
    drop: async () => {
      const c = new Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
