import { eq } from 'drizzle-orm';
import { users } from '../src/db/schema';
import { buildTestWorld, type TestWorld } from './helpers';
import { AFCON, createCampaigns, insertVotes, WORLD_CUP } from './campaign-fixtures';

jest.setTimeout(60_000);

/** 'afcon-only since sign-in' holds a token from before an admin switched it: the switch is read with the session check. */
type Caller = 'anonymous' | 'agent' | 'afcon-only' | 'afcon-only since sign-in' | 'admin' | 'super-user';

let world: TestWorld;
let worldCupFailed: string;
let afconFailed: string;
const headers = {} as Record<Caller, Record<string, string>>;

beforeAll(async () => {
  world = await buildTestWorld();
  await createCampaigns(world);
  headers.anonymous = {};
  headers.agent = (await world.headersFor('agent')).headers;
  headers['afcon-only'] = (await world.headersFor('agent', { isAfcon: true })).headers;
  const switched = await world.headersFor('agent');
  headers['afcon-only since sign-in'] = switched.headers;
  await world.db.update(users).set({ isAfcon: true }).where(eq(users.id, switched.user.id));
  headers.admin = (await world.headersFor('admin')).headers;
  headers['super-user'] = (await world.headersFor('super-user')).headers;
  [{ id: worldCupFailed }] = await insertVotes(world, WORLD_CUP, [{ phoneNumber: '256773000001', isComplete: false, isDeleted: true }]);
  [{ id: afconFailed }] = await insertVotes(world, AFCON, [{ phoneNumber: '256773000001', isComplete: false, isDeleted: true }]);
}, 60_000);
afterAll(() => world.close());

type Call = { method: 'GET' | 'POST' | 'PATCH'; url: string; payload?: object };

function campaignCalls(prefix: string, key: string, code: string, failedId: string): Call[] {
  const analysis = prefix === '/v1/afcon/2024' ? '/v1/afcon/2024/analysis' : '/v1/world/cup/analysis';
  const rankings = prefix === '/v1/afcon/2024' ? ['/v1/afcon/2024/better/all'] : ['better/all', 'final/winner/better/all', 'week2/better/all', 'week3/better/all', 'week4/better/all'].map((p) => `/v1/world/cup/${p}`);
  return [
    { method: 'POST', url: `${analysis}/all?page=1&limit=50`, payload: { name: code, date: '2022-12-01' } },
    { method: 'POST', url: `${analysis}/to/give/attention?page=1&limit=50`, payload: { name: code } },
    { method: 'POST', url: `${analysis}/to/give/attention/${failedId}`, payload: { isResolved: true } },
    { method: 'POST', url: `${analysis}/search?page=1&limit=50`, payload: { phoneNumber: '256773000001' } },
    ...rankings.map((url): Call => ({ method: 'POST', url: `${url}?page=1&limit=50`, payload: { serviceCode: code } })),
    { method: 'GET', url: `/v1/campaigns/${key}/votes?phoneNumber=256773000001` },
    { method: 'GET', url: `/v1/campaigns/${key}/results?round=all` },
    { method: 'GET', url: `/v1/campaigns/${key}/ranking/export` },
    // Every campaign's reads under its key, scoped like SPEC's.
    { method: 'POST', url: `/v1/campaigns/${key}/transactions?page=1&limit=50`, payload: { date: '2022-12-01' } },
    { method: 'POST', url: `/v1/campaigns/${key}/failed?page=1&limit=50`, payload: {} },
    { method: 'POST', url: `/v1/campaigns/${key}/failed/${failedId}`, payload: { isResolved: true } },
    { method: 'POST', url: `/v1/campaigns/${key}/failed/bulk`, payload: { ids: [failedId] } },
    { method: 'POST', url: `/v1/campaigns/${key}/search?page=1&limit=50`, payload: { phoneNumber: '256773000001' } },
    { method: 'POST', url: `/v1/campaigns/${key}/ranking?round=general&page=1&limit=50`, payload: {} },
    { method: 'POST', url: `/v1/campaigns/${key}/ranking`, payload: {} },
    { method: 'GET', url: `/v1/campaigns/${key}/suspicious?round=all&page=1` },
    ...rankings.slice(0, 1).map((url): Call => ({ method: 'POST', url: `${url}?page=1&limit=50&flagged=true`, payload: { serviceCode: code } })),
  ];
}

