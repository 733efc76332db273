import crypto from 'node:crypto';
import { Client } from 'pg';
import { buildApp, type AppDeps } from '../src/app';
import { signedCallback } from '../src/callback-signature';
import { hashPassword } from '../src/auth/passwords';
import { openDatabase, type Database } from '../src/db/client';
import { users } from '../src/db/schema';
import type { Role } from '../../src/domain/roles';

export const TEST_PASSWORD = 'password-123';
/** The payment callback secret of every test world. */
export const TEST_CALLBACK_SECRET = 'test-callback-secret-0123456789';

export type TestWorld = Awaited<ReturnType<typeof buildTestWorld>>;
type TestWorldOptions = Pick<
  AppDeps,
  'timeZone' | 'webRoot' | 'providers' | 'deliveryReportToken' | 'onRoute' | 'answerCache' | 'ussdMenuCacheMs' | 'allowedHosts' | 'publicUrl' | 'sessionCheckMs' | 'trustProxy'
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
  const { database, drop } = await openTestDatabase();
  const jwtSecret = 'test-secret-' + crypto.randomUUID();
  const build = async (more: TestWorldOptions) => {
    const built = await buildApp({ db: database.db, jwtSecret, callbackSecret: TEST_CALLBACK_SECRET, ...more });
    await built.ready();
    return built;
  };
  const app = await build(options);
  const others: Awaited<ReturnType<typeof build>>[] = [];
  let counter = 0;

  const world = {
    app,
    db: database.db,
    /** Another API process on the same database and secrets, with a session cache of its own. */
    async anotherProcess(more: TestWorldOptions = {}) {
      const other = await build({ ...options, ...more });
      others.push(other);
      return other;
    },
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

async function openTestDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return { database: await openDatabase({ dataDir: 'memory' }), drop: async () => {} };
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
    drop: async () => {
      const c = new Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
