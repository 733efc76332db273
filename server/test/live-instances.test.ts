import { sql } from 'drizzle-orm';
import { Client } from 'pg';
import { buildApp } from '../src/app';
import { openDatabase, type Database } from '../src/db/client';
import { LIVE_CHANNEL } from '../src/live/change-feed';
import { buildTestWorld, eventually, type TestWorld } from './helpers';
import { follow, listening, type Follower } from './live-fixtures';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

/**
 * Several API processes on one PostgreSQL. A change committed through one instance reaches
 * the live clients of another (LISTEN/NOTIFY), a burst is a few notifications, and an instance that
 * loses its LISTEN connection listens again and tells its clients to read again. Needs a PostgreSQL
 * server (TEST_DATABASE_URL); skipped on the embedded database, which is one process by nature.
 */

const onPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

jest.setTimeout(60_000);

onPostgres('two API instances on one PostgreSQL database', () => {
  let first: TestWorld;
  let second: { app: Awaited<ReturnType<typeof buildApp>>; database: Database };
  let admin: Record<string, string>;
  let code: string;
  const followers: Follower[] = [];

  beforeAll(async () => {
    first = await buildTestWorld({ live: { batchMs: 50, flushMs: 20 } });
    const databaseUrl = first.databaseUrl!;
    // Another process in all but name: its own pool, feed and LISTEN connection, the same database and keys.
    const database = await openDatabase({ databaseUrl });
    const app = await buildApp({ db: database.db, jwtSecret: first.jwtSecret, live: { feed: { kind: 'postgres', databaseUrl }, batchMs: 50, flushMs: 20 } });
    await app.ready();
    second = { app, database };
    admin = (await first.headersFor('admin')).headers;
    code = (await createCatalogue(first, null)).code.name;
  });
  afterEach(async () => {
    await Promise.all(followers.splice(0).map((follower) => follower.close()));
  });
  afterAll(async () => {
    await second?.app.close();
    await second?.database.close();
    await first?.close();
  });

  const followOn = async (app: TestWorld['app']) => {
    const follower = await follow(await listening(app), admin);
    followers.push(follower);
    await eventually(() => follower.comments.includes('connected'));
    return follower;
  };

  it("passes a change committed through one instance to the other's clients, both ways", async () => {
    const [onFirst, onSecond] = [await followOn(first.app), await followOn(second.app)];
    const [a, b] = await insertTransactions(first, code, [{ isDeleted: true }, { isDeleted: true }]);
    const resolve = (app: TestWorld['app'], id: string) =>
      app.inject({ method: 'POST', url: `/v1/transactions/to/give/attention/${id}`, headers: admin, payload: { isResolved: true, reason: 'duplicate' } });
    expect((await resolve(first.app, a.id)).statusCode).toBe(200);
    expect((await resolve(second.app, b.id)).statusCode).toBe(200);
    for (const follower of [onFirst, onSecond]) {
      await follower.waitFor((event) => event.data._id === a.id && event.data.isResolved === true);
      await follower.waitFor((event) => event.data._id === b.id && event.data.isResolved === true);
    }
  });

  it('sends a burst of changes as a few notifications', async () => {
    const onSecond = await followOn(second.app);
    const rows = await insertTransactions(first, code, Array.from({ length: 500 }, () => ({ isComplete: true })));
    const listener = new Client({ connectionString: first.databaseUrl });
    await listener.connect();
    const notifications: string[] = [];
    listener.on('notification', (message) => notifications.push(message.payload ?? ''));
    await listener.query(`listen ${LIVE_CHANNEL}`);
    try {
      for (const row of rows) first.app.live.feed.callsChanged(row.id);
      await eventually(() => rows.every((row) => onSecond.events.some((event) => event.data._id === row.id)));
      // 180 ids a notification: three for 500.
      expect(notifications).toHaveLength(3);
    } finally {
      await listener.end();
    }
  });

  it('listens again after losing its connection, tells its clients to read again, and hears changes after', async () => {
    const onSecond = await followOn(second.app);
    const name = (await first.db.execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] };
    const terminated = new Client({ connectionString: first.databaseUrl });
    await terminated.connect();
    try {
      const killed = await terminated.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and query = $2 and pid <> pg_backend_pid()`,
        [name.rows[0].name, `listen ${LIVE_CHANNEL}`],
      );
      // Both instances' LISTEN connections.
      expect(killed.rowCount).toBe(2);
    } finally {
      await terminated.end();
    }
    await onSecond.waitFor((event) => event.event === 'resync');
    const [later] = await insertTransactions(first, code, [{ isDeleted: true }]);
    // Changes keep coming after it listens again (retried every half second at first).
    await eventually(async () => {
      first.app.live.feed.callsChanged(later.id);
      await new Promise((resolve) => setTimeout(resolve, 200));
      return onSecond.events.some((event) => event.data._id === later.id);
    });
  });
});
