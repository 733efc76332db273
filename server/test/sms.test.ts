import { eq } from 'drizzle-orm';
import { smsMessages } from '../src/db/schema';
import { smsSettings } from '../src/config';
import { africasTalkingSmsProvider, smsProviderFor } from '../src/providers/africastalking-sms';
import { buildApp } from '../src/app';
import { buildTestWorld, TEST_PASSWORD, type TestWorld } from './helpers';
import type { Headers } from './catalogue-fixtures';

let world: TestWorld;
let admin: Headers;
let agent: { id: string; userName: string; headers: Headers };

beforeAll(async () => {
  world = await buildTestWorld();
  admin = (await world.headersFor('admin')).headers;
  const a = await world.headersFor('agent');
  agent = { id: a.user.id, userName: a.user.userName, headers: a.headers };
}, 60_000);
afterAll(() => world.close());

const send = (headers: Headers | undefined, payload: object) => world.app.inject({ method: 'POST', url: '/v1/sms', headers, payload });
const sms = (overrides: object = {}) => ({ categoryLevel: 'vip', phoneNumber: '256750461234', message: 'Your ticket 4321', ...overrides });
const outboxRow = async (id: string) => (await world.db.select().from(smsMessages).where(eq(smsMessages.id, id)))[0];
/** A delivery report as the gateway sends it (form) or as JSON, signed with the world's secret. */
const report = (payload: Record<string, string>, form = true) => world.callback('/v1/sms/delivery-report', payload, form ? 'form' : 'json');

describe('POST /v1/sms', () => {
  it('sends through the provider and records the outbox row with who sent it', async () => {
    const response = await send(agent.headers, sms());
    expect(response.statusCode).toBe(201);
    const { results } = response.json();
    expect(results).toMatchObject({ phoneNumber: '256750461234', message: 'Your ticket 4321', categoryLevel: 'vip', status: 'sent', user: { _id: agent.id, userName: agent.userName } });
    const row = await outboxRow(results._id);
    expect(row).toMatchObject({ userId: agent.id, provider: 'local', status: 'sent' });
    expect(row.providerRef).toMatch(/^local-/);
  });

  it('takes a number in any of its forms and sends to its one form (+256…, 00256…, 0…)', async () => {
    for (const phoneNumber of ['+256750461234', '00256750461234', '0750461234']) {
      const response = await send(agent.headers, sms({ phoneNumber }));
      expect([phoneNumber, response.statusCode, response.json().results.phoneNumber]).toEqual([phoneNumber, 201, '256750461234']);
    }
  });

  it('answers 400 with the phone format message and level rules', async () => {
    for (const phoneNumber of ['075046123', '25675046123', '2567504612345', '256650461234', '']) {
      const response = await send(admin, sms({ phoneNumber }));
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([{ field: 'phoneNumber', message: 'Phone number must be in this format (256750461xxx)' }]);
    }
    const empty = await send(admin, {});
    expect(empty.json().errors.map((e: { field: string }) => e.field).sort()).toEqual(['categoryLevel', 'message', 'phoneNumber']);
    const supper = await send(admin, sms({ categoryLevel: 'supper' }));
    expect(supper.json().errors).toEqual([{ field: 'categoryLevel', message: 'Please select the category level' }]);
    expect((await send(admin, sms({ message: 'x'.repeat(161) }))).statusCode).toBe(400);
    expect((await send(undefined, sms())).statusCode).toBe(401);
  });
});

describe('POST /v1/sms when the gateway refuses', () => {
  it('answers 502 and keeps the outbox row as failed with the reason', async () => {
    const refusing = { name: 'refusing', send: async () => ({ status: 'failed' as const, providerRef: null, failureReason: 'InsufficientBalance' }) };
    const app = await buildApp({ db: world.db, jwtSecret: 'other-secret', providers: { sms: refusing } });
    try {
      const sender = await world.createUser('agent');
      const login = await app.inject({ method: 'POST', url: '/v1/auth/login', payload: { userName: sender.userName, password: TEST_PASSWORD } });
      const headers = { authorization: `Bearer ${login.json().results.accessToken}` };
      const response = await app.inject({ method: 'POST', url: '/v1/sms', headers, payload: sms() });
      expect(response.statusCode).toBe(502);
      expect(response.json()).toMatchObject({ status: false, message: 'Unable to send sms' });
      const [row] = await world.db.select().from(smsMessages).where(eq(smsMessages.userId, sender.id));
      expect(row).toMatchObject({ status: 'failed', provider: 'refusing', failureReason: 'InsufficientBalance' });
    } finally {
      await app.close();
    }
  });
});

describe('GET /v1/sms', () => {
  it('shows an agent only its own messages and managers all of them, newest first', async () => {
    const other = await world.headersFor('agent');
    const mine = (await send(other.headers, sms({ message: 'from the other agent' }))).json().results;
    const byAdmin = (await send(admin, sms({ message: 'from admin' }))).json().results;
    const own = (await world.app.inject({ method: 'GET', url: '/v1/sms?page=1', headers: other.headers })).json().results;
    expect(own.docs.map((s: { _id: string }) => s._id)).toEqual([mine._id]);
    const all = (await world.app.inject({ method: 'GET', url: '/v1/sms?page=1&limit=100', headers: admin })).json().results;
    expect(all.docs[0]).toMatchObject({ _id: byAdmin._id, status: 'sent' });
    expect(all.docs.map((s: { _id: string }) => s._id)).toContain(mine._id);
    expect((await world.app.inject({ method: 'GET', url: '/v1/sms?page=1' })).statusCode).toBe(401);
  });
});

