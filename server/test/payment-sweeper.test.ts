import { eq, inArray } from 'drizzle-orm';
import { transactionEvents, transactions } from '../src/db/schema';
import { ticketSender } from '../src/ingestion/ticket-sms';
import { startPaymentSweeper } from '../src/ingestion/payment-sweeper';
import type { PaymentProvider, PaymentStatus } from '../src/providers/payment';
import { localSmsProvider } from '../src/providers/sms';
import { buildTestWorld, type TestWorld } from './helpers';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

jest.setTimeout(30_000);

let world: TestWorld;
let code: string;
beforeAll(async () => {
  world = await buildTestWorld();
  code = (await createCatalogue(world, null)).code.name;
});
afterAll(() => world.close());

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
const rowsOf = async (ids: string[]) => new Map((await world.db.select().from(transactions).where(inArray(transactions.id, ids))).map((r) => [r.id, r]));
const eventsOf = (id: string) => world.db.select().from(transactionEvents).where(eq(transactionEvents.transactionId, id));

/** A provider that answers each reference as told, or cannot be reached for those told 'down'. */
function answeringProvider(answers: Record<string, PaymentStatus | 'down'>): PaymentProvider & { asked: string[] } {
  const asked: string[] = [];
  return {
    name: 'stub',
    asked,
    collect: async ({ reference }) => ({ accepted: true, providerRef: reference }),
    async status(reference) {
      asked.push(reference);
      const answer = answers[reference] ?? 'PENDING';
      if (answer === 'down') throw new Error('ECONNREFUSED');
      return answer;
    },
  };
}

async function sweepWith(payment: PaymentProvider, sms = localSmsProvider(), onCallChanged?: (id: string) => void) {
  const log = { info: jest.fn(), error: jest.fn() };
  const sweeper = startPaymentSweeper(world.db, { timeoutMinutes: 15, everyMs: 3_600_000, payment, settle: world.app.ingestion.settle, tickets: ticketSender(world.db, sms), onCallChanged, log });
  await sweeper.stop(); // waits for the sweep made at start
  return log;
}

