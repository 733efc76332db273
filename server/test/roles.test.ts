import { eq } from 'drizzle-orm';
import { todayInServiceZone } from '../../src/domain/format';
import { contents, incidents, users } from '../src/db/schema';
import { buildTestWorld, type TestWorld } from './helpers';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

// Argon2 and PGlite are slow on a busy machine; the default 5 s is too tight.
jest.setTimeout(30_000);

/** Besides the roles: a token from before its holder became Afcon-only, and one of a signed-out session (both read with the session check). */
type Caller = 'anonymous' | 'agent' | 'customer care' | 'admin' | 'super-user' | 'afcon agent' | 'made afcon after sign-in' | 'signed out';

let world: TestWorld;
const headers = {} as Record<Caller, Record<string, string>>;
let agentId: string;
let statementId: string;

beforeAll(async () => {
  world = await buildTestWorld();
  headers.anonymous = {};
  headers.agent = (await world.headersFor('agent')).headers;
  headers['customer care'] = (await world.headersFor('customer-care')).headers;
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
  { method: 'POST' as const, url: `/v1/users/${agentId}/2fa/reset`, payload: {} },
  { method: 'GET' as const, url: '/v1/reconciliation/statements?page=1', payload: undefined },
  { method: 'GET' as const, url: '/v1/reconciliation/statements?voided=true', payload: undefined },
  { method: 'GET' as const, url: `/v1/reconciliation/statements/${statementId}`, payload: undefined },
  // Voided by the first manager; the second is told it was voided already (200).
  { method: 'POST' as const, url: `/v1/reconciliation/statements/${statementId}/void`, payload: { reason: 'Uploaded for the role matrix' } },
];

const expected: Record<Caller, number | 'ok'> = {
  anonymous: 401,
  agent: 403,
  'customer care': 403,
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

/**
 * The customer page, the top-bar lookup and the monthly report: every role reads them in its scope
 * (an agent its own codes), the Afcon-only account none; the export answers CSV, so only statuses are compared.
 */
describe('role matrix over the customer and report routes', () => {
  const readRoutes = [
    '/v1/customers/256772000901',
    '/v1/customers/0772000901/calls?page=1&limit=10',
    '/v1/transactions/lookup?q=256772000901',
    '/v1/reports/monthly?month=2026-11',
    '/v1/reports/monthly/export?month=2026-11',
  ];
  const wanted: Record<Caller, number> = {
    anonymous: 401,
    'signed out': 401,
    agent: 200,
    'customer care': 200,
    admin: 200,
    'super-user': 200,
    'afcon agent': 403,
    'made afcon after sign-in': 403,
  };
  it.each(Object.keys(wanted) as Caller[])('%s', async (caller) => {
    for (const url of readRoutes) {
      const response = await world.app.inject({ method: 'GET', url, headers: headers[caller] });
      expect(`GET ${url} -> ${response.statusCode}`).toBe(`GET ${url} -> ${wanted[caller]}`);
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

/**
 * The probes and the metrics are not staff routes: a load balancer and Prometheus call them without
 * signing in, so no role opens or closes them. /healthz and /readyz answer every caller; /metrics
 * answers by its own rule (METRICS_TOKEN or this machine), which a staff access token does not pass.
 */
describe('the probes and the metrics, whoever calls', () => {
  it('answers /healthz and /readyz to every caller, signed in or not', async () => {
    for (const caller of Object.keys(expected) as Caller[]) {
      for (const url of ['/healthz', '/readyz']) {
        const response = await world.app.inject({ method: 'GET', url, headers: headers[caller] });
        expect([caller, url, response.statusCode]).toEqual([caller, url, 200]);
      }
    }
  });

  it('answers /metrics on this machine to every caller, and to no caller from elsewhere, whatever their role', async () => {
    for (const caller of Object.keys(expected) as Caller[]) {
      const here = await world.app.inject({ method: 'GET', url: '/metrics', headers: headers[caller] });
      const away = await world.app.inject({ method: 'GET', url: '/metrics', headers: headers[caller], remoteAddress: '10.9.8.7' });
      expect([caller, here.statusCode, away.statusCode]).toEqual([caller, 200, 403]);
    }
  });

  it('with METRICS_TOKEN set, takes no staff access token for it', async () => {
    const other = await world.anotherProcess({ metricsToken: 'matrix-metrics-token-0123' });
    for (const caller of Object.keys(expected) as Caller[]) {
      const response = await other.inject({ method: 'GET', url: '/metrics', headers: headers[caller] });
      expect([caller, response.statusCode]).toEqual([caller, 401]);
    }
    const scraper = await other.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer matrix-metrics-token-0123' }, remoteAddress: '10.9.8.7' });
    expect(scraper.statusCode).toBe(200);
  });
});

/**
 * Customer care answers customers of every service code: it reads every code's calls, failed
 * lists, searches, timelines and incidents, resolves and resends tickets; it writes nothing to the
 * catalogue, composes no SMS and reaches no campaign, user, reconciliation or audit route.
 */
describe('role matrix of customer care', () => {
  const as = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    world.app.inject({ method, url, headers: headers['customer care'], ...(payload ? { payload } : {}) });

  it("reads any agent's calls, failed list, search, timeline and incidents; resolves (and undoes its resolve) and resends their tickets", async () => {
    const owner = await world.createUser('agent');
    const { category, code } = await createCatalogue(world, owner.id);
    const [paid, failed, ticketFailed] = await insertTransactions(world, code.name, [
      { phoneNumber: '256772000901', isComplete: true },
      { phoneNumber: '256772000902', isDeleted: true, categoryId: category.id, categoryLevel: 'ordinary' },
      { phoneNumber: '256772000903', isComplete: true, messageStatuses: 'Failed', ticketMessage: 'Your ticket: 4455' },
    ]);
    // The call's day in the service's zone: from 21:00 UTC, Kampala is a day ahead of the UTC date.
    const day = await as('POST', '/v1/transactions?page=1', { name: code.name, date: todayInServiceZone(paid.createdAt) });
    expect(day.statusCode).toBe(200);
    expect(day.json().results.docs.map((t: { _id: string }) => t._id)).toContain(paid.id);
    const attention = await as('GET', `/v1/transactions/to/give/attention?name=${encodeURIComponent(code.name)}`);
    expect(attention.json().results.docs.map((t: { _id: string }) => t._id)).toEqual([failed.id]);
    const search = await as('POST', '/v1/transactions/search?page=1', { phoneNumber: '256772000901' });
    expect(search.json().results.docs.map((t: { _id: string }) => t._id)).toContain(paid.id);
    expect((await as('GET', `/v1/transactions/${paid.id}/events`)).statusCode).toBe(200);
    expect((await as('GET', '/v1/incidents?page=1')).statusCode).toBe(200);
    expect((await as('GET', '/v1/incidents/open-count')).statusCode).toBe(200);
    const [incident] = await world.db.insert(incidents).values({ serviceCode: code.name, kind: 'failure-rate', openedAt: new Date(), figures: {} }).returning();
    expect((await as('POST', `/v1/incidents/${incident.id}/acknowledge`, { note: 'Customer care on it' })).json().results).toMatchObject({ note: 'Customer care on it' });
    expect((await as('POST', `/v1/transactions/to/give/attention/${failed.id}`, { isResolved: true })).statusCode).toBe(200);
    expect((await as('POST', `/v1/transactions/${ticketFailed.id}/resend-ticket`, {})).statusCode).toBe(200);
    expect((await as('POST', `/v1/transactions/to/give/attention/${failed.id}/undo`)).statusCode).toBe(200);
    const signedIn = await world.app.inject({ method: 'GET', url: '/v1/auth/profile', headers: headers['customer care'] });
    expect(signedIn.json().results).toMatchObject({ role: 'customer-care' });
  });

  it('is refused catalogue writes, SMS compose, users, campaigns, reconciliation and the audit trail', async () => {
    const owner = await world.createUser('agent');
    const { category, code } = await createCatalogue(world, owner.id);
    const [content] = await world.db.insert(contents).values({ message: 'Your ticket 1234', categoryId: category.id, categoryLevel: 'ordinary', createdById: owner.id }).returning();
    const refused: [string, string, object?][] = [
      ['POST', '/v1/category', { name: 'Care category', userId: owner.id, ordinary: 1000 }],
      ['PATCH', `/v1/category/${category.id}`, { ordinary: 2000 }],
      ['POST', '/v1/short-code', { name: '*299*1#', categoryId: category.id }],
      ['PATCH', `/v1/short-code/${code.id}`, { description: 'changed' }],
      ['POST', '/v1/ticket', { message: 'Your ticket', categoryId: category.id, categoryLevel: 'ordinary' }],
      ['PATCH', `/v1/ticket/${content.id}`, { message: 'Your ticket, changed' }],
      ['POST', '/v1/sms', { categoryLevel: 'vip', phoneNumber: '256750461234', message: 'Hello' }],
      ['GET', '/v1/users?page=1'],
      ['POST', '/v1/auth/create/other', { userName: 'care-made', password: 'long-enough', role: 'agent' }],
      ['POST', '/v1/world/cup/better/all', {}],
      ['POST', '/v1/campaigns', {}],
      ['PATCH', '/v1/campaigns/world-cup-2022', { name: 'Renamed' }],
      ['POST', '/v1/campaigns/world-cup-2022/rounds/final/close'],
      ['POST', '/v1/campaigns/world-cup-2022/close'],
      ['POST', '/v1/campaigns/world-cup-2022/transactions', {}],
      ['GET', '/v1/reconciliation/statements?page=1'],
      ['POST', `/v1/reconciliation/statements/${statementId}/rows/review`, { rowIds: [statementId], note: 'Checked' }],
      ['GET', '/v1/audit?page=1'],
    ];
    for (const [method, url, payload] of refused) {
      const response = await as(method as 'GET' | 'POST' | 'PATCH', url, payload);
      expect(`${method} ${url} -> ${response.statusCode}`).toBe(`${method} ${url} -> 403`);
    }
  });

  it('is created by admins only', async () => {
    const created = await world.app.inject({ method: 'POST', url: '/v1/auth/create/other', headers: headers.admin, payload: { userName: 'care-desk-1', password: 'long-enough', role: 'customer-care' } });
    expect(created.statusCode).toBe(201);
    expect(created.json().results).toMatchObject({ role: 'customer-care' });
    expect((await world.login('care-desk-1', 'long-enough')).user.role).toBe('customer-care');
  });
});

/**
 * Refunds: customer care and the managers request and read them; only a manager decides, and never
 * on a refund they requested; agents and the Afcon-only account reach none of it.
 */
describe('role matrix over the refund routes', () => {
  const refundExpected: Record<Caller, { read: number | 'ok'; decide: number | 'ok' }> = {
    anonymous: { read: 401, decide: 401 },
    agent: { read: 403, decide: 403 },
    'afcon agent': { read: 403, decide: 403 },
    'made afcon after sign-in': { read: 403, decide: 403 },
    'signed out': { read: 401, decide: 401 },
    'customer care': { read: 'ok', decide: 403 },
    admin: { read: 'ok', decide: 'ok' },
    'super-user': { read: 'ok', decide: 'ok' },
  };

  it.each(Object.keys(refundExpected) as Caller[])('%s', async (caller) => {
    const { code } = await createCatalogue(world, null);
    const [call, other] = await insertTransactions(world, code.name, [
      { isComplete: true, amount: 5000, categoryLevel: 'vip' },
      { isComplete: true, amount: 5000, categoryLevel: 'vip' },
    ]);
    // Requested by customer care, so every manager may decide on it.
    const byCare = await world.app.inject({ method: 'POST', url: `/v1/transactions/${other.id}/refunds`, headers: headers['customer care'], payload: { reason: 'other' } });
    const refundId = byCare.json().results._id as string;
    const want = refundExpected[caller];
    const routes: { method: 'GET' | 'POST'; url: string; payload?: object; want: number | 'ok' }[] = [
      { method: 'GET', url: '/v1/refunds?page=1', want: want.read },
      { method: 'GET', url: '/v1/refunds?state=requested', want: want.read },
      { method: 'GET', url: '/v1/refunds/export?state=requested', want: want.read },
      { method: 'GET', url: '/v1/refunds/export', want: want.read },
      { method: 'GET', url: `/v1/refunds/${refundId}`, want: want.read },
      { method: 'GET', url: `/v1/transactions/${other.id}/refunds`, want: want.read },
      { method: 'POST', url: `/v1/transactions/${call.id}/refunds`, payload: { reason: 'duplicate-payment' }, want: want.read },
      { method: 'POST', url: `/v1/refunds/${refundId}/reject`, payload: { reason: 'Not paid twice' }, want: want.decide },
    ];
    for (const route of routes) {
      const response = await world.app.inject({ method: route.method, url: route.url, headers: headers[caller], ...(route.payload ? { payload: route.payload } : {}) });
      const got = route.want === 'ok' ? (response.statusCode < 300 ? 'ok' : response.statusCode) : response.statusCode;
      expect(`${route.method} ${route.url} -> ${got}`).toBe(`${route.method} ${route.url} -> ${route.want}`);
    }
  });
});
