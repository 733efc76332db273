import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { buildApp } from '../src/app';
import { signCallback, signedCallback } from '../src/ingestion/callback-signature';
import { transactionEvents, transactions } from '../src/db/schema';
import { buildTestWorld, TEST_CALLBACK_SECRET, type TestWorld } from './helpers';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

/** Delivery reports: authenticated first, and a ticket SMS's status landing on its call. */

jest.setTimeout(30_000);

const AT_TOKEN = 'at-callback-token-0123456789abcdef';

let world: TestWorld;
let code: string;
beforeAll(async () => {
  world = await buildTestWorld();
  code = (await createCatalogue(world, null)).code.name;
});
afterAll(() => world.close());

/** A processed call whose ticket SMS the gateway accepted under `ticketSmsRef`. */
async function paidCall(ticketSmsRef: string) {
  const [row] = await insertTransactions(world, code, [{ paymentRef: `pay-${ticketSmsRef}`, isComplete: true, ticketMessage: 'Gate 4', messageStatuses: 'Sent', ticketSmsRef }]);
  return row;
}
const reload = async (id: string) => (await world.db.select().from(transactions).where(eq(transactions.id, id)))[0];
const deliveryEvents = (id: string) => world.db.select().from(transactionEvents).where(eq(transactionEvents.transactionId, id)).orderBy(transactionEvents.id);
const report = (body: Record<string, string>) => world.callback('/v1/sms/delivery-report', body, 'form');

describe('delivery reports of ticket SMS', () => {
  it("land in the call's messageStatuses with an 'sms_delivery' event, once per report", async () => {
    const call = await paidCall('ATXid_ticket_1');
    expect((await report({ id: 'ATXid_ticket_1', status: 'Submitted', phoneNumber: '+256770000001', networkCode: '64110' })).json().message).toBe('Recorded');
    expect((await reload(call.id)).messageStatuses).toBe('Sent');
    for (let i = 0; i < 2; i += 1) await report({ id: 'ATXid_ticket_1', status: 'Success', phoneNumber: '+256770000001', networkCode: '64110', retryCount: '0' });
    expect((await reload(call.id)).messageStatuses).toBe('Delivered');
    expect((await deliveryEvents(call.id)).map((e) => [e.kind, e.actor, e.detail.status])).toEqual([
      ['sms_delivery', 'provider:local', 'Submitted'],
      ['sms_delivery', 'provider:local', 'Success'],
    ]);
    // A delivered ticket is never taken back by a later report.
    await report({ id: 'ATXid_ticket_1', status: 'Failed', failureReason: 'DeliveryFailure' });
    expect((await reload(call.id)).messageStatuses).toBe('Delivered');
  });

  it("marks a failed ticket SMS 'Failed' (so it can be resent), then 'Delivered' if it arrives after all", async () => {
    const call = await paidCall('ATXid_ticket_2');
    await report({ id: 'ATXid_ticket_2', status: 'Rejected', failureReason: 'UserInBlackList' });
    expect((await reload(call.id)).messageStatuses).toBe('Failed');
    expect((await deliveryEvents(call.id))[0].detail).toEqual({ status: 'Rejected', failureReason: 'UserInBlackList' });
    await report({ id: 'ATXid_ticket_2', status: 'Success' });
    expect((await reload(call.id)).messageStatuses).toBe('Delivered');
  });

  it('ignores a report for a ticket SMS a resend has replaced', async () => {
    const call = await paidCall('ATXid_ticket_3');
    await world.db.update(transactions).set({ ticketSmsRef: 'ATXid_ticket_3b' }).where(eq(transactions.id, call.id));
    expect((await report({ id: 'ATXid_ticket_3', status: 'Failed' })).json().message).toBe('Ignored');
    expect((await reload(call.id)).messageStatuses).toBe('Sent');
    expect(await deliveryEvents(call.id)).toEqual([]);
  });

  it('refuses an unsigned or wrongly signed report with 401 and changes nothing', async () => {
    const call = await paidCall('ATXid_ticket_4');
    const payload = new URLSearchParams({ id: 'ATXid_ticket_4', status: 'Failed' }).toString();
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    for (const headers of [form, { ...form, 'x-callback-signature': signCallback(payload, 'guess') }]) {
      const response = await world.app.inject({ method: 'POST', url: '/v1/sms/delivery-report', payload, headers });
      expect(response.statusCode).toBe(401);
    }
    expect((await reload(call.id)).messageStatuses).toBe('Sent');
    expect(await deliveryEvents(call.id)).toEqual([]);
  });
});

describe("delivery reports with SMS_PROVIDER=africastalking (AT signs nothing: a token in the URL)", () => {
  it('takes the token in the query, refuses reports without it or with a signature only, and logs the refusal', async () => {
    const logged: string[] = [];
    const stream = new Writable({ write: (chunk, _encoding, done) => void (logged.push(String(chunk)), done()) });
    const app = await buildApp({ db: world.db, jwtSecret: 'x', callbackSecret: TEST_CALLBACK_SECRET, deliveryReportToken: AT_TOKEN, logger: { level: 'warn', stream } });
    try {
      const call = await paidCall('ATXid_at_1');
      const form = { 'content-type': 'application/x-www-form-urlencoded' };
      const payload = new URLSearchParams({ id: 'ATXid_at_1', status: 'Success', phoneNumber: '+256770000001' }).toString();
      const post = (url: string, headers: Record<string, string> = form) => app.inject({ method: 'POST', url, payload, headers });

      expect((await post('/v1/sms/delivery-report')).statusCode).toBe(401);
      expect((await post('/v1/sms/delivery-report?token=wrong')).statusCode).toBe(401);
      expect((await post(`/v1/sms/delivery-report?token=${AT_TOKEN}x`)).statusCode).toBe(401);
      const signedOnly = signedCallback({ id: 'ATXid_at_1', status: 'Success' }, TEST_CALLBACK_SECRET, 'form');
      expect((await app.inject({ method: 'POST', url: '/v1/sms/delivery-report', ...signedOnly })).statusCode).toBe(401);
      expect((await reload(call.id)).messageStatuses).toBe('Sent');
      expect(logged.filter((line) => line.includes('unauthenticated callback refused'))).toHaveLength(4);
      expect(logged.join('')).not.toContain(AT_TOKEN);

      const accepted = await post(`/v1/sms/delivery-report?token=${AT_TOKEN}`);
      expect(accepted.json()).toMatchObject({ status: true, message: 'Recorded' });
      expect((await reload(call.id)).messageStatuses).toBe('Delivered');
    } finally {
      await app.close();
    }
  });
});