describe('POST /v1/sms/delivery-report', () => {
  it('marks the message found by its provider reference, idempotently, form or JSON', async () => {
    const sent = (await send(admin, sms())).json().results;
    const { providerRef } = await outboxRow(sent._id);
    expect((await report({ id: providerRef!, status: 'Success' })).statusCode).toBe(200);
    expect((await outboxRow(sent._id)).status).toBe('delivered');
    // A late 'Sent' report does not step a final status back.
    await report({ id: providerRef!, status: 'Sent' }, false);
    expect((await outboxRow(sent._id)).status).toBe('delivered');
    await report({ id: providerRef!, status: 'Failed', failureReason: 'UserInBlacklist' }, false);
    expect(await outboxRow(sent._id)).toMatchObject({ status: 'failed', failureReason: 'UserInBlacklist' });
  });

  it('acknowledges unknown ids and refuses reports without id or status', async () => {
    expect((await report({ id: 'ATXid_unknown', status: 'Success' })).statusCode).toBe(200);
    expect((await report({ status: 'Success' })).statusCode).toBe(400);
    expect((await report({ id: 'x', status: 'Weird' })).statusCode).toBe(400);
  });
});

describe("Africa's Talking provider", () => {
  type Call = { url: string; init: RequestInit };
  const stubFetch = (status: number, body: unknown, calls: Call[] = []) =>
    (async (url: string | URL | Request, init?: RequestInit) => {
      calls.push({ url: String(url), init: init ?? {} });
      return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status });
    }) as typeof fetch;

  it('posts the form with the api key and reads the message id', async () => {
    const calls: Call[] = [];
    const answer = { SMSMessageData: { Message: 'Sent to 1/1', Recipients: [{ statusCode: 101, status: 'Success', messageId: 'ATXid_1', number: '+256750461234' }] } };
    const provider = africasTalkingSmsProvider({ username: 'sandbox', apiKey: 'key-1', senderId: 'DIALDESK', fetch: stubFetch(201, answer, calls) });
    expect(await provider.send({ phoneNumber: '256750461234', message: 'Hi' })).toEqual({ status: 'sent', providerRef: 'ATXid_1' });
    expect(calls[0].url).toBe('https://api.sandbox.africastalking.com/version1/messaging');
    expect((calls[0].init.headers as Record<string, string>).apiKey).toBe('key-1');
    expect(Object.fromEntries(new URLSearchParams(String(calls[0].init.body)))).toEqual({ username: 'sandbox', to: '+256750461234', message: 'Hi', from: 'DIALDESK' });
  });

  it('reports refusals, errors and unreachable gateways as failed', async () => {
    const refused = { SMSMessageData: { Recipients: [{ statusCode: 403, status: 'InvalidPhoneNumber', messageId: 'None' }] } };
    const live = (f: typeof fetch) => africasTalkingSmsProvider({ username: 'live', apiKey: 'k', fetch: f });
    expect(await live(stubFetch(201, refused)).send({ phoneNumber: '256750461234', message: 'Hi' })).toEqual({ status: 'failed', providerRef: null, failureReason: 'InvalidPhoneNumber' });
    expect((await live(stubFetch(401, 'The supplied authentication is invalid')).send({ phoneNumber: '256750461234', message: 'Hi' })).status).toBe('failed');
    const down = (async () => {
      throw new Error('ECONNREFUSED');
    }) as typeof fetch;
    expect((await live(down).send({ phoneNumber: '256750461234', message: 'Hi' })).failureReason).toMatch(/ECONNREFUSED/);
  });

  it('is chosen by SMS_PROVIDER and needs its credentials', () => {
    expect(smsProviderFor(smsSettings({})).name).toBe('local');
    expect(smsProviderFor(smsSettings({ SMS_PROVIDER: 'africastalking', AT_USERNAME: 'u', AT_API_KEY: 'k' }), stubFetch(200, {})).name).toBe('africastalking');
    expect(() => smsProviderFor(smsSettings({ SMS_PROVIDER: 'africastalking' }))).toThrow(/AT_USERNAME/);
    expect(() => smsProviderFor(smsSettings({ SMS_PROVIDER: 'pigeon' }))).toThrow(/Unknown SMS_PROVIDER/);
  });

  it('local: SMS_LOCAL_FAIL_RATE refuses every (1 / rate)-th message, and the same message resent right after goes through', async () => {
    expect(() => smsProviderFor(smsSettings({ SMS_LOCAL_FAIL_RATE: '2' }))).toThrow(/SMS_LOCAL_FAIL_RATE/);
    const never = smsProviderFor(smsSettings({}));
    for (let i = 0; i < 20; i += 1) expect((await never.send({ phoneNumber: '256750461234', message: `Ticket ${i}` })).status).toBe('sent');
    const local = smsProviderFor(smsSettings({ SMS_LOCAL_FAIL_RATE: '0.25' }));
    const statuses = [];
    for (let i = 0; i < 8; i += 1) statuses.push((await local.send({ phoneNumber: '256750461234', message: `Ticket ${i}` })).status);
    expect(statuses).toEqual(['sent', 'sent', 'sent', 'failed', 'sent', 'sent', 'sent', 'failed']);
    const refused = await local.send({ phoneNumber: '256750461234', message: 'Ticket 3' });
    expect(refused.status).toBe('sent');
    // Counted like any message: the next refusal still comes on time.
    expect((await local.send({ phoneNumber: '256750469999', message: 'Ticket 9' })).status).toBe('sent');
    expect((await local.send({ phoneNumber: '256750469999', message: 'Ticket 10' })).status).toBe('sent');
    const next = await local.send({ phoneNumber: '256750469999', message: 'Ticket 12' });
    expect(next).toMatchObject({ status: 'failed', failureReason: expect.stringMatching(/unreachable/) });
  });
});
