import { categoryBody, type Headers } from './catalogue-fixtures';
import { buildTestWorld, type TestWorld } from './helpers';

/** Named malformed inputs (DESIGN §4), one by one; input-fuzz.test.ts throws the rest at every route. */

jest.setTimeout(30_000);

let world: TestWorld;
let admin: Headers;
let agent: Headers;
let agentId: string;
beforeAll(async () => {
  world = await buildTestWorld();
  admin = (await world.headersFor('admin')).headers;
  const a = await world.headersFor('agent');
  agent = a.headers;
  agentId = a.user.id;
}, 60_000);
afterAll(() => world.close());

const post = (url: string, payload: string | object, headers: Headers = {}, method: 'POST' | 'PATCH' = 'POST') =>
  world.app.inject({ method, url, headers: { 'content-type': 'application/json', ...headers }, payload: typeof payload === 'string' ? payload : JSON.stringify(payload) });
const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

describe('bad input gets a field error, never a 500', () => {
  it('refuses NUL in text with "Invalid value", signed in or not', async () => {
    const login = await post('/v1/auth/login', { userName: 'kato\u0000', password: 'password-123' });
    expect(login.statusCode).toBe(400);
    expect(login.json().errors).toEqual([{ field: 'userName', message: 'Invalid value' }]);
    const report = await world.callback('/v1/sms/delivery-report', { id: 'ATX\u0000', status: 'Success' });
    expect(report.statusCode).toBe(400);
    const category = await post('/v1/category', categoryBody(agentId, { description: 'Weekend\u0000' }), admin);
    expect(category.json().errors).toEqual([{ field: 'description', message: 'Invalid value' }]);
    const failed = await world.app.inject({ method: 'GET', url: '/v1/transactions/to/give/attention?name=%00', headers: agent });
    expect(failed.statusCode).toBe(400);
  });

  it('refuses other control characters in one-line text but keeps line breaks in messages', async () => {
    const sms = { categoryLevel: 'vip', phoneNumber: '256750461234' };
    expect((await post('/v1/sms', { ...sms, message: 'Gate 4\nSeat 12' }, agent)).statusCode).toBe(201);
    expect((await post('/v1/sms', { ...sms, message: 'Gate 4\u001b' }, agent)).json().errors).toEqual([{ field: 'message', message: 'Invalid value' }]);
    expect((await post('/v1/auth/create/other', { userName: 'new\tagent', password: 'password-123', role: 'agent' }, admin)).statusCode).toBe(400);
  });

  it('refuses an object in a number or boolean field', async () => {
    // A required field given an object reads as missing, an optional one as invalid.
    const price = await post('/v1/category', categoryBody(agentId, { ordinary: { toString: 'x' }, odd2: { valueOf: 'x' } }), admin);
    expect(price.statusCode).toBe(400);
    expect(price.json().errors).toEqual([
      { field: 'ordinary', message: 'Please specify the price' },
      { field: 'odd2', message: 'Invalid value' },
    ]);
    const afcon = await post(`/v1/users/${agentId}`, { userName: 'x', isAfcon: { toString: 'x' } }, admin, 'PATCH');
    expect(afcon.json().errors).toEqual([{ field: 'isAfcon', message: 'Invalid value' }]);
    const resolved = await post('/v1/transactions/to/give/attention/00000000-0000-0000-0000-000000000000', { isResolved: 'yes please' }, agent);
    expect(resolved.json().errors).toEqual([{ field: 'isResolved', message: 'Invalid value' }]);
  });

  it('answers deep nesting and huge values small, without echoing them', async () => {
    const deep = await post('/v1/transactions/to/give/attention/00000000-0000-0000-0000-000000000000', `{"isResolved":${nested(5000)}}`, agent);
    expect(deep.statusCode).toBe(400);
    const wide = await post('/v1/ticket', `{"active":[${Array.from({ length: 2000 }, () => '{"a":[1,2,3]}').join(',')}]}`, agent);
    expect(wide.statusCode).toBe(400);
    expect(wide.rawPayload.length).toBeLessThan(1000);
    const name = await post('/v1/ticket', { name: 'x'.repeat(100_000), category: '0', categoryLevel: 'vip', message: 'Hi' }, agent);
    expect(name.json().errors).toContainEqual({ field: 'name', message: 'Must be at most 100 characters' });
    expect(name.rawPayload.length).toBeLessThan(1000);
  });

  it('answers a bad address in the envelope without repeating it', async () => {
    const unknown = await world.app.inject({ method: 'GET', url: `/v1/${'secret'.repeat(50)}` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).not.toContain('secret');
    const long = await world.app.inject({ method: 'PATCH', url: `/v1/users/${'x'.repeat(3000)}`, headers: admin, payload: {} });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({ status: false, message: 'The address is too long', errors: [] });
  });

  it('refuses an export filter before the first byte', async () => {
    const response = await world.app.inject({ method: 'GET', url: '/v1/transactions/export?name=%00', headers: admin });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([{ field: 'name', message: 'Invalid value' }]);
  });
});
