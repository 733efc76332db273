import { inArray } from 'drizzle-orm';
import { transactions } from '../src/db/schema';
import { startPaymentSweeper } from '../src/payment-sweeper';
import { buildTestWorld, type TestWorld } from './helpers';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

jest.setTimeout(30_000);

let world: TestWorld;
beforeAll(async () => {
  world = await buildTestWorld();
});
afterAll(() => world.close());

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);

describe('payment sweeper (DESIGN §6)', () => {
  it('fails payments pending past the timeout, leaves the rest, and a late callback changes nothing', async () => {
    const code = (await createCatalogue(world, null)).code.name;
    const [stale, fresh, noPayment, paid] = await insertTransactions(world, code, [
      { createdAt: minutesAgo(20), paymentRef: 'sweep-stale' },
      { createdAt: minutesAgo(5), paymentRef: 'sweep-fresh' },
      { createdAt: minutesAgo(60) }, // never reached the payment step
      { createdAt: minutesAgo(60), paymentRef: 'sweep-paid', isComplete: true },
    ]);
    const log = { info: jest.fn(), error: jest.fn() };
    const sweeper = startPaymentSweeper(world.db, { timeoutMinutes: 15, everyMs: 3_600_000, log });
    await sweeper.sweep();
    await sweeper.stop();

    const rows = await world.db.select().from(transactions).where(inArray(transactions.id, [stale.id, fresh.id, noPayment.id, paid.id]));
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(stale.id)).toMatchObject({ isDeleted: true, isComplete: false, messageStatuses: 'Payment timed out' });
    expect(byId.get(stale.id)!.callbackTime).toBeInstanceOf(Date);
    expect(byId.get(fresh.id)).toMatchObject({ isDeleted: false, isComplete: false });
    expect(byId.get(noPayment.id)).toMatchObject({ isDeleted: false, isComplete: false });
    expect(byId.get(paid.id)).toMatchObject({ isDeleted: false, isComplete: true });
    expect(log.info).toHaveBeenCalledWith({ failed: 1, timeoutMinutes: 15 }, expect.any(String));

    const late = await world.app.inject({ method: 'POST', url: '/v1/payments/callback', payload: { reference: 'sweep-stale', status: 'SUCCESSFUL' } });
    expect(late.json().message).toBe('Payment already settled');
    const admin = (await world.headersFor('admin')).headers;
    const failed = await world.app.inject({ method: 'GET', url: `/v1/transactions/to/give/attention?name=${encodeURIComponent(code)}`, headers: admin });
    expect(failed.json().results).toMatchObject({ total: 1, docs: [{ _id: stale.id, isDeleted: true, isComplete: false }] });
  });
});
