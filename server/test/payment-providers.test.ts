import { eq, inArray } from 'drizzle-orm';
import { loadConfig } from '../src/config';
import { transactionEvents, transactions } from '../src/db/schema';
import { startPaymentSweeper } from '../src/ingestion/payment-sweeper';
import { externalPaymentProvider, localDecisionStore, localPaymentProvider, type PaymentDecision } from '../src/providers/payment';
import { paymentProviderFor } from '../src/providers/payment-from-config';
import { buildTestWorld, eventually, type TestWorld } from './helpers';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

jest.setTimeout(30_000);

let world: TestWorld;
let code: string;
beforeAll(async () => {
  world = await buildTestWorld();
  code = (await createCatalogue(world, null)).code.name;
});
afterAll(() => world.close());

/**
 * Fakes only the clock of setTimeout, which the local provider waits its delay on, so a test moves
 * time on (jest.advanceTimersByTime) instead of sleeping; promises, I/O and the database run as ever.
 */
const fakeDelays = () =>
  jest.useFakeTimers({
    doNotFake: ['Date', 'hrtime', 'nextTick', 'performance', 'queueMicrotask', 'requestAnimationFrame', 'cancelAnimationFrame', 'requestIdleCallback', 'cancelIdleCallback', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval'],
  });
afterEach(() => jest.useRealTimers());

/** A random source answering these numbers in turn. */
const sequence = (...values: number[]) => () => values.shift() ?? 0.5;

describe('the local payment provider', () => {
  it('settles each payment after its delay through the settlement, failing those the fail rate picks', async () => {
    const refs = ['local-1', 'local-2', 'local-3', 'local-4'];
    const calls = await insertTransactions(world, code, refs.map((paymentRef) => ({ paymentRef })));
    const decided: PaymentDecision[] = [];
    fakeDelays();
    // 0.15 fails 0.1 and 0.149, approves 0.15 and 0.9.
    const provider = localPaymentProvider({
      delayMs: 150,
      failRate: 0.15,
      random: sequence(0.1, 0.9, 0.149, 0.15),
      settle: async (decision) => {
        decided.push(decision);
        // Settled on the next tick, once the test has given the database its real timers back.
        await null;
        return world.app.ingestion.settle(decision);
      },
    });
    for (const reference of refs) expect(await provider.collect({ reference, phoneNumber: '256770000001', amount: 1000 })).toEqual({ accepted: true, providerRef: reference });
    // Asking again does not decide again.
    await provider.collect({ reference: 'local-1', phoneNumber: '256770000001', amount: 1000 });
    expect(await provider.status('local-1')).toBe('PENDING');
    jest.advanceTimersByTime(149);
    expect(decided).toEqual([]);
    jest.advanceTimersByTime(1);
    jest.useRealTimers();
    expect(decided.map((decision) => [decision.reference, decision.status])).toEqual([
      ['local-1', 'FAILED'],
      ['local-2', 'SUCCESSFUL'],
      ['local-3', 'FAILED'],
      ['local-4', 'SUCCESSFUL'],
    ]);
    const ids = calls.map((c) => c.id);
    const states = async () => (await world.db.select().from(transactions).where(inArray(transactions.id, ids))).map((r) => [r.paymentRef, r.isComplete, r.isDeleted]).sort();
    await eventually(async () => (await states()).every(([, complete, deleted]) => complete || deleted));
    expect(await states()).toEqual([
      ['local-1', false, true],
      ['local-2', true, false],
      ['local-3', false, true],
      ['local-4', true, false],
    ]);
    const settled = await world.db.select().from(transactionEvents).where(eq(transactionEvents.transactionId, calls[1].id));
    expect(settled.map((e) => [e.kind, e.actor, e.detail.via])).toEqual([['payment_settled', 'provider:local', 'local']]);
    await provider.close!();
  });

  it('answers the sweeper with its decision once due, and stops its timers on close', async () => {
    const [pending] = await insertTransactions(world, code, [{ paymentRef: 'local-closed' }]);
    let settled = 0;
    fakeDelays();
    const failing = localPaymentProvider({
      delayMs: 20,
      failRate: 1,
      settle: async () => {
        settled += 1;
        throw new Error('database down');
      },
    });
    await failing.collect({ reference: 'local-down', phoneNumber: '256770000001', amount: 1000 });
    jest.advanceTimersByTime(20);
    // The settlement failed, so the decision is kept for the sweeper's question.
    expect(settled).toBe(1);
    expect(await failing.status('local-down')).toBe('FAILED');
    expect(await failing.status('never-seen')).toBe('PENDING');

    const slow = localPaymentProvider({ delayMs: 100, failRate: 0, settle: async () => (settled += 1) });
    await slow.collect({ reference: pending.paymentRef!, phoneNumber: '256770000001', amount: 1000 });
    expect(jest.getTimerCount()).toBe(1);
    await slow.close!();
    expect(jest.getTimerCount()).toBe(0);
    jest.advanceTimersByTime(100);
    expect(settled).toBe(1);
  });
});

describe('the local payment provider after a restart (kill -9)', () => {
  it('keeps its decisions in the database, so the sweeper settles the payments in flight as it decided', async () => {
    const refs = ['restart-ok', 'restart-refused', 'restart-not-yet'];
    const calls = await insertTransactions(world, code, refs.map((paymentRef) => ({ paymentRef, createdAt: new Date(Date.now() - 20 * 60_000) })));
    // This process dies before it settles anything: its settlement never answers.
    const dying = () => new Promise<never>(() => {});
    const before = localPaymentProvider({ delayMs: 0, failRate: 0.5, random: sequence(0.9, 0.1), settle: dying, store: localDecisionStore(world.db) });
    for (const reference of refs.slice(0, 2)) await before.collect({ reference, phoneNumber: '256770000001', amount: 1000 });
    const slow = localPaymentProvider({ delayMs: 3_600_000, failRate: 0, settle: async () => undefined, store: localDecisionStore(world.db) });
    await slow.collect({ reference: 'restart-not-yet', phoneNumber: '256770000001', amount: 1000 });
    await slow.close!();

    // A new process: nothing in memory, the same database.
    const after = localPaymentProvider({ delayMs: 0, failRate: 0, settle: world.app.ingestion.settle, store: localDecisionStore(world.db) });
    expect(await Promise.all(refs.map((reference) => after.status(reference)))).toEqual(['SUCCESSFUL', 'FAILED', 'PENDING']);
    const sweeper = startPaymentSweeper(world.db, { timeoutMinutes: 15, everyMs: 3_600_000, payment: after, settle: world.app.ingestion.settle, tickets: world.app.ingestion.tickets, log: { info: () => {}, error: () => {} } });
    await sweeper.stop();
    const states = new Map((await world.db.select().from(transactions).where(inArray(transactions.id, calls.map((c) => c.id)))).map((r) => [r.paymentRef, [r.isComplete, r.isDeleted, r.messageStatuses]]));
    expect(states.get('restart-ok')).toEqual([true, false, 'No ticket content']);
    expect(states.get('restart-refused')).toEqual([false, true, 'Payment failed']);
    // Still not due: the sweeper's 'PENDING' fails it as timed out, as with any provider.
    expect(states.get('restart-not-yet')).toEqual([false, true, 'Payment timed out']);
  });
});

describe('PAYMENT_PROVIDER', () => {
  const settle = async () => undefined;
  const config = (env: NodeJS.ProcessEnv) => loadConfig({ JWT_SECRET: 'x', PAYMENT_CALLBACK_SECRET: 'y', ...env });

  it('is local by default with a 3 s delay and a 15% fail rate; external and momo on demand', async () => {
    const defaults = config({});
    expect(defaults).toMatchObject({ payment: { kind: 'local', delayMs: 3000, failRate: 0.15 }, paymentCallbackSecret: 'y' });
    expect(paymentProviderFor(defaults.payment, () => {})(settle, world.db).name).toBe('local');
    expect(paymentProviderFor(config({ PAYMENT_PROVIDER: 'external' }).payment, () => {})(settle, world.db).name).toBe('external');
    const momoEnv = { MOMO_SUBSCRIPTION_KEY: 'k', MOMO_API_USER: 'u', MOMO_API_KEY: 'a' };
    expect(paymentProviderFor(config({ PAYMENT_PROVIDER: 'momo', ...momoEnv }).payment, () => {})(settle, world.db).name).toBe('momo');
    expect(() => config({ PAYMENT_PROVIDER: 'momo' })).toThrow(/MOMO_SUBSCRIPTION_KEY, MOMO_API_USER, MOMO_API_KEY/);
    expect(config({ PAYMENT_LOCAL_DELAY_MS: '0', PAYMENT_LOCAL_FAIL_RATE: '0' })).toMatchObject({ payment: { delayMs: 0, failRate: 0 } });
  });

  it('refuses at start what it cannot mean', () => {
    expect(() => config({ PAYMENT_PROVIDER: 'cash' })).toThrow(/Unknown PAYMENT_PROVIDER/);
    expect(() => config({ PAYMENT_LOCAL_FAIL_RATE: '15%' })).toThrow(/PAYMENT_LOCAL_FAIL_RATE/);
    expect(() => config({ PAYMENT_LOCAL_FAIL_RATE: '1.5' })).toThrow(/PAYMENT_LOCAL_FAIL_RATE/);
    expect(() => config({ PAYMENT_LOCAL_DELAY_MS: '-1' })).toThrow(/PAYMENT_LOCAL_DELAY_MS/);
    expect(() => config({ SMS_PROVIDER: 'africastalking' })).toThrow(/AT_CALLBACK_TOKEN/);
    expect(config({ SMS_PROVIDER: 'africastalking', AT_CALLBACK_TOKEN: 'a'.repeat(32), AT_USERNAME: 'u', AT_API_KEY: 'k' }).atCallbackToken).toBe('a'.repeat(32));
  });

  it('external accepts everything and knows nothing', async () => {
    const external = externalPaymentProvider();
    expect(await external.collect({ reference: 'r', phoneNumber: '256770000001', amount: 1 })).toEqual({ accepted: true, providerRef: 'r' });
    expect(await external.status('r')).toBe('PENDING');
  });
});
