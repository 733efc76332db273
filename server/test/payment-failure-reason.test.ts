import { eq } from 'drizzle-orm';
import { transactions } from '../src/db/schema';
import { LOCAL_FAILURE_REASON, localPaymentProvider, type PaymentDecision } from '../src/providers/payment';
import { buildTestWorld, type TestWorld } from './helpers';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

/**
 * Why a payment failed, in the provider's words: kept on the call from a callback's reason (a string
 * or MoMo's `{ code, message }`), answered as `failureReason` beside `amount` and `paymentRef`, shown on
 * the call's timeline and in the CSV export with the SMS status and the resolver's reason and note.
 */

jest.setTimeout(30_000);

let world: TestWorld;
let admin: Record<string, string>;
let code: string;

beforeAll(async () => {
  world = await buildTestWorld();
  admin = (await world.headersFor('admin')).headers;
  code = (await createCatalogue(world, null)).code.name;
  await insertTransactions(
    world,
    code,
    ['words', 'shaped', 'none', 'paid', 'huge'].map((name, i) => ({ paymentRef: `reason-${name}`, phoneNumber: `25677100000${i}`, amount: 15000, createdAt: new Date('2024-07-01T09:00:00Z') })),
  );
});
afterAll(() => world.close());

const callOf = async (reference: string) => (await world.db.select().from(transactions).where(eq(transactions.paymentRef, reference)))[0];
const rowOf = async (reference: string) => {
  const id = (await callOf(reference)).id;
  const search = await world.app.inject({ method: 'POST', url: '/v1/transactions/search?limit=50', headers: admin, payload: { phoneNumber: (await callOf(reference)).phoneNumber } });
  return search.json().results.docs.find((doc: { _id: string }) => doc._id === id);
};

describe("a failed payment's reason", () => {
  it('is kept from the callback and answered with the amount and the payment reference', async () => {
    expect((await world.callback('/v1/payments/callback', { reference: 'reason-words', status: 'FAILED', reason: 'NOT_ENOUGH_FUNDS' })).statusCode).toBe(200);
    expect(await rowOf('reason-words')).toMatchObject({ amount: 15000, paymentRef: 'reason-words', failureReason: 'NOT_ENOUGH_FUNDS', messageStatuses: 'Payment failed' });

    await world.callback('/v1/payments/callback', { reference: 'reason-shaped', status: 'failed', reason: { code: 'APPROVAL_REJECTED', message: 'The payer rejected the request' } });
    expect((await rowOf('reason-shaped')).failureReason).toBe('The payer rejected the request');

    await world.callback('/v1/payments/callback', { reference: 'reason-none', status: 'FAILED' });
    expect((await rowOf('reason-none')).failureReason).toBeNull();

    // A success's reason, if a provider sent one, is no failure reason.
    await world.callback('/v1/payments/callback', { reference: 'reason-paid', status: 'SUCCESSFUL', reason: 'whatever' });
    expect((await rowOf('reason-paid')).failureReason).toBeNull();
  });

  it('is cut to its first 300 characters and cleared of control characters; a later callback changes nothing', async () => {
    await world.callback('/v1/payments/callback', { reference: 'reason-huge', status: 'FAILED', reason: `LIMIT\u0007${'y'.repeat(1000)}` });
    const reason = (await callOf('reason-huge')).failureReason ?? '';
    expect(reason).toHaveLength(300);
    expect(reason.startsWith('LIMIT y')).toBe(true);
    await world.callback('/v1/payments/callback', { reference: 'reason-words', status: 'FAILED', reason: 'SOMETHING_ELSE' });
    expect((await callOf('reason-words')).failureReason).toBe('NOT_ENOUGH_FUNDS');
  });

  it("is on the call's timeline", async () => {
    const id = (await callOf('reason-words')).id;
    const timeline = (await world.app.inject({ method: 'GET', url: `/v1/transactions/${id}/events`, headers: admin })).json().results;
    expect(timeline).toContainEqual(expect.objectContaining({ kind: 'payment_settled', detail: expect.objectContaining({ status: 'FAILED', failureReason: 'NOT_ENOUGH_FUNDS' }) }));
  });

  it('is in the export with the amount, the reference, the SMS status, the resolver and their reason and note', async () => {
    const id = (await callOf('reason-words')).id;
    const resolver = await world.headersFor('admin');
    await world.app.inject({ method: 'POST', url: `/v1/transactions/to/give/attention/${id}`, headers: resolver.headers, payload: { isResolved: true, reason: 'refunded', note: 'Refunded by hand' } });
    const csv = await world.app.inject({ method: 'GET', url: `/v1/transactions/export?name=${encodeURIComponent(code)}&date=2024-07-01&status=failed`, headers: admin });
    expect(csv.statusCode).toBe(200);
    const [header, ...lines] = csv.body.trimEnd().split('\r\n');
    const columns = header.split(',');
    for (const name of ['Amount', 'Payment reference', 'SMS status', 'Failure reason', 'Resolved by', 'Resolve reason', 'Resolve note']) expect(columns).toContain(name);
    const line = lines.find((l) => l.includes('reason-words'))!.split(',');
    const cell = (name: string) => line[columns.indexOf(name)];
    expect(cell('Amount')).toBe('15000');
    expect(cell('Payment reference')).toBe('reason-words');
    expect(cell('SMS status')).toBe('Payment failed');
    expect(cell('Failure reason')).toBe('NOT_ENOUGH_FUNDS');
    expect(cell('Resolved by')).toBe(resolver.user.userName);
    expect(cell('Resolve reason')).toBe('Refunded');
    expect(cell('Resolve note')).toBe('Refunded by hand');
  });

  it('is refused as a 400 when a provider sends one that is not text, changing nothing', async () => {
    const response = await world.callback('/v1/payments/callback', { reference: 'reason-none', status: 'FAILED', reason: '\uD800' });
    expect(response.statusCode).toBe(400);
    expect(response.body).not.toContain('\\ud800');
  });
});

describe("the local provider's refusal", () => {
  it('carries its own words', async () => {
    const decided: PaymentDecision[] = [];
    const provider = localPaymentProvider({ delayMs: 5, failRate: 1, random: () => 0, settle: async (decision) => void decided.push(decision) });
    await provider.collect({ reference: 'local-refused', phoneNumber: '256772000111', amount: 1000 });
    await new Promise((resolve) => setTimeout(resolve, 40));
    await provider.close?.();
    expect(decided).toEqual([expect.objectContaining({ status: 'FAILED', failureReason: LOCAL_FAILURE_REASON })]);
  });
});
