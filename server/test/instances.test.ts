import { inArray, sql } from 'drizzle-orm';
import { contents, transactionEvents, transactions } from '../src/db/schema';
import type { PaymentProvider, PaymentStatus } from '../src/providers/payment';
import { rowsOf } from './campaign-fixtures';
import { buildTestWorld, TEST_CALLBACK_SECRET, type TestWorld } from './helpers';
import { signedCallback } from '../src/ingestion/callback-signature';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

jest.setTimeout(60_000);

/** A provider that answers every status question SUCCESSFUL and remembers who asked what. */
function answering(name: string, asked: string[]): PaymentProvider {
  return {
    name: 'stub',
    collect: async ({ reference }) => ({ accepted: true, providerRef: reference }),
    async status(reference) {
      asked.push(`${name}:${reference}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      return 'SUCCESSFUL' as PaymentStatus;
    },
  };
}

/** PGlite is held by one process; several share only a PostgreSQL server (TEST_DATABASE_URL), so these run only there. */
const onPostgres = process.env.TEST_DATABASE_URL ? describe : describe.skip;

/** Two API processes on one PostgreSQL database (DESIGN §1): what one does, the other never doubles. */
onPostgres('two API instances on one PostgreSQL database', () => {
  const askedA: string[] = [];
  const askedB: string[] = [];
  let world: TestWorld;
  let other: NonNullable<Awaited<ReturnType<TestWorld['secondInstance']>>>;
  let code: string;
  let categoryId: string;
  beforeAll(async () => {
    world = await buildTestWorld({ providers: { payment: answering('A', askedA) } });
    other = (await world.secondInstance({ providers: { payment: answering('B', askedB) } }))!;
    const catalogue = await createCatalogue(world, null, { ordinary: 1000, vip: 5000 });
    code = catalogue.code.name;
    categoryId = catalogue.category.id;
    await world.db.insert(contents).values({ categoryId: catalogue.category.id, categoryLevel: 'ordinary', message: 'Ticket 12', active: true });
  });
  afterAll(async () => {
    await other?.close();
    await world?.close();
  });

  it('runs each instance on connections of its own to the same database', async () => {
    const backend = async (db: TestWorld['db']) =>
      ((await db.execute(sql`select current_database() as database, pg_backend_pid() as pid`)) as unknown as { rows: { database: string; pid: number }[] }).rows[0];
    const [mine, theirs] = [await backend(world.db), await backend(other.db)];
    expect(theirs.database).toBe(mine.database);
    expect(theirs.pid).not.toBe(mine.pid);
  });

  it('answers the hops of one session on either instance, and settles a callback sent to both at once exactly once', async () => {
    const apps = [world.app, other.app];
    const form = (text: string) => new URLSearchParams({ sessionId: 'twin-1', serviceCode: code, phoneNumber: '256772300001', networkCode: '64110', text }).toString();
    const headers = { 'content-type': 'application/x-www-form-urlencoded' };
    const url = '/v1/ussd/callback?token=test-ussd-token-0123456789';
    expect((await world.app.inject({ method: 'POST', url, headers, payload: form('') })).body).toMatch(/^CON /);
    expect((await other.app.inject({ method: 'POST', url, headers, payload: form('1') })).body).toMatch(/^CON Pay UGX 1,000/);
    const confirms = await Promise.all(apps.map((app) => app.inject({ method: 'POST', url, headers, payload: form('1*1') })));
    expect(confirms.map((answer) => answer.body.startsWith('END Approve the payment'))).toEqual([true, true]);
    const [call] = await rowsOf(world, sql`select id, payment_ref from transactions where session_id = 'twin-1'`);

    const callback = signedCallback({ reference: String(call.payment_ref), status: 'SUCCESSFUL' }, TEST_CALLBACK_SECRET);
    const answers = await Promise.all([...apps, ...apps, ...apps].map((app) => app.inject({ method: 'POST', url: '/v1/payments/callback', ...callback })));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answers.filter((answer) => answer.json().message === 'Payment recorded')).toHaveLength(1);
    const kinds = await world.db.select({ kind: transactionEvents.kind }).from(transactionEvents).where(inArray(transactionEvents.transactionId, [String(call.id)]));
    const count = (kind: string) => kinds.filter((event) => event.kind === kind).length;
    expect([count('payment_requested'), count('payment_settled'), count('sms_sent'), count('payment_callback')]).toEqual([1, 1, 1, 1]);
    expect(count('ussd_hop')).toBe(3);
  });

  it('sweeps on both instances at once: each stale payment asked about once, settled once, one ticket SMS each', async () => {
    const stale = await insertTransactions(
      world,
      code,
      Array.from({ length: 40 }, (_, i) => ({ paymentRef: `twin-sweep-${i}`, categoryId, categoryLevel: 'ordinary', amount: 1000, createdAt: new Date(Date.now() - (30 + i) * 60_000) })),
    );
    const sweepers = [world.app, other.app].map((app) => app.ingestion.startSweeper({ timeoutMinutes: 15, everyMs: 3_600_000, batch: 7 }));
    // A few more passes each, as the timers would make them, racing the other instance.
    for (let pass = 0; pass < 4; pass += 1) await Promise.all(sweepers.map((sweeper) => sweeper.sweep()));
    await Promise.all(sweepers.map((sweeper) => sweeper.stop()));

    const asked = [...askedA, ...askedB].map((entry) => entry.slice(2));
    expect(asked.sort()).toEqual(stale.map((call) => call.paymentRef!).sort());
    expect(askedA.length).toBeGreaterThan(0);
    expect(askedB.length).toBeGreaterThan(0);
    const rows = await world.db.select().from(transactions).where(inArray(transactions.id, stale.map((call) => call.id)));
    expect(rows.every((row) => row.isComplete && !row.isDeleted)).toBe(true);
    const sms = await rowsOf(world, sql`select transaction_id, count(*)::int as n from transaction_events where kind = 'sms_sent' and transaction_id in (${sql.join(stale.map((call) => sql`${call.id}::uuid`), sql`, `)}) group by 1`);
    expect(sms).toHaveLength(40);
    expect(sms.every((row) => row.n === 1)).toBe(true);
  });
});
