import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { transactionEvents } from '../src/db/schema';
import { ticketSender } from '../src/ingestion/ticket-sms';
import { eventKey, transactionEventsRepository } from '../src/repositories/transaction-events-repository';
import { ussdRepository } from '../src/repositories/ussd-repository';
import { transactionsRepository } from '../src/repositories/transactions-repository';
import type { SmsProvider } from '../src/providers/sms';
import { buildTestWorld, type TestWorld } from './helpers';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

jest.setTimeout(30_000);

let world: TestWorld;
beforeAll(async () => {
  world = await buildTestWorld();
});
afterAll(() => world.close());

describe('transaction events (DESIGN §6)', () => {
  it('keeps a call history in order, with the session hops from before the call existed, each recorded once', async () => {
    const code = (await createCatalogue(world, null)).code.name;
    const [call] = await insertTransactions(world, code, [{ sessionId: 'events-session-1' }]);
    const events = transactionEventsRepository(world.db);
    const hop = { kind: 'ussd_hop' as const, actor: 'customer', sessionId: 'events-session-1', detail: { input: '', reply: 'CON Choose' }, dedupeKey: 'hop:events-session-1:' };

    expect(await events.record(hop)).toBe(1);
    expect(await events.record(hop)).toBe(0); // a repeated hop records nothing twice
    await events.record({ kind: 'payment_requested', actor: 'provider:local', transactionId: call.id, detail: { amount: 6000 } });

    const timeline = await events.timeline({ id: call.id, sessionId: 'events-session-1' });
    expect(timeline.map((event) => event.kind)).toEqual(['ussd_hop', 'payment_requested']);
    expect(timeline[0]).toMatchObject({ actor: 'customer', detail: { input: '', reply: 'CON Choose' } });
    expect(new Date(timeline[0].at).getTime()).toBeLessThanOrEqual(new Date(timeline[1].at).getTime());
  });

  it("attaches a session's earlier hops to the call it becomes, and records its payment request under its key, once", async () => {
    const { code, category } = await createCatalogue(world, null);
    const events = transactionEventsRepository(world.db);
    await events.record({ kind: 'ussd_hop', actor: 'customer', sessionId: 'events-session-2', detail: { input: '', reply: 'CON Choose' }, dedupeKey: eventKey.hop('events-session-2', '') });
    const call = { sessionId: 'events-session-2', serviceCode: code.name, phoneNumber: '256770000222', network: 'MTN', categoryId: category.id, categoryLevel: 'vip', amount: 5000, paymentRef: crypto.randomUUID() };
    const limits = { confirmsPerMinute: 5 };
    const created = await ussdRepository(world.db).createCall(call, { amount: 5000, provider: 'local' }, limits);
    expect(created).toMatchObject({ outcome: 'created' });
    const id = 'call' in created ? created.call.id : '';
    expect(await ussdRepository(world.db).createCall({ ...call, paymentRef: crypto.randomUUID() }, { amount: 5000, provider: 'local' }, limits)).toEqual({
      outcome: 'existing',
      call: { id, paymentRef: call.paymentRef, phoneNumber: call.phoneNumber },
    });

    const recorded = await world.db.select().from(transactionEvents).where(eq(transactionEvents.transactionId, id));
    expect(recorded.map((event) => [event.kind, event.dedupeKey, event.detail])).toEqual(
      expect.arrayContaining([
        ['ussd_hop', eventKey.hop('events-session-2', ''), { input: '', reply: 'CON Choose' }],
        ['payment_requested', eventKey.paymentRequested(id), { amount: 5000, provider: 'local' }],
      ]),
    );
    expect(recorded).toHaveLength(2);
  });

  it('records events that arrive together in one statement, each counted once, one that cannot be recorded failing alone', async () => {
    const events = transactionEventsRepository(world.db);
    const hop = (n: number) => ({ kind: 'ussd_hop' as const, actor: 'customer', sessionId: 'events-batch', detail: { input: String(n), reply: 'CON' }, dedupeKey: `hop:events-batch:${n}` });
    const unkeyed = { kind: 'ussd_hop' as const, actor: 'customer', sessionId: 'events-batch', detail: { input: 'x', reply: 'END' } };
    expect(await Promise.all([hop(1), hop(2), hop(2), unkeyed, hop(3), hop(1), unkeyed].map((event) => events.record(event)))).toEqual([1, 1, 0, 1, 1, 0, 1]);
    expect(await events.record(hop(3), hop(4))).toBe(1);

    const noSuchCall = { kind: 'payment_requested' as const, actor: 'system', transactionId: crypto.randomUUID() };
    const outcomes = await Promise.allSettled([hop(5), noSuchCall, hop(6)].map((event) => events.record(event)));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const recorded = await world.db.select().from(transactionEvents).where(eq(transactionEvents.sessionId, 'events-batch'));
    expect(recorded.map((event) => event.dedupeKey).sort()).toEqual([...[1, 2, 3, 4, 5, 6].map((n) => `hop:events-batch:${n}`), null, null]);
  });

  it('sends a ticket SMS, marks the call Sent or Failed, and records the send on the timeline', async () => {
    const code = (await createCatalogue(world, null)).code.name;
    const [call] = await insertTransactions(world, code, [{ isComplete: true }]);
    const failing: SmsProvider = { name: 'failing', send: () => Promise.reject(new Error('gateway down')) };
    const working: SmsProvider = { name: 'working', send: () => Promise.resolve({ status: 'sent', providerRef: 'sms-ref-1' }) };
    const ticket = { id: call.id, phoneNumber: call.phoneNumber, ticketMessage: 'Your ticket: 1234' };

    expect(await ticketSender(world.db, failing).send(ticket, { kind: 'sms_sent', actor: 'provider:local' })).toMatchObject({ status: 'Failed' });
    expect((await transactionsRepository(world.db).findById(call.id))?.messageStatuses).toBe('Failed');

    expect(await ticketSender(world.db, working).send(ticket, { kind: 'ticket_resent', actor: 'user' })).toEqual({ status: 'Sent', providerRef: 'sms-ref-1' });
    const after = await transactionsRepository(world.db).findById(call.id);
    expect(after).toMatchObject({ messageStatuses: 'Sent', ticketSmsRef: 'sms-ref-1' });

    const timeline = await transactionEventsRepository(world.db).timeline({ id: call.id, sessionId: null });
    expect(timeline.map((event) => [event.kind, event.detail.status])).toEqual([
      ['sms_sent', 'Failed'],
      ['ticket_resent', 'Sent'],
    ]);
    expect(timeline[0].detail.failureReason).toBe('gateway down');
  });
});
