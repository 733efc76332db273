import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Refund } from '../../src/domain/refunds';
import { externalPaymentProvider, PaymentProviderUnavailable, type PaymentProvider, type RefundStatus } from '../src/providers/payment';
import type { SmsProvider } from '../src/providers/sms';
import { rowsOf } from '../src/repositories/sql-fragments';
import { auditEntries } from './audit-fixtures';
import { buildTestWorld, type TestWorld } from './helpers';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

/**
 * Refunds: who may request and decide, each state change, the database's rules under 20 concurrent
 * requests, idempotent provider callbacks, the customer's one SMS, and the sweeper asking about a
 * refund whose submission had no certain outcome once however many sweep.
 */

jest.setTimeout(60_000);

const sent: { phoneNumber: string; message: string }[] = [];
const sms: SmsProvider = {
  name: 'counting',
  async send(message) {
    sent.push(message);
    return { status: 'sent', providerRef: `sms-${sent.length}` };
  },
};

/** The external provider, except that a refund's submission can be made uncertain and its status told. */
let uncertain = false;
const statusAsked: string[] = [];
let statusAnswer: RefundStatus = 'PENDING';
const external = externalPaymentProvider();
const provider: PaymentProvider = {
  ...external,
  async refund(request) {
    if (uncertain) throw new PaymentProviderUnavailable('timed out');
    return external.refund!(request);
  },
  async refundStatus(reference) {
    statusAsked.push(reference);
    await new Promise((resolve) => setTimeout(resolve, 20));
    return statusAnswer;
  },
};

let world: TestWorld;
let code: string;
let care: { user: { id: string; userName: string }; headers: Record<string, string> };
let admin: { user: { id: string }; headers: Record<string, string> };
let otherAdmin: { user: { id: string }; headers: Record<string, string> };
let agent: Record<string, string>;

beforeAll(async () => {
  world = await buildTestWorld({ providers: { sms, payment: provider } });
  care = await world.headersFor('customer-care');
  admin = await world.headersFor('admin');
  otherAdmin = await world.headersFor('super-user');
  agent = (await world.headersFor('agent')).headers;
  code = (await createCatalogue(world, null)).code.name;
});
afterAll(() => world.close());

const processedCall = async (amount = 5000) =>
  (await insertTransactions(world, code, [{ isComplete: true, amount, categoryLevel: 'vip', paymentRef: crypto.randomUUID(), phoneNumber: '256772000111', ticketMessage: 'Tips' }]))[0];

const post = (url: string, payload: unknown, headers: Record<string, string>) => world.app.inject({ method: 'POST', url, headers, payload: payload as object });
const get = (url: string, headers: Record<string, string>) => world.app.inject({ method: 'GET', url, headers });
const requestRefund = (callId: string, payload: unknown, headers = care.headers) => post(`/v1/transactions/${callId}/refunds`, payload, headers);
const approve = (id: string, headers = admin.headers) => post(`/v1/refunds/${id}/approve`, {}, headers);
const refundCallback = (refundReference: string, status: string) => world.callback('/v1/payments/callback', { refundReference, status });
const timelineKinds = async (callId: string) => ((await get(`/v1/transactions/${callId}/events`, admin.headers)).json().results as { kind: string }[]).map((e) => e.kind).filter((k) => k.startsWith('refund'));

