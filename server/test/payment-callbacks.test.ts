import { eq } from 'drizzle-orm';
import { signCallback } from '../src/ingestion/callback-signature';
import { contents, transactionEvents, transactions } from '../src/db/schema';
import type { OutgoingSms, SmsProvider } from '../src/providers/sms';
import { createCampaigns, insertVotes, WORLD_CUP } from './campaign-fixtures';
import { buildTestWorld, TEST_CALLBACK_SECRET, type TestWorld } from './helpers';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

jest.setTimeout(30_000);

/** The SMS gateway, counting what it is asked to send; refuses numbers in `refuse`. */
const sent: OutgoingSms[] = [];
const refuse = new Set<string>();
const countingSms: SmsProvider = {
  name: 'counting',
  async send(sms) {
    sent.push(sms);
    if (refuse.has(sms.phoneNumber)) return { status: 'failed', providerRef: null, failureReason: 'InvalidPhoneNumber' };
    return { status: 'sent', providerRef: `ATXid_${sent.length}` };
  },
};

let world: TestWorld;
let code: string;
beforeAll(async () => {
  world = await buildTestWorld({ providers: { sms: countingSms } });
  const catalogue = await createCatalogue(world, null);
  code = catalogue.code.name;
  await world.db.insert(contents).values({ categoryId: catalogue.category.id, categoryLevel: 'vip', message: 'VIP ticket 5521', active: true });
  await insertTransactions(
    world,
    code,
    ['ok', 'repeat', 'one-trip', 'fail-then-ok', 'ok-then-fail', 'race', 'form', 'momo', 'pending', 'refused-sms'].map((name, i) => ({
      paymentRef: `ref-${name}`,
      phoneNumber: `25677000010${i}`,
      categoryId: catalogue.category.id,
      categoryLevel: 'vip',
      amount: 20000,
    })),
  );
  await insertTransactions(world, code, [{ paymentRef: 'ref-no-content', categoryId: catalogue.category.id, categoryLevel: 'ordinary', amount: 10000 }]);
  await createCampaigns(world);
  await insertVotes(world, WORLD_CUP, [{ phoneNumber: '256770000200', paymentRef: 'ref-vote', teamName: 'Senegal', isComplete: false }]);
});
afterAll(() => world.close());

const call = async (reference: string) => (await world.db.select().from(transactions).where(eq(transactions.paymentRef, reference)))[0];
const eventsOf = async (reference: string) =>
  world.db.select().from(transactionEvents).where(eq(transactionEvents.transactionId, (await call(reference)).id)).orderBy(transactionEvents.id);
const smsTo = (phoneNumber: string) => sent.filter((s) => s.phoneNumber === phoneNumber);
const post = (payload: string, headers: Record<string, string>) => world.app.inject({ method: 'POST', url: '/v1/payments/callback', payload, headers });

describe('POST /v1/payments/callback authentication', () => {
  it('refuses unsigned, wrongly signed and replayed-with-another-body callbacks with 401, changing nothing', async () => {
    const body = JSON.stringify({ reference: 'ref-ok', status: 'SUCCESSFUL' });
    const json = { 'content-type': 'application/json' };
    const attempts = [
      post(body, json),
      post(body, { ...json, 'x-callback-signature': signCallback(body, 'not-the-secret') }),
      post(body, { ...json, 'x-callback-signature': signCallback('{"reference":"ref-ok","status":"FAILED"}', TEST_CALLBACK_SECRET) }),
      post(body, { ...json, 'x-callback-signature': 'sha256=xyz' }),
      post(body, { ...json, 'x-callback-secret': TEST_CALLBACK_SECRET }),
      // Checked before the body is parsed or validated: garbage unsigned is 401 too, not 400.
      post('{not json', json),
      world.app.inject({ method: 'POST', url: '/v1/payments/callback' }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ status: false, message: 'Unknown caller' });
    }
    expect(await call('ref-ok')).toMatchObject({ isComplete: false, isDeleted: false, callbackTime: null });
    expect(await eventsOf('ref-ok')).toEqual([]);
    expect(smsTo((await call('ref-ok')).phoneNumber)).toEqual([]);
  });
});

