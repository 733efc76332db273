import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { momoPaymentProvider, PaymentProviderUnavailable, type MomoOptions } from '../src/providers/payment-momo';

/**
 * The MoMo adapter against a fake MTN MoMo Collections server on 127.0.0.1, started here: the
 * shape of each request, the OAuth token's caching and expiry, retries with backoff, 409 and the
 * status mapping. The real MoMo is never called.
 */

jest.setTimeout(30_000);

interface Seen {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

/** Answers per route, taken in turn (the last one repeats); a token request gets a fresh token. */
const script: Record<string, { status: number; body?: unknown }[]> = {};
const seen: Seen[] = [];
let tokens = 0;
let server: http.Server;
let baseUrl: string;

const SUBSCRIPTION_KEY = 'sub-key-123';
const API_USER = 'a1b2c3d4-0000-4000-8000-000000000001';
const API_KEY = 'api-key-456';
const REF = '6f9619ff-8b86-4d01-b42d-00cf4fc964ff';

beforeAll(async () => {
  server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      seen.push({ method: request.method ?? '', path, headers: request.headers, body, at: Date.now() });
      const route = path === '/collection/token/' ? 'token' : path === '/collection/v1_0/requesttopay' ? 'requesttopay' : 'status';
      if (route === 'token') {
        const basic = `Basic ${Buffer.from(`${API_USER}:${API_KEY}`).toString('base64')}`;
        if (request.headers.authorization !== basic || request.headers['ocp-apim-subscription-key'] !== SUBSCRIPTION_KEY) return void response.writeHead(401).end();
        tokens += 1;
        return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: `token-${tokens}`, token_type: 'access_token', expires_in: 3600 }));
      }
      const queue = script[route] ?? [];
      const answer = (queue.length > 1 ? queue.shift() : queue[0]) ?? { status: route === 'requesttopay' ? 202 : 404 };
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  // The test's own port range (4400–4499).
  await new Promise<void>((resolve) => server.listen(4410, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  seen.length = 0;
  for (const key of Object.keys(script)) delete script[key];
});

let clock = 1_000_000;
const momo = (extra: Partial<MomoOptions> = {}) =>
  momoPaymentProvider({
    baseUrl,
    subscriptionKey: SUBSCRIPTION_KEY,
    apiUser: API_USER,
    apiKey: API_KEY,
    targetEnvironment: 'sandbox',
    currency: 'EUR',
    retryDelayMs: 40,
    now: () => clock,
    pollAfterMs: [],
    ...extra,
  });
const ofRoute = (path: string) => seen.filter((s) => s.path === path);

describe('MoMo requesttopay', () => {
  it('sends the request with our reference, the token and the environment, in MoMo’s shape', async () => {
    const provider = momo({ callbackUrl: 'https://dialdesk.example/v1/payments/callback' });
    expect(await provider.collect({ reference: REF, phoneNumber: '+256772000111', amount: 6000 })).toEqual({ accepted: true, providerRef: REF });
    const [token, request] = seen;
    expect(token).toMatchObject({ method: 'POST', path: '/collection/token/' });
    expect(request).toMatchObject({ method: 'POST', path: '/collection/v1_0/requesttopay' });
    expect(request.headers).toMatchObject({
      authorization: 'Bearer token-' + tokens,
      'x-reference-id': REF,
      'x-target-environment': 'sandbox',
      'ocp-apim-subscription-key': SUBSCRIPTION_KEY,
      'x-callback-url': 'https://dialdesk.example/v1/payments/callback',
      'content-type': 'application/json',
    });
    expect(JSON.parse(request.body)).toEqual({
      amount: '6000',
      currency: 'EUR',
      externalId: REF,
      payer: { partyIdType: 'MSISDN', partyId: '256772000111' },
      payerMessage: 'Dialdesk ticket',
      payeeNote: REF,
    });
  });

  it('caches the token until it is about to expire, then asks for a new one', async () => {
    const provider = momo();
    const before = tokens;
    await Promise.all([1, 2, 3].map((i) => provider.collect({ reference: `${REF}-${i}`, phoneNumber: '256772000111', amount: 1000 })));
    expect(tokens - before).toBe(1);
    clock += 3_000_000; // 50 minutes: still valid
    await provider.collect({ reference: `${REF}-4`, phoneNumber: '256772000111', amount: 1000 });
    expect(tokens - before).toBe(1);
    clock += 600_000; // 60 minutes: expired (renewed a little before)
    await provider.collect({ reference: `${REF}-5`, phoneNumber: '256772000111', amount: 1000 });
    expect(tokens - before).toBe(2);
    expect(ofRoute('/collection/v1_0/requesttopay').at(-1)!.headers.authorization).toBe(`Bearer token-${tokens}`);
  });

  it('retries 5xx with growing waits, and treats 409 (already requested) as accepted', async () => {
    script.requesttopay = [{ status: 500 }, { status: 503 }, { status: 409, body: { code: 'RESOURCE_ALREADY_EXIST' } }];
    const provider = momo();
    expect(await provider.collect({ reference: REF, phoneNumber: '256772000111', amount: 1000 })).toEqual({ accepted: true, providerRef: REF });
    const tries = ofRoute('/collection/v1_0/requesttopay');
    expect(tries).toHaveLength(3);
    expect(tries.every((t) => t.headers['x-reference-id'] === REF)).toBe(true);
    expect(tries[1].at - tries[0].at).toBeGreaterThanOrEqual(35);
    expect(tries[2].at - tries[1].at).toBeGreaterThanOrEqual(75);
  });

  it('gives up after its tries on 5xx or an unreachable host, and reports a refusal as not accepted', async () => {
    script.requesttopay = [{ status: 502 }];
    await expect(momo({ attempts: 2 }).collect({ reference: REF, phoneNumber: '256772000111', amount: 1000 })).rejects.toBeInstanceOf(PaymentProviderUnavailable);
    expect(ofRoute('/collection/v1_0/requesttopay')).toHaveLength(2);
    // Nothing listens on 4411.
    const down = momo({ baseUrl: 'http://127.0.0.1:4411', attempts: 3, retryDelayMs: 5 });
    await expect(down.collect({ reference: REF, phoneNumber: '256772000111', amount: 1000 })).rejects.toThrow(/MoMo unreachable/);
    script.requesttopay = [{ status: 400, body: { code: 'PAYER_NOT_FOUND' } }];
    expect(await momo().collect({ reference: REF, phoneNumber: '256772000111', amount: 1000 })).toEqual({ accepted: false, providerRef: REF });
  });

  it('refuses wrong credentials as unavailable, not as a payment refusal', async () => {
    await expect(momo({ apiKey: 'wrong' }).collect({ reference: REF, phoneNumber: '256772000111', amount: 1000 })).rejects.toThrow(/token/);
  });
});

