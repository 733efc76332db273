import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { transactionEvents } from '../src/db/schema';
import { sendTicketSms } from '../src/ticket-sms';
import { transactionEventsRepository } from '../src/repositories/transaction-events-repository';
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

    await events.attachSession('events-session-1', call.id);
    expect(await events.timeline({ id: call.id, sessionId: null })).toHaveLength(2);
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

    expect(await sendTicketSms(world.db, failing, ticket, { kind: 'sms_sent', actor: 'provider:local' })).toMatchObject({ status: 'Failed' });
    expect((await transactionsRepository(world.db).findById(call.id))?.messageStatuses).toBe('Failed');

    expect(await sendTicketSms(world.db, working, ticket, { kind: 'ticket_resent', actor: 'user' })).toEqual({ status: 'Sent', providerRef: 'sms-ref-1' });
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
