import crypto from 'node:crypto';
import type { Refund } from '../../src/domain/refunds';
import { paymentProviderFor } from '../src/providers/payment-from-config';
import type { SmsProvider } from '../src/providers/sms';
import { buildTestWorld, eventually, type TestWorld } from './helpers';
import { follow, listening } from './live-fixtures';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

/**
 * Refunds through the local (demo) provider: completed after PAYMENT_LOCAL_DELAY_MS, or failed for
 * the configured share; and every step heard on the live stream as `event: refund`.
 */

jest.setTimeout(60_000);

const sent: string[] = [];
const sms: SmsProvider = {
  name: 'counting',
  async send(message) {
    sent.push(message.message);
    return { status: 'sent', providerRef: `sms-${sent.length}` };
  },
};

let world: TestWorld;
let code: string;
let care: Record<string, string>;
let admin: Record<string, string>;

beforeAll(async () => {
  const payment = paymentProviderFor({ kind: 'local', delayMs: 80, failRate: 0, refundFailRate: 0.5 }, () => {});
  world = await buildTestWorld({ providers: { sms, payment } });
  care = (await world.headersFor('customer-care')).headers;
  admin = (await world.headersFor('admin')).headers;
  code = (await createCatalogue(world, null)).code.name;
});
afterAll(() => world.close());

const requestAndApprove = async (amount: number) => {
  const [call] = await insertTransactions(world, code, [{ isComplete: true, amount, categoryLevel: 'ordinary', paymentRef: crypto.randomUUID() }]);
  const refund = (await world.app.inject({ method: 'POST', url: `/v1/transactions/${call.id}/refunds`, headers: care, payload: { reason: 'customer-request' } })).json().results as Refund;
  const approved = await world.app.inject({ method: 'POST', url: `/v1/refunds/${refund._id}/approve`, headers: admin });
  expect(approved.json().results.state).toBe('submitted');
  return refund;
};

const stateOf = async (id: string) => (await world.app.inject({ method: 'GET', url: `/v1/refunds/${id}`, headers: admin })).json().results.state as string;

describe('the local provider', () => {
  it('completes a refund after its delay, or fails it, each heard on the live stream', async () => {
    const stream = await follow(await listening(world.app), admin);
    try {
      // Math.random decides; try until one of each outcome is seen (a half share each way).
      const outcomes = new Set<string>();
      for (let i = 0; i < 12 && outcomes.size < 2; i += 1) {
        const refund = await requestAndApprove(3000 + i);
        await eventually(async () => ['completed', 'failed'].includes(await stateOf(refund._id)));
        const state = await stateOf(refund._id);
        outcomes.add(state);
        const heard = await stream.waitFor((event) => event.event === 'refund' && event.data._id === refund._id && event.data.state === state);
        expect(heard.data).toEqual({ _id: refund._id, transactionId: refund.transactionId, state });
      }
      expect([...outcomes].sort()).toEqual(['completed', 'failed']);
      expect(sent.every((text) => /^UGX 3,0\d\d for your Ordinary ticket has been refunded\.$/.test(text))).toBe(true);
    } finally {
      await stream.close();
    }
  });
});