describe('POST /v1/payments/callback settlement', () => {
  it('settles a signed SUCCESSFUL once: processed, the active content as ticket, one SMS, the events', async () => {
    const response = await world.pay('ref-ok', 'SUCCESSFUL');
    expect(response.json()).toMatchObject({ status: true, message: 'Payment recorded' });
    const settled = await call('ref-ok');
    expect(settled).toMatchObject({ isComplete: true, isDeleted: false, ticketMessage: 'VIP ticket 5521', messageStatuses: 'Sent' });
    expect(settled.ticketSmsRef).toMatch(/^ATXid_/);
    expect(smsTo(settled.phoneNumber)).toEqual([{ phoneNumber: settled.phoneNumber, message: 'VIP ticket 5521' }]);
    const events = await eventsOf('ref-ok');
    expect(events.map((e) => [e.kind, e.actor])).toEqual([
      ['payment_callback', 'provider:external'],
      ['payment_settled', 'provider:external'],
      ['sms_sent', 'system'],
    ]);
    expect(events[1].detail).toMatchObject({ status: 'SUCCESSFUL', via: 'callback' });
  });

  it('answers a repeated callback the same way without a second event, ticket or SMS', async () => {
    expect((await world.pay('ref-repeat', 'SUCCESSFUL')).json().message).toBe('Payment recorded');
    const first = await call('ref-repeat');
    for (let i = 0; i < 3; i += 1) expect((await world.pay('ref-repeat', 'SUCCESSFUL')).json().message).toBe('Payment already settled');
    expect(await call('ref-repeat')).toEqual(first);
    expect(smsTo(first.phoneNumber)).toHaveLength(1);
    expect((await eventsOf('ref-repeat')).map((e) => e.kind)).toEqual(['payment_callback', 'payment_settled', 'sms_sent']);
  });

  it('reads and records a repeated callback in one statement', async () => {
    // Providers retry until they hear 200: a repeat is the commonest callback, so it costs one round trip.
    expect((await world.pay('ref-one-trip', 'SUCCESSFUL')).json().message).toBe('Payment recorded');
    const client = (world.db as unknown as { $client: { query: (...args: unknown[]) => Promise<unknown> } }).$client;
    const statements = jest.spyOn(client, 'query');
    try {
      expect((await world.pay('ref-one-trip', 'FAILED')).json().message).toBe('Payment already settled');
      expect(statements).toHaveBeenCalledTimes(1);
    } finally {
      statements.mockRestore();
    }
    expect((await eventsOf('ref-one-trip')).map((e) => [e.kind, e.detail.status])).toEqual([
      ['payment_callback', 'SUCCESSFUL'],
      ['payment_settled', 'SUCCESSFUL'],
      ['sms_sent', 'Sent'],
      ['payment_callback', 'FAILED'],
    ]);
  });

  it('keeps the first final word when callbacks arrive out of order', async () => {
    expect((await world.pay('ref-fail-then-ok', 'FAILED')).json().message).toBe('Payment failed');
    expect((await world.pay('ref-fail-then-ok', 'SUCCESSFUL')).json().message).toBe('Payment already settled');
    const failed = await call('ref-fail-then-ok');
    expect(failed).toMatchObject({ isComplete: false, isDeleted: true, ticketMessage: null, messageStatuses: 'Payment failed' });
    expect(smsTo(failed.phoneNumber)).toEqual([]);

    expect((await world.pay('ref-ok-then-fail', 'SUCCESSFUL')).json().message).toBe('Payment recorded');
    expect((await world.pay('ref-ok-then-fail', 'FAILED')).json().message).toBe('Payment already settled');
    const paid = await call('ref-ok-then-fail');
    expect(paid).toMatchObject({ isComplete: true, isDeleted: false });
    // Both callbacks are on the timeline; only the first settled.
    expect((await eventsOf('ref-ok-then-fail')).map((e) => [e.kind, e.detail.status])).toEqual([
      ['payment_callback', 'SUCCESSFUL'],
      ['payment_settled', 'SUCCESSFUL'],
      ['sms_sent', 'Sent'],
      ['payment_callback', 'FAILED'],
    ]);
  });

  it('lets one of many concurrent duplicates settle: one ticket, one SMS', async () => {
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => world.pay('ref-race', i % 3 === 2 ? 'FAILED' : 'SUCCESSFUL')));
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(answers.filter((a) => a.json().message !== 'Payment already settled')).toHaveLength(1);
    const raced = await call('ref-race');
    expect(smsTo(raced.phoneNumber)).toHaveLength(raced.isComplete ? 1 : 0);
    expect((await eventsOf('ref-race')).filter((e) => e.kind === 'payment_settled')).toHaveLength(1);
  });

  it('is lenient about the body: a form, lower case, MoMo’s externalId and extra fields', async () => {
    expect((await world.callback('/v1/payments/callback', { reference: 'ref-form', status: 'successful', amount: '20000' }, 'form')).json().message).toBe('Payment recorded');
    const momo = { financialTransactionId: '363440463', externalId: 'ref-momo', amount: '20000', currency: 'UGX', payer: { partyIdType: 'MSISDN', partyId: '256770000106' }, status: 'FAILED', reason: 'APPROVAL_REJECTED' };
    expect((await world.callback('/v1/payments/callback', momo)).json().message).toBe('Payment failed');
    expect(await call('ref-form')).toMatchObject({ isComplete: true });
    expect(await call('ref-momo')).toMatchObject({ isDeleted: true });
  });

  it('records PENDING and settles nothing; refuses bad bodies with 400 and unknown references with 404', async () => {
    expect((await world.pay('ref-pending', 'PENDING')).json().message).toBe('Payment pending');
    expect(await call('ref-pending')).toMatchObject({ isComplete: false, isDeleted: false });
    expect((await eventsOf('ref-pending')).map((e) => [e.kind, e.detail.status])).toEqual([['payment_callback', 'PENDING']]);
    const missing = await world.callback('/v1/payments/callback', { reference: 'ref-pending' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual([{ field: 'status', message: 'status is required' }]);
    expect((await world.pay('ref-pending', 'MAYBE')).statusCode).toBe(400);
    expect((await world.callback('/v1/payments/callback', { status: 'FAILED' })).json().errors[0].field).toBe('reference');
    expect((await world.pay('no-such-ref', 'SUCCESSFUL')).statusCode).toBe(404);
  });

  it('says "No ticket content" without an active content, and confirms a vote by SMS', async () => {
    await world.pay('ref-no-content', 'SUCCESSFUL');
    expect(await call('ref-no-content')).toMatchObject({ isComplete: true, ticketMessage: null, messageStatuses: 'No ticket content' });
    expect((await eventsOf('ref-no-content')).map((e) => e.kind)).toEqual(['payment_callback', 'payment_settled']);

    await world.pay('ref-vote', 'SUCCESSFUL');
    const vote = await call('ref-vote');
    expect(vote).toMatchObject({ isComplete: true, messageStatuses: 'Sent', ticketMessage: 'Thank you. Your vote for Senegal has been recorded.' });
    expect(smsTo('256770000200')).toEqual([{ phoneNumber: '256770000200', message: 'Thank you. Your vote for Senegal has been recorded.' }]);
  });

  it('marks the ticket SMS Failed when the gateway refuses it, the payment still processed', async () => {
    const { phoneNumber } = await call('ref-refused-sms');
    refuse.add(phoneNumber);
    await world.pay('ref-refused-sms', 'SUCCESSFUL');
    expect(await call('ref-refused-sms')).toMatchObject({ isComplete: true, messageStatuses: 'Failed', ticketSmsRef: null });
    const [, , smsEvent] = await eventsOf('ref-refused-sms');
    expect(smsEvent).toMatchObject({ kind: 'sms_sent', detail: { status: 'Failed', failureReason: 'InvalidPhoneNumber' } });
  });
});
