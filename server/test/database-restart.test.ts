import { eq } from 'drizzle-orm';
import { Client } from 'pg';
import { contents, transactions } from '../src/db/schema';
import type { FeedDelivery } from '../src/live/change-feed';
import type { OutgoingSms, SmsProvider } from '../src/providers/sms';
import { buildTestWorld, eventually, type TestWorld } from './helpers';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

jest.setTimeout(60_000);

/** The SMS gateway, counting what it is asked to send. */
const sent: OutgoingSms[] = [];
const countingSms: SmsProvider = {
  name: 'counting',
  async send(sms) {
    sent.push(sms);
    return { status: 'sent', providerRef: `ATXid_${sent.length}` };
  },
};

/**
 * PostgreSQL going away under the API (README: Operations): its connections cut and new ones refused,
 * as a restart does to this database alone (a real restart would cut every test file's database at
 * once). PostgreSQL path only: PGlite lives inside the process.
 */
(process.env.TEST_DATABASE_URL ? describe : describe.skip)('the API while PostgreSQL is away and after it returns', () => {
  let world: TestWorld;
  let name: string;
  let code: string;
  const heard: FeedDelivery[] = [];
  const asAdmin = async (statement: string) => {
    const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  const away = async () => {
    await asAdmin(`alter database ${name} allow_connections false`);
    await asAdmin(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}'`);
  };
  const back = () => asAdmin(`alter database ${name} allow_connections true`);

  beforeAll(async () => {
    world = await buildTestWorld({ providers: { sms: countingSms } });
    name = new URL(world.databaseUrl!).pathname.slice(1);
    const catalogue = await createCatalogue(world, null);
    code = catalogue.code.name;
    await world.db.insert(contents).values({ categoryId: catalogue.category.id, categoryLevel: 'vip', message: 'VIP ticket 7710', active: true });
    await insertTransactions(world, code, [{ paymentRef: 'ref-while-away', phoneNumber: '256770000901', categoryId: catalogue.category.id, categoryLevel: 'vip', amount: 20000 }]);
    world.app.live.feed.subscribe((delivery) => heard.push(delivery));
  });
  afterAll(async () => {
    await back().catch(() => {});
    await world.close();
  });

  it('answers 503 while it is away, so a provider retries; answers again soon after it returns; settles the retried sale once with one SMS; and tells live clients to read again', async () => {
    await away();
    const whileAway = await world.pay('ref-while-away', 'SUCCESSFUL');
    expect(whileAway.statusCode).toBe(503);
    expect(whileAway.headers['retry-after']).toBe('5');
    expect(whileAway.json()).toEqual({ status: false, message: 'The service is briefly unavailable; try again in a few seconds', errors: [], requestId: whileAway.headers['x-request-id'] });
    expect((await world.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
    expect((await world.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(503);
    // The scrape still answers, and says the database is away.
    const scrapeAway = await world.app.inject({ method: 'GET', url: '/metrics' });
    expect(scrapeAway.statusCode).toBe(200);
    expect(scrapeAway.body).toMatch(/^dialdesk_database_up 0$/m);

    const returned = Date.now();
    await back();
    await eventually(async () => (await world.app.inject({ method: 'GET', url: '/readyz' })).statusCode === 200);
    expect(Date.now() - returned).toBeLessThan(10_000);

    // The provider's retry settles the sale, once, with its one ticket SMS.
    expect((await world.pay('ref-while-away', 'SUCCESSFUL')).statusCode).toBe(200);
    expect((await world.pay('ref-while-away', 'SUCCESSFUL')).statusCode).toBe(200);
    const [call] = await world.db.select().from(transactions).where(eq(transactions.paymentRef, 'ref-while-away'));
    expect(call.isComplete).toBe(true);
    await eventually(() => sent.filter((sms) => sms.phoneNumber === '256770000901').length === 1);

    // The LISTEN connection was cut too: what was committed meanwhile is unknown, so clients read again.
    await eventually(() => heard.some((delivery) => delivery.kind === 'gap'));
  });

  it('answers again at once when every API connection is cut but PostgreSQL stays up', async () => {
    await asAdmin(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}'`);
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push((await world.app.inject({ method: 'GET', url: '/readyz' })).statusCode);
    // At most the first meets a connection the pool has not yet heard is gone, and hears 503, never 500.
    expect(answers.every((status) => status === 200 || status === 503)).toBe(true);
    expect(answers[answers.length - 1]).toBe(200);
  });
});