const worldCupCalls = () => campaignCalls('/v1/world/cup', WORLD_CUP.key, WORLD_CUP.code, worldCupFailed);
const afconCalls = () => campaignCalls('/v1/afcon/2024', AFCON.key, AFCON.code, afconFailed);

const expected: Record<Caller, { worldCup: number | 'ok'; afcon: number | 'ok' }> = {
  anonymous: { worldCup: 401, afcon: 401 },
  agent: { worldCup: 403, afcon: 403 },
  'afcon-only': { worldCup: 403, afcon: 'ok' },
  'afcon-only since sign-in': { worldCup: 403, afcon: 'ok' },
  admin: { worldCup: 'ok', afcon: 'ok' },
  'super-user': { worldCup: 'ok', afcon: 'ok' },
};

async function outcome(caller: Caller, call: Call) {
  const response = await world.app.inject({ method: call.method, url: call.url, headers: headers[caller], ...(call.payload ? { payload: call.payload } : {}) });
  return response.statusCode < 300 ? 'ok' : response.statusCode;
}

describe('role matrix over the campaign calls (DESIGN §4)', () => {
  it.each(Object.keys(expected) as Caller[])('%s', async (caller) => {
    for (const [calls, want] of [[worldCupCalls(), expected[caller].worldCup], [afconCalls(), expected[caller].afcon]] as const) {
      for (const call of calls) {
        // The call is in the assertion so that a failure names it.
        expect(`${call.method} ${call.url} -> ${await outcome(caller, call)}`).toBe(`${call.method} ${call.url} -> ${want}`);
      }
    }
  });

  it.each(Object.keys(expected) as Caller[])('%s: creating, editing, publishing and closing campaigns is for admins and super-users', async (caller) => {
    // Bodies and keys the managers' checks refuse, so the matrix changes no campaign.
    const writes: Call[] = [
      { method: 'POST', url: '/v1/campaigns', payload: {} },
      { method: 'PATCH', url: '/v1/campaigns/no-such', payload: { name: 'x' } },
      { method: 'POST', url: '/v1/campaigns/no-such/publish' },
      { method: 'POST', url: '/v1/campaigns/no-such/close' },
      { method: 'POST', url: '/v1/campaigns/no-such/rounds/general/close' },
    ];
    const want = caller === 'anonymous' ? 401 : caller === 'admin' || caller === 'super-user' ? [400, 404] : 403;
    for (const call of writes) {
      const status = await outcome(caller, call);
      const passed = Array.isArray(want) ? want.includes(status as number) : status === want;
      expect(`${call.method} ${call.url} -> ${status} ${passed ? 'as expected' : `not ${want}`}`).toBe(`${call.method} ${call.url} -> ${status} as expected`);
    }
  });

  it.each(Object.keys(expected) as Caller[])('%s deciding on held votes', async (caller) => {
    // Only an admin or super-user decides; with no votes held, theirs is a 404 and changes nothing.
    const want = caller === 'anonymous' ? 401 : caller === 'admin' || caller === 'super-user' ? 404 : 403;
    for (const key of [WORLD_CUP.key, AFCON.key]) {
      for (const call of [
        { method: 'POST' as const, url: `/v1/campaigns/${key}/suspicious/256773000001/release`, payload: {} },
        { method: 'POST' as const, url: `/v1/campaigns/${key}/suspicious/256773000001/reject`, payload: { reason: 'Power dialled' } },
      ]) {
        expect(`${call.url} -> ${await outcome(caller, call)}`).toBe(`${call.url} -> ${want}`);
      }
    }
  });

  it('keeps the Afcon-only account out of the rest of the product', async () => {
    for (const url of ['/v1/users?page=1', '/v1/category?page=1', '/v1/ticket?page=1', '/v1/sms?page=1']) {
      expect(`${url} -> ${await outcome('afcon-only', { method: 'GET', url })}`).toBe(`${url} -> 403`);
    }
    const transactions = { method: 'POST' as const, url: '/v1/transactions?page=1&limit=50', payload: {} };
    expect(await outcome('afcon-only', transactions)).toBe(403);
  });
});