describe('MoMo status', () => {
  it('maps MoMo’s answer to ours', async () => {
    const provider = momo();
    const cases: [{ status: number; body?: unknown }, string][] = [
      [{ status: 200, body: { status: 'SUCCESSFUL', financialTransactionId: '1' } }, 'SUCCESSFUL'],
      [{ status: 200, body: { status: 'FAILED', reason: 'APPROVAL_REJECTED' } }, 'FAILED'],
      [{ status: 200, body: { status: 'PENDING' } }, 'PENDING'],
      [{ status: 200, body: { status: 'ONGOING' } }, 'PENDING'],
      [{ status: 404, body: { code: 'RESOURCE_NOT_FOUND' } }, 'FAILED'],
    ];
    for (const [answer, expected] of cases) {
      script.status = [answer];
      expect(await provider.status(REF)).toBe(expected);
    }
    const asked = ofRoute(`/collection/v1_0/requesttopay/${REF}`);
    expect(asked).toHaveLength(cases.length);
    expect(asked[0].headers).toMatchObject({ 'x-target-environment': 'sandbox', 'ocp-apim-subscription-key': SUBSCRIPTION_KEY });
    expect(asked[0].headers.authorization).toMatch(/^Bearer token-/);
    expect(asked[0].method).toBe('GET');
  });

  it('gives MoMo’s reason for a failure in its words, whichever shape it comes in', async () => {
    const provider = momo();
    const cases: [unknown, string | null][] = [
      [{ status: 'FAILED', reason: 'APPROVAL_REJECTED' }, 'APPROVAL_REJECTED'],
      [{ status: 'FAILED', reason: { code: 'PAYER_LIMIT_REACHED', message: 'The payer has reached a limit' } }, 'The payer has reached a limit'],
      [{ status: 'FAILED', reason: `NOT\u0000ENOUGH_FUNDS${'x'.repeat(400)}` }, `NOT ENOUGH_FUNDS${'x'.repeat(284)}`],
      [{ status: 'FAILED' }, null],
      [{ status: 'SUCCESSFUL', reason: 'ignored' }, null],
    ];
    for (const [body, expected] of cases) {
      script.status = [{ status: 200, body }];
      expect((await provider.answer!(REF)).failureReason).toBe(expected);
    }
  });

  it('renews a token MoMo no longer takes, retries 5xx, and throws when it cannot ask', async () => {
    const provider = momo();
    script.status = [{ status: 200, body: { status: 'PENDING' } }];
    await provider.status(REF);
    const before = tokens;
    script.status = [{ status: 401 }, { status: 500 }, { status: 200, body: { status: 'SUCCESSFUL' } }];
    expect(await provider.status(REF)).toBe('SUCCESSFUL');
    expect(tokens).toBe(before + 1);
    script.status = [{ status: 503 }];
    await expect(provider.status(REF)).rejects.toBeInstanceOf(PaymentProviderUnavailable);
  });

  it('polls after a request and settles what MoMo decided', async () => {
    const decided: [string, string][] = [];
    script.status = [{ status: 200, body: { status: 'PENDING' } }, { status: 200, body: { status: 'SUCCESSFUL' } }];
    const provider = momo({ pollAfterMs: [20, 60, 500], settle: async ({ reference, status }) => void decided.push([reference, status]) });
    await provider.collect({ reference: REF, phoneNumber: '256772000111', amount: 1000 });
    for (const deadline = Date.now() + 5_000; decided.length === 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 20));
    expect(decided).toEqual([[REF, 'SUCCESSFUL']]);
    expect(ofRoute(`/collection/v1_0/requesttopay/${REF}`)).toHaveLength(2);
    await provider.close!();
  });
});
