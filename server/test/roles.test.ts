import { eq } from 'drizzle-orm';
import { users } from '../src/db/schema';
import { buildTestWorld, type TestWorld } from './helpers';

// Argon2 and PGlite are slow on a busy machine; the default 5 s is too tight.
jest.setTimeout(30_000);

/** Besides the roles: a token from before its holder became Afcon-only, and one of a signed-out session (both read with the session check). */
type Caller = 'anonymous' | 'agent' | 'admin' | 'super-user' | 'afcon agent' | 'made afcon after sign-in' | 'signed out';

let world: TestWorld;
const headers = {} as Record<Caller, Record<string, string>>;
let agentId: string;
let statementId: string;

beforeAll(async () => {
  world = await buildTestWorld();
  headers.anonymous = {};
  headers.agent = (await world.headersFor('agent')).headers;
  headers.admin = (await world.headersFor('admin')).headers;
  headers['super-user'] = (await world.headersFor('super-user')).headers;
  headers['afcon agent'] = (await world.headersFor('agent', { isAfcon: true })).headers;
  const madeAfcon = await world.headersFor('agent');
  headers['made afcon after sign-in'] = madeAfcon.headers;
  await world.db.update(users).set({ isAfcon: true }).where(eq(users.id, madeAfcon.user.id));
  const leaving = await world.createUser('agent');
  const session = await world.login(leaving.userName);
  headers['signed out'] = { authorization: `Bearer ${session.accessToken}` };
  await world.app.inject({ method: 'POST', url: '/v1/auth/logout', payload: { token: session.refreshToken } });
  agentId = (await world.createUser('agent')).id;
  const statement = await world.app.inject({
    method: 'POST',
    url: '/v1/reconciliation/statements',
    headers: { ...headers.admin, 'content-type': 'text/csv' },
    payload: 'reference,amount,currency,status,completedAt\r\nmatrix-1,1000,UGX,SUCCESSFUL,2026-01-01T10:00:00Z\r\n',
  });
  statementId = statement.json().results._id;
}, 60_000);
afterAll(() => world.close());

/** The manager-only routes (DESIGN §4): users, and reconciliation's reads and void, each with a body a manager may send. */
const managerRoutes = () => [
  { method: 'GET' as const, url: '/v1/users?page=1', payload: undefined },
  { method: 'GET' as const, url: '/v1/users?page=1&limit=100', payload: undefined },
  { method: 'POST' as const, url: '/v1/auth/create/other', payload: { password: 'agent-password', role: 'agent' } },
  { method: 'PATCH' as const, url: `/v1/users/${agentId}`, payload: { isAfcon: false } },
  { method: 'GET' as const, url: '/v1/reconciliation/statements?page=1', payload: undefined },
  { method: 'GET' as const, url: '/v1/reconciliation/statements?voided=true', payload: undefined },
  { method: 'GET' as const, url: `/v1/reconciliation/statements/${statementId}`, payload: undefined },
  // Voided by the first manager; the second is told it was voided already (200).
  { method: 'POST' as const, url: `/v1/reconciliation/statements/${statementId}/void`, payload: { reason: 'Uploaded for the role matrix' } },
];

const expected: Record<Caller, number | 'ok'> = {
  anonymous: 401,
  agent: 403,
  'afcon agent': 403,
  'made afcon after sign-in': 403,
  'signed out': 401,
  admin: 'ok',
  'super-user': 'ok',
};

describe('role matrix over the manager routes', () => {
  let counter = 0;
  it.each(Object.keys(expected) as Caller[])('%s', async (caller) => {
    for (const route of managerRoutes()) {
      counter += 1;
      // A fresh user name per call, so creating and renaming both succeed for managers.
      const payload = route.payload && { ...route.payload, userName: `matrix-${counter}` };
      const response = await world.app.inject({ method: route.method, url: route.url, headers: headers[caller], ...(payload ? { payload } : {}) });
      const want = expected[caller];
      // The route is in the assertion so that a failure names it.
      const got = want === 'ok' ? (response.statusCode < 300 ? 'ok' : response.statusCode) : response.statusCode;
      expect(`${route.method} ${route.url} -> ${got}`).toBe(`${route.method} ${route.url} -> ${want}`);
      expect(response.json().status).toBe(want === 'ok');
    }
  });
});

/** The audit trail: admins and super-users only; the export answers CSV, so only statuses are compared. */
describe('role matrix over the audit routes', () => {
  const auditRoutes = ['/v1/audit?page=1&limit=10', '/v1/audit?actor=admin&action=category.update&from=2026-01-01', '/v1/audit/export?entityType=category', '/v1/audit/verify'];
  it.each(Object.keys(expected) as Caller[])('%s', async (caller) => {
    for (const url of auditRoutes) {
      const response = await world.app.inject({ method: 'GET', url, headers: headers[caller] });
      const want = expected[caller];
      const got = want === 'ok' ? (response.statusCode === 200 ? 'ok' : response.statusCode) : response.statusCode;
      expect(`GET ${url} -> ${got}`).toBe(`GET ${url} -> ${want}`);
    }
  });
});

describe('routes every signed-in user reaches', () => {
  it('lets agents, managers and the Afcon-only account read their profile; not anonymous', async () => {
    for (const caller of Object.keys(expected) as Caller[]) {
      const response = await world.app.inject({ method: 'GET', url: '/v1/auth/profile', headers: headers[caller] });
      expect([caller, response.statusCode]).toEqual([caller, caller === 'anonymous' || caller === 'signed out' ? 401 : 200]);
    }
  });

  it('lets the Afcon-only account list campaigns but not users', async () => {
    const campaigns = await world.app.inject({ method: 'GET', url: '/v1/campaigns', headers: headers['afcon agent'] });
    expect(campaigns.statusCode).toBe(200);
    const users = await world.app.inject({ method: 'GET', url: '/v1/users?page=1', headers: headers['afcon agent'] });
    expect(users.statusCode).toBe(403);
  });
});