describe('a refund from request to the customer\'s SMS', () => {
  it('is requested by customer care, approved by a manager, settled once by the callback, and sends one SMS', async () => {
    const call = await processedCall(5000);
    const requested = await requestRefund(call.id, { reason: 'ticket-not-delivered', note: ' Never got the SMS ' });
    expect(requested.statusCode).toBe(201);
    const refund = requested.json().results as Refund;
    expect(refund).toMatchObject({ transactionId: call.id, amount: 5000, state: 'requested', reason: 'ticket-not-delivered', note: 'Never got the SMS', requestedBy: { _id: care.user.id } });
    expect(refund.providerRef).toMatch(/^[0-9a-f-]{36}$/);

    // Customer care requests; it does not decide.
    expect((await approve(refund._id, care.headers)).statusCode).toBe(403);
    const approved = await approve(refund._id);
    expect(approved.statusCode).toBe(200);
    expect(approved.json().results).toMatchObject({ state: 'submitted', decidedBy: { _id: admin.user.id }, providerRef: refund.providerRef });
    expect((await approve(refund._id, otherAdmin.headers)).statusCode).toBe(409);

    sent.length = 0;
    const first = await refundCallback(refund.providerRef, 'SUCCESSFUL');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ message: 'Refund completed', results: { _id: refund._id } });
    const again = await Promise.all([refundCallback(refund.providerRef, 'SUCCESSFUL'), refundCallback(refund.providerRef, 'FAILED')]);
    expect(again.map((r) => r.json().message)).toEqual(['Refund already settled', 'Refund already settled']);
    expect(sent).toEqual([{ phoneNumber: '256772000111', message: 'UGX 5,000 for your VIP ticket has been refunded.' }]);

    expect((await get(`/v1/refunds/${refund._id}`, care.headers)).json().results).toMatchObject({ state: 'completed', failureReason: null });
    expect(await timelineKinds(call.id)).toEqual(['refund_requested', 'refund_approved', 'refund_submitted', 'refund_completed', 'refund_sms_sent']);
    const search = await post('/v1/transactions/search', { phoneNumber: '256772000111' }, admin.headers);
    expect((search.json().results.docs as { _id: string; refundedAmount: number }[]).find((doc) => doc._id === call.id)?.refundedAmount).toBe(5000);

    const audit = await auditEntries(world, admin.headers, { entityType: 'refund', entityId: refund._id });
    expect(audit.map((entry) => entry.action).sort()).toEqual(['refund.approve', 'refund.complete', 'refund.request', 'refund.submit']);

    // Nothing is left of the call's amount.
    const more = await requestRefund(call.id, { reason: 'other' });
    expect(more.statusCode).toBe(400);
    expect(more.json().message).toMatch(/more than the call's amount/);
  });

  it('is rejected with a reason, and partial refunds never add up past the amount', async () => {
    const call = await processedCall(10000);
    const first = (await requestRefund(call.id, { amount: 4000, reason: 'duplicate-payment' })).json().results as Refund;
    expect((await post(`/v1/refunds/${first._id}/reject`, {}, admin.headers)).statusCode).toBe(400);
    // A reason of the wrong type is refused as such, never a 500.
    for (const reason of [5, true]) expect((await post(`/v1/refunds/${first._id}/reject`, { reason }, admin.headers)).statusCode).toBe(400);
    const rejected = await post(`/v1/refunds/${first._id}/reject`, { reason: 'Paid once only' }, admin.headers);
    expect(rejected.json().results).toMatchObject({ state: 'rejected', decisionReason: 'Paid once only' });
    expect(await timelineKinds(call.id)).toEqual(['refund_requested', 'refund_rejected']);

    expect((await requestRefund(call.id, { amount: 12000, reason: 'other' })).statusCode).toBe(400);
    const part = (await requestRefund(call.id, { amount: 6000, reason: 'wrong-ticket' })).json().results as Refund;
    await approve(part._id);
    await refundCallback(part.providerRef, 'SUCCESSFUL');
    const left = await requestRefund(call.id, { reason: 'customer-request' });
    expect(left.json().results).toMatchObject({ amount: 4000 });
    expect((await get(`/v1/transactions/${call.id}/refunds`, care.headers)).json().results.docs.map((r: Refund) => r.state)).toEqual(['requested', 'completed', 'rejected']);
  });

  it('refuses a failed or pending call, bad input, and agents', async () => {
    const [failed, pending] = await insertTransactions(world, code, [{ isDeleted: true, amount: 5000 }, { amount: 5000 }]);
    for (const call of [failed, pending]) {
      const answer = await requestRefund(call.id, { reason: 'other' });
      expect(answer.statusCode).toBe(400);
      expect(answer.json().message).toBe('Only a processed call can be refunded');
    }
    const call = await processedCall();
    for (const body of [{}, { reason: 'because' }, { reason: 'other', amount: -5 }, { reason: 'other', amount: 1.5 }, { reason: 'other', amount: 'lots' }, { reason: 'other', note: 'x'.repeat(501) }, { reason: 'other', note: 'a\u0000b' }]) {
      const answer = await requestRefund(call.id, body);
      expect(answer.statusCode).toBe(400);
      expect(answer.body).not.toContain('because');
    }
    expect((await requestRefund(call.id, { reason: 'other' }, agent)).statusCode).toBe(403);
    expect((await get('/v1/refunds', agent)).statusCode).toBe(403);
    expect((await get(`/v1/refunds?state=nonsense`, care.headers)).statusCode).toBe(400);
    expect((await requestRefund(crypto.randomUUID(), { reason: 'other' })).statusCode).toBe(404);
  });

  it('never lets the requester decide, unless a manager\'s own refund is under REFUND_SELF_APPROVE_BELOW', async () => {
    const call = await processedCall(3000);
    const own = (await requestRefund(call.id, { amount: 1000, reason: 'other' }, admin.headers)).json().results as Refund;
    expect((await approve(own._id)).statusCode).toBe(403);
    expect((await post(`/v1/refunds/${own._id}/reject`, { reason: 'mine' }, admin.headers)).statusCode).toBe(403);
    await post(`/v1/refunds/${own._id}/reject`, { reason: 'Not needed' }, otherAdmin.headers);

    const lenient = await world.anotherProcess({ providers: { sms, payment: provider }, refunds: { selfApproveBelow: 2000 } });
    const small = await lenient.inject({ method: 'POST', url: `/v1/transactions/${call.id}/refunds`, headers: admin.headers, payload: { amount: 1500, reason: 'other' } });
    expect(small.json().results).toMatchObject({ state: 'submitted', decidedBy: { _id: admin.user.id } });
    await refundCallback(small.json().results.providerRef, 'FAILED');
    // Customer care is no manager: its small request still waits.
    const fromCare = await lenient.inject({ method: 'POST', url: `/v1/transactions/${call.id}/refunds`, headers: care.headers, payload: { amount: 1500, reason: 'other' } });
    expect(fromCare.json().results).toMatchObject({ state: 'requested' });
  });

  it('makes one refund of 20 concurrent requests for a call, and refuses the other 19 clearly', async () => {
    const call = await processedCall(5000);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => requestRefund(call.id, i % 2 ? { reason: 'other' } : { amount: 5000, reason: 'duplicate-payment' })));
    const codes = answers.map((answer) => answer.statusCode).sort();
    expect(codes).toEqual([201, ...Array(19).fill(409)]);
    for (const answer of answers.filter((a) => a.statusCode === 409)) expect(answer.json().message).toBe('This call already has a refund in progress');
    const [{ count }] = await rowsOf<{ count: number }>(world.db, sql`select count(*)::int as count from refunds where transaction_id = ${call.id}::uuid`);
    expect(count).toBe(1);
  });

  it('leaves a refund whose submission was uncertain unknown, asks about it once across sweepers, and never sends it twice', async () => {
    const call = await processedCall(2000);
    const refund = (await requestRefund(call.id, { reason: 'other' })).json().results as Refund;
    uncertain = true;
    const approved = await approve(refund._id);
    uncertain = false;
    expect(approved.json().results.state).toBe('unknown');

    statusAsked.length = 0;
    statusAnswer = 'PENDING';
    const second = await world.secondInstance({ providers: { sms, payment: provider } });
    const sweepers = [world.app.ingestion.refunds, (second?.app ?? (await world.anotherProcess({ providers: { sms, payment: provider } }))).ingestion.refunds];
    await Promise.all(sweepers.map((sweeper) => sweeper.sweep(15)));
    expect(statusAsked.filter((ref) => ref === refund.providerRef)).toHaveLength(1);
    // The provider has it: waiting for its word, not sent again.
    expect((await get(`/v1/refunds/${refund._id}`, admin.headers)).json().results.state).toBe('submitted');

    await world.db.execute(sql`update refunds set submitted_at = now() - interval '1 hour' where id = ${refund._id}::uuid`);
    statusAnswer = 'SUCCESSFUL';
    sent.length = 0;
    await Promise.all(sweepers.map((sweeper) => sweeper.sweep(15)));
    expect((await get(`/v1/refunds/${refund._id}`, admin.headers)).json().results.state).toBe('completed');
    expect(sent).toHaveLength(1);
    await second?.close();
  });

  it('is asked about by the payment sweeper as it runs', async () => {
    const call = await processedCall(1000);
    const refund = (await requestRefund(call.id, { reason: 'other' })).json().results as Refund;
    uncertain = true;
    await approve(refund._id);
    uncertain = false;
    statusAnswer = 'FAILED';
    const sweeper = world.app.ingestion.startSweeper({ timeoutMinutes: 15, everyMs: 60_000 });
    await sweeper.sweep();
    await sweeper.stop();
    expect((await get(`/v1/refunds/${refund._id}`, admin.headers)).json().results).toMatchObject({ state: 'failed', failureReason: 'Refused by the provider' });
    expect(await timelineKinds(call.id)).toEqual(['refund_requested', 'refund_approved', 'refund_submitted', 'refund_failed']);
  });

  it('lists the queue awaiting approval first, then in flight, then done', async () => {
    const docs = (await get('/v1/refunds?limit=100', care.headers)).json().results.docs as Refund[];
    const rank = (state: string) => (state === 'requested' ? 0 : ['approved', 'submitted', 'unknown'].includes(state) ? 1 : 2);
    const ranks = docs.map((doc) => rank(doc.state));
    expect(ranks).toEqual([...ranks].sort());
    expect((await get('/v1/refunds?state=completed', care.headers)).json().results.docs.every((doc: Refund) => doc.state === 'completed')).toBe(true);
  });
});