describe('payment sweeper (DESIGN §6)', () => {
  it('asks the provider about payments pending past the timeout and settles them as it says', async () => {
    const [paid, refused, pending, fresh, done] = await insertTransactions(world, code, [
      { createdAt: minutesAgo(20), paymentRef: 'sweep-paid', categoryLevel: 'vip' },
      { createdAt: minutesAgo(20), paymentRef: 'sweep-refused' },
      { createdAt: minutesAgo(20), paymentRef: 'sweep-pending' },
      { createdAt: minutesAgo(5), paymentRef: 'sweep-fresh' },
      { createdAt: minutesAgo(60), paymentRef: 'sweep-done', isComplete: true },
    ]);
    const provider = answeringProvider({ 'sweep-paid': 'SUCCESSFUL', 'sweep-refused': 'FAILED', 'sweep-pending': 'PENDING' });
    const log = await sweepWith(provider);

    expect(provider.asked.sort()).toEqual(['sweep-paid', 'sweep-pending', 'sweep-refused']);
    const rows = await rowsOf([paid.id, refused.id, pending.id, fresh.id, done.id]);
    expect(rows.get(paid.id)).toMatchObject({ isComplete: true, isDeleted: false });
    expect(rows.get(refused.id)).toMatchObject({ isComplete: false, isDeleted: true });
    expect(rows.get(refused.id)!.messageStatuses).toBe('Payment failed');
    expect(rows.get(pending.id)).toMatchObject({ isComplete: false, isDeleted: true, messageStatuses: 'Payment timed out' });
    expect(rows.get(pending.id)!.callbackTime).toBeInstanceOf(Date);
    expect(rows.get(fresh.id)).toMatchObject({ isDeleted: false, isComplete: false });
    expect(rows.get(done.id)).toMatchObject({ isDeleted: false, isComplete: true });
    expect(log.info).toHaveBeenCalledWith({ settled: 1, failed: 2, kept: 0, timeoutMinutes: 15 }, expect.any(String));

    const paidEvents = await eventsOf(paid.id);
    expect(paidEvents.map((e) => [e.kind, e.actor])).toEqual([
      ['payment_polled', 'provider:stub'],
      ['payment_settled', 'provider:stub'],
    ]);
    expect(paidEvents[1].detail).toMatchObject({ status: 'SUCCESSFUL', via: 'poll' });
    const pendingEvents = await eventsOf(pending.id);
    expect(pendingEvents.map((e) => [e.kind, e.actor, e.detail.status])).toEqual([
      ['payment_polled', 'provider:stub', 'PENDING'],
      ['payment_settled', 'sweeper', 'FAILED'],
    ]);

    // A late callback for the timed-out payment changes nothing.
    const late = await world.pay('sweep-pending', 'SUCCESSFUL');
    expect(late.json().message).toBe('Payment already settled');
    expect((await rowsOf([pending.id])).get(pending.id)).toMatchObject({ isComplete: false, isDeleted: true });
    const admin = (await world.headersFor('admin')).headers;
    const failed = await world.app.inject({ method: 'GET', url: `/v1/transactions/to/give/attention?name=${encodeURIComponent(code)}`, headers: admin });
    expect(failed.json().results.docs.map((d: { _id: string }) => d._id).sort()).toEqual([pending.id, refused.id].sort());
  });

  it('fails a call pending past the timeout that no payment was requested for, once, however many sweepers run', async () => {
    const [stuck, fresh, alreadyFailed] = await insertTransactions(world, code, [
      { createdAt: minutesAgo(90) }, // never reached the payment step
      { createdAt: minutesAgo(5) }, // may still reach it
      { createdAt: minutesAgo(90), isDeleted: true, messageStatuses: 'Payment failed' },
    ]);
    const provider = answeringProvider({});
    const heard: string[] = [];
    const logs = await Promise.all([sweepWith(provider, undefined, (id) => heard.push(id)), sweepWith(provider, undefined, (id) => heard.push(id))]);
    await sweepWith(provider);

    expect(provider.asked).toEqual([]);
    const rows = await rowsOf([stuck.id, fresh.id, alreadyFailed.id]);
    expect(rows.get(stuck.id)).toMatchObject({ isComplete: false, isDeleted: true, messageStatuses: 'Payment never requested' });
    expect(rows.get(stuck.id)!.callbackTime).toBeInstanceOf(Date);
    expect(rows.get(fresh.id)).toMatchObject({ isComplete: false, isDeleted: false, callbackTime: null });
    expect(rows.get(alreadyFailed.id)).toMatchObject({ isDeleted: true, messageStatuses: 'Payment failed' });
    expect((await eventsOf(stuck.id)).map((e) => [e.kind, e.actor, e.detail])).toEqual([
      ['payment_settled', 'sweeper', { status: 'FAILED', via: 'timeout', reason: 'Payment never requested' }],
    ]);
    expect(await eventsOf(alreadyFailed.id)).toEqual([]);
    expect(heard).toEqual([stuck.id]);
    expect(logs.flatMap((log) => log.info.mock.calls).filter(([fields]) => fields.failed === 1)).toHaveLength(1);

    // The day's counts move with it: the dashboard no longer counts it pending.
    const admin = (await world.headersFor('admin')).headers;
    const failedList = await world.app.inject({ method: 'GET', url: `/v1/transactions/to/give/attention?name=${encodeURIComponent(code)}`, headers: admin });
    expect(failedList.json().results.docs.map((d: { _id: string }) => d._id)).toContain(stuck.id);
  });

  it('keeps a payment the provider cannot be asked about, until four timeouts have passed', async () => {
    const [recent, ancient] = await insertTransactions(world, code, [
      { createdAt: minutesAgo(30), paymentRef: 'sweep-down-recent' },
      { createdAt: minutesAgo(61), paymentRef: 'sweep-down-ancient' },
    ]);
    const log = await sweepWith(answeringProvider({ 'sweep-down-recent': 'down', 'sweep-down-ancient': 'down' }));
    const rows = await rowsOf([recent.id, ancient.id]);
    expect(rows.get(recent.id)).toMatchObject({ isComplete: false, isDeleted: false });
    expect(rows.get(ancient.id)).toMatchObject({ isComplete: false, isDeleted: true, messageStatuses: 'Payment timed out' });
    expect(log.error).toHaveBeenCalledWith(expect.objectContaining({ reference: 'sweep-down-recent' }), expect.any(String));
    expect((await eventsOf(recent.id)).map((e) => [e.kind, e.actor, e.detail.error])).toEqual([['payment_polled', 'sweeper', 'Provider unreachable']]);

    // The next sweep, with the provider back, settles the one it kept.
    await sweepWith(answeringProvider({ 'sweep-down-recent': 'SUCCESSFUL' }));
    expect((await rowsOf([recent.id])).get(recent.id)).toMatchObject({ isComplete: true, isDeleted: false });
  });

  it('sends the ticket of a call settled by a process that stopped before sending it, once', async () => {
    const [stuck, justSettled] = await insertTransactions(world, code, [
      { paymentRef: 'sweep-unsent', isComplete: true, ticketMessage: 'Gate 9', messageStatuses: 'Sending', callbackTime: minutesAgo(2) },
      { paymentRef: 'sweep-sending', isComplete: true, ticketMessage: 'Gate 10', messageStatuses: 'Sending', callbackTime: new Date() },
    ]);
    const sent: string[] = [];
    const sms = { name: 'counting', send: async ({ message }: { message: string }) => (sent.push(message), { status: 'sent' as const, providerRef: `SMS-${sent.length}` }) };
    await Promise.all([sweepWith(answeringProvider({}), sms), sweepWith(answeringProvider({}), sms)]);
    expect(sent).toEqual(['Gate 9']);
    const rows = await rowsOf([stuck.id, justSettled.id]);
    expect(rows.get(stuck.id)).toMatchObject({ messageStatuses: 'Sent', ticketSmsRef: 'SMS-1' });
    // One still within the SMS provider's time is left to the process sending it.
    expect(rows.get(justSettled.id)).toMatchObject({ messageStatuses: 'Sending', ticketSmsRef: null });
    expect((await eventsOf(stuck.id)).map((e) => [e.kind, e.actor])).toEqual([['sms_sent', 'sweeper']]);
  });
});
