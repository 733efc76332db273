import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { PGBOUNCER, startPgBouncer, type RunningPgBouncer } from '../../scripts/pgbouncer';
import { contents } from '../src/db/schema';
import { rowsOf } from './campaign-fixtures';
import { buildTestWorld, type TestWorld } from './helpers';
import { createCatalogue } from './transactions-fixtures';

jest.setTimeout(60_000);

/** Wherever the tests run on PostgreSQL (CI does), PgBouncer must be installed: a missing one fails rather than skips. */
const withPgBouncer = process.env.TEST_DATABASE_URL ? describe : describe.skip;

/** README 'Running on PostgreSQL': two API instances through PgBouncer in session pooling. */
withPgBouncer('two API instances through PgBouncer (session pooling)', () => {
  let world: TestWorld;
  let bouncer: RunningPgBouncer;
  const instances: NonNullable<Awaited<ReturnType<TestWorld['secondInstance']>>>[] = [];
  let code: string;
  beforeAll(async () => {
    if (!fs.existsSync(PGBOUNCER)) throw new Error(`PgBouncer is not at ${PGBOUNCER} (apt-get install -y pgbouncer); the tests on PostgreSQL run through it`);
    world = await buildTestWorld();
    const url = new URL(world.databaseUrl!);
    bouncer = await startPgBouncer(process.env.TEST_DATABASE_URL!, url.pathname.slice(1), { poolSize: 30 });
    for (let i = 0; i < 2; i += 1) instances.push((await world.secondInstance(undefined, bouncer.url))!);
    const catalogue = await createCatalogue(world, null, { ordinary: 1000 });
    code = catalogue.code.name;
    await world.db.insert(contents).values({ categoryId: catalogue.category.id, categoryLevel: 'ordinary', message: 'Ticket 7', active: true });
  });
  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await bouncer?.stop();
    await world?.close();
  });

  it('sells through either instance, prepared statements and all, each sale settled once with one SMS', async () => {
    const hop = (n: number, sessionId: string, text: string) =>
      instances[n % 2].app.inject({
        method: 'POST',
        url: '/v1/ussd/callback?token=test-ussd-token-0123456789',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ sessionId, serviceCode: code, phoneNumber: `2567723${String(n).padStart(5, '0')}`, networkCode: '64110', text }).toString(),
      });
    await Promise.all(
      Array.from({ length: 20 }, async (_, n) => {
        const sessionId = `bouncer-${n}`;
        for (const [i, text] of ['', '1', '1*1'].entries()) expect((await hop(n + i, sessionId, text)).statusCode).toBe(200);
      }),
    );
    const calls = await rowsOf(world, sql`select payment_ref from transactions where session_id like 'bouncer-%'`);
    expect(calls).toHaveLength(20);
    const { signedCallback } = await import('../src/ingestion/callback-signature');
    const { TEST_CALLBACK_SECRET } = await import('./helpers');
    await Promise.all(
      calls.flatMap(({ payment_ref: reference }, n) =>
        [0, 1].map((k) => instances[(n + k) % 2].app.inject({ method: 'POST', url: '/v1/payments/callback', ...signedCallback({ reference, status: 'SUCCESSFUL' }, TEST_CALLBACK_SECRET) })),
      ),
    );
    const settled = await rowsOf(world, sql`select t.is_complete, (select count(*)::int from transaction_events e where e.transaction_id = t.id and e.kind = 'sms_sent') as sms from transactions t where session_id like 'bouncer-%'`);
    expect(settled.every((row) => row.is_complete === true && row.sms === 1)).toBe(true);
    // The sweeper's claim runs through PgBouncer too.
    const sweeper = instances[0].app.ingestion.startSweeper({ timeoutMinutes: 15, everyMs: 3_600_000 });
    await sweeper.stop();
  });
});
