import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../src/config';
import { PaymentProviderUnavailable, type RefundDecision } from '../src/providers/payment';
import { momoDisbursementRefunds, type MomoDisbursementOptions } from '../src/providers/refund-momo';
import { eventually } from './helpers';

/**
 * The MoMo Disbursement refund adapter against a fake of its HTTP API on 127.0.0.1: the request's
 * shape and headers, the 202, the status poll that settles it, 409 as the same refund, and an
 * uncertain submission (5xx, no answer) never sent again. The real MoMo is never called.
 */

jest.setTimeout(30_000);

interface Seen {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const script: Record<string, { status: number; body?: unknown }[]> = {};
const seen: Seen[] = [];
let tokens = 0;
let server: http.Server;
let baseUrl: string;

const SUBSCRIPTION_KEY = 'disb-sub-key';
const API_USER = 'b1b2c3d4-0000-4000-8000-000000000002';
const API_KEY = 'disb-api-key';
const REF = '7f9619ff-8b86-4d01-b42d-00cf4fc964aa';
const PAYMENT_REF = '6f9619ff-8b86-4d01-b42d-00cf4fc964ff';

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      seen.push({ method: request.method ?? '', path, headers: request.headers, body });
      if (path === '/disbursement/token/') {
        const basic = `Basic ${Buffer.from(`${API_USER}:${API_KEY}`).toString('base64')}`;
        if (request.headers.authorization !== basic || request.headers['ocp-apim-subscription-key'] !== SUBSCRIPTION_KEY) return void response.writeHead(401).end();
        tokens += 1;
        return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: `disb-token-${tokens}`, expires_in: 3600 }));
      }
      const route = path === '/disbursement/v1_0/refund' ? 'refund' : 'status';
      const queue = script[route] ?? [];
      const answer = (queue.length > 1 ? queue.shift() : queue[0]) ?? { status: route === 'refund' ? 202 : 404 };
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  seen.length = 0;
  for (const key of Object.keys(script)) delete script[key];
});

const momo = (extra: Partial<MomoDisbursementOptions> = {}) =>
  momoDisbursementRefunds({ baseUrl, subscriptionKey: SUBSCRIPTION_KEY, apiUser: API_USER, apiKey: API_KEY, targetEnvironment: 'sandbox', currency: 'EUR', pollAfterMs: [], ...extra });
const request = { reference: REF, paymentRef: PAYMENT_REF, phoneNumber: '256772000111', amount: 5000 };

describe('MoMo Disbursement refunds', () => {
  it("sends the refund in MoMo's shape with its own key, reference and the collection's reference, and takes 202 as accepted", async () => {
    const provider = momo({ callbackUrl: 'https://dialdesk.example/v1/payments/callback' });
    expect(await provider.refund(request)).toEqual({ accepted: true });
    const post = seen.find((s) => s.path === '/disbursement/v1_0/refund')!;
    expect(post.method).toBe('POST');
    expect(post.headers).toMatchObject({
      authorization: 'Bearer disb-token-1',
      'x-reference-id': REF,
      'x-target-environment': 'sandbox',
      'ocp-apim-subscription-key': SUBSCRIPTION_KEY,
      'x-callback-url': 'https://dialdesk.example/v1/payments/callback',
      'content-type': 'application/json',
    });
    expect(JSON.parse(post.body)).toEqual({ amount: '5000', currency: 'EUR', externalId: REF, payerMessage: 'Dialdesk refund', payeeNote: REF, referenceIdToRefund: PAYMENT_REF });
    await provider.close();
  });

  it('polls the status without a callback URL and settles the refund once MoMo decides', async () => {
    const decisions: RefundDecision[] = [];
    script.status = [{ status: 200, body: { status: 'PENDING' } }, { status: 200, body: { status: 'SUCCESSFUL' } }];
    const provider = momo({ pollAfterMs: [10, 20, 40], settleRefund: async (decision) => void decisions.push(decision) });
    expect(await provider.refund(request)).toEqual({ accepted: true });
    await eventually(() => decisions.length === 1);
    expect(decisions[0]).toMatchObject({ reference: REF, status: 'SUCCESSFUL', actor: 'provider:momo', via: 'poll' });
    const polls = seen.filter((s) => s.path === `/disbursement/v1_0/refund/${REF}`);
    expect(polls.map((s) => s.method)).toEqual(['GET', 'GET']);
    expect(polls[0].headers).toMatchObject({ authorization: 'Bearer disb-token-2', 'x-target-environment': 'sandbox', 'ocp-apim-subscription-key': SUBSCRIPTION_KEY });
    await provider.close();
  });

  it('maps the status answers: FAILED, pending, and 404 as never received', async () => {
    const provider = momo();
    script.status = [{ status: 200, body: { status: 'FAILED' } }, { status: 200, body: { status: 'PENDING' } }, { status: 404 }];
    expect(await provider.refundStatus(REF)).toBe('FAILED');
    expect(await provider.refundStatus(REF)).toBe('PENDING');
    expect(await provider.refundStatus(REF)).toBe('NOT_FOUND');
    await provider.close();
  });

  it('takes 409 as the same refund sent before, refuses a 400, and sends an uncertain one only once', async () => {
    const provider = momo();
    script.refund = [{ status: 409 }, { status: 400 }, { status: 503 }];
    expect(await provider.refund(request)).toEqual({ accepted: true });
    expect((await provider.refund(request)).accepted).toBe(false);
    seen.length = 0;
    await expect(provider.refund(request)).rejects.toBeInstanceOf(PaymentProviderUnavailable);
    // No retry: the outcome is for the sweeper to ask about.
    expect(seen.filter((s) => s.path === '/disbursement/v1_0/refund')).toHaveLength(1);
    expect(await momo().refund({ ...request, paymentRef: null })).toEqual({ accepted: false, reason: 'The call has no MoMo payment to refund' });
    await provider.close();
  });

  it('is configured by MOMO_DISBURSEMENT_*, all or none', () => {
    const env = { PAYMENT_PROVIDER: 'momo', MOMO_SUBSCRIPTION_KEY: 'c', MOMO_API_USER: 'u', MOMO_API_KEY: 'k', JWT_SECRET: 'x', PAYMENT_CALLBACK_SECRET: 'y', USSD_CALLBACK_TOKEN: 'z'.repeat(20), DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'refund-momo-config-')) };
    const none = loadConfig(env).payment;
    expect(none.kind === 'momo' && none.disbursement).toBeUndefined();
    const all = loadConfig({ ...env, MOMO_DISBURSEMENT_SUBSCRIPTION_KEY: 'ds', MOMO_DISBURSEMENT_API_USER: 'du', MOMO_DISBURSEMENT_API_KEY: 'dk' }).payment;
    expect(all.kind === 'momo' && all.disbursement).toMatchObject({ subscriptionKey: 'ds', apiUser: 'du', apiKey: 'dk', targetEnvironment: 'sandbox', currency: 'EUR' });
    expect(() => loadConfig({ ...env, MOMO_DISBURSEMENT_SUBSCRIPTION_KEY: 'ds' })).toThrow('MOMO_DISBURSEMENT_API_USER, MOMO_DISBURSEMENT_API_KEY');
  });
});
