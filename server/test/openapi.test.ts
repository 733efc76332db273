import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { RouteOptions } from 'fastify';
import { createCampaigns, insertVotes, WORLD_CUP } from './campaign-fixtures';
import { categoryBody, randomCode, type Headers } from './catalogue-fixtures';
import { buildTestWorld, type TestWorld } from './helpers';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

jest.setTimeout(30_000);

type Operation = {
  operationId?: string;
  summary?: string;
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
};
type Document = { paths: Record<string, Record<string, Operation>>; components: Record<string, unknown> };

const routes: RouteOptions[] = [];
let world: TestWorld;
let doc: Document;

beforeAll(async () => {
  world = await buildTestWorld({ onRoute: (route) => routes.push(route) });
  doc = (await world.app.inject({ method: 'GET', url: '/docs/json' })).json();
}, 60_000);
afterAll(() => world.close());

/**
 * The API's routes: all but /docs (the document and its UI's files) and the web plugin's, which
 * serves the built SPA's files and index.html (none here: the test world has no webRoot). The HEAD
 * route Fastify adds beside each GET answers as the GET does, so it is checked as its GET.
 */
function apiRoutes() {
  const seen = new Set<string>();
  const list: { method: string; url: string; route: RouteOptions }[] = [];
  for (const route of routes) {
    if (route.url === '/docs' || route.url.startsWith('/docs/')) continue;
    for (const verb of [route.method].flat()) {
      const method = verb === 'HEAD' && [routes.find((r) => r.url === route.url && [r.method].flat().includes('GET'))].some(Boolean) ? 'GET' : verb;
      const key = `${method} ${route.url}`;
      if (seen.has(key)) continue;
      seen.add(key);
      list.push({ method: method.toLowerCase(), url: route.url, route });
    }
  }
  return list;
}

/** Writes that act on the record in their path and take no body. */
const WITHOUT_BODY = new Set([
  'post /v1/transactions/:id/resend-ticket',
  'post /v1/transactions/to/give/attention/:id/undo',
  'post /v1/reconciliation/statements/:id/rows/:rowId/issue-ticket',
  'post /v1/auth/2fa/setup',
  'post /v1/users/:id/2fa/reset',
  'post /v1/refunds/:id/approve',
  'post /v1/campaigns/:key/publish',
  'post /v1/campaigns/:key/close',
  'post /v1/campaigns/:key/rounds/:round/close',
]);
/** Writes whose body is a file, not JSON fields: documented as their media type. */
const FILE_BODY: Record<string, string> = { 'post /v1/reconciliation/statements': 'text/csv' };

const openapiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');
const jsonSchema = (content: Record<string, { schema: Record<string, unknown> }> | undefined) => content?.['application/json']?.schema;

describe('the OpenAPI document', () => {
  it('has every route the server registers, each with a summary, its inputs and its answers', () => {
    const list = apiRoutes();
    expect(list.length).toBeGreaterThan(45);
    for (const { method, url, route } of list) {
      const where = `${method.toUpperCase()} ${url}`;
      const operation = doc.paths[openapiPath(url)]?.[method];
      expect({ where, documented: Boolean(operation) }).toEqual({ where, documented: true });
      // Documented with `documented(...)` (server/src/openapi.ts): answers and inputs from the route's own schemas.
      expect({ where, transform: typeof route.config?.swaggerTransform }).toEqual({ where, transform: 'function' });
      expect({ where, summary: Boolean(operation.summary), operationId: Boolean(operation.operationId) }).toEqual({ where, summary: true, operationId: true });

      const success = Object.keys(operation.responses).find((code) => code.startsWith('2'));
      expect({ where, success: Boolean(success && operation.responses[success].content) }).toEqual({ where, success: true });
      expect({ where, invalid: jsonSchema(operation.responses['400']?.content) }).toEqual({ where, invalid: { $ref: '#/components/schemas/Failure' } });

      if (FILE_BODY[`${method} ${url}`]) {
        expect({ where, file: Object.keys(operation.requestBody?.content ?? {}) }).toEqual({ where, file: [FILE_BODY[`${method} ${url}`]] });
      } else if (['post', 'patch', 'put'].includes(method) && !WITHOUT_BODY.has(`${method} ${url}`)) {
        // JSON, or a form for the callbacks that read only forms.
        const body = Object.values(operation.requestBody?.content ?? {})[0]?.schema;
        expect({ where, bodyFields: Object.keys(body?.properties ?? {}).length > 0 }).toEqual({ where, bodyFields: true });
      }
      const query = route.schema?.querystring as { properties?: Record<string, unknown> } | undefined;
      const documentedQuery = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      expect({ where, query: documentedQuery }).toEqual({ where, query: expect.arrayContaining(Object.keys(query?.properties ?? {})) });
      for (const name of url.match(/:(\w+)/g) ?? []) {
        expect({ where, param: (operation.parameters ?? []).some((p) => p.in === 'path' && p.name === name.slice(1)) }).toEqual({ where, param: true });
      }
    }
  });

  it('derives bodies and queries from the yup schemas the routes validate with', () => {
    const body = (path: string, method = 'post') => jsonSchema(doc.paths[path][method].requestBody?.content as never) as Record<string, unknown>;
    expect(body('/v1/transactions/search')).toMatchObject({ required: ['phoneNumber'], properties: { phoneNumber: { type: 'string', maxLength: 30, pattern: '^\\+?[\\d\\s-]{6,20}$' } } });
    expect(body('/v1/transactions/to/give/attention/{id}')).toMatchObject({ required: ['isResolved'], properties: { isResolved: { type: 'boolean', enum: [true] } } });
    expect(body('/v1/transactions')).toMatchObject({ properties: { name: { type: 'string' }, date: { type: 'string' } } });
    expect(body('/v1/category')).toMatchObject({ required: expect.arrayContaining(['name', 'user']), properties: { vip: { type: 'number', minimum: 0 }, supper: { type: 'number', nullable: true } } });
    expect(body('/v1/category').required).toContain('vip');
    expect(body('/v1/category/{id}', 'patch').required).toBeUndefined();
    expect(body('/v1/short-code')).toMatchObject({ properties: { name: { pattern: '^\\*\\d{1,4}(\\*\\d{1,4})*#$' } } });
    expect(body('/v1/ticket')).toMatchObject({ properties: { categoryLevel: { enum: expect.arrayContaining(['ordinary', 'vip']) } } });
    expect(body('/v1/sms')).toMatchObject({ properties: { phoneNumber: { minLength: 12, maxLength: 12 } } });
    expect(Object.keys(doc.paths['/v1/ussd/callback'].post.requestBody?.content ?? {})).toEqual(['application/x-www-form-urlencoded']);
    expect(Object.keys(doc.paths['/v1/payments/callback'].post.requestBody?.content ?? {})).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    const query = (path: string) => (doc.paths[path].get.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
    expect(query('/v1/dashboard/summary')).toEqual(['name', 'date']);
    expect(query('/v1/transactions/export')).toEqual(['name', 'date', 'dateFrom', 'dateTo', 'status']);
    expect(query('/v1/campaigns/{key}/results')).toEqual(['round']);
    expect(query('/v1/incidents')).toEqual(['page', 'limit', 'state']);
    expect(body('/v1/transactions/to/give/attention/bulk')).toMatchObject({ required: ['ids'], properties: { reason: { enum: ['reached-helped', 'refunded', 'could-not-reach', 'duplicate'] }, note: { maxLength: 500 } } });
    expect(Object.keys(doc.paths['/v1/live'].get.responses['200'].content ?? {})).toEqual(['text/event-stream']);
  });

  it('marks the routes open to callers without a token', () => {
    const open = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).filter(([, op]) => Array.isArray((op as { security?: unknown[] }).security)).map(([m]) => `${m} ${path}`));
    expect(open.sort()).toEqual(
      [
        'get /healthz',
        'get /readyz',
        // Not behind sign-in: behind METRICS_TOKEN or the loopback address (metrics.test.ts).
        'get /metrics',
        'post /v1/auth/2fa/verify',
        'post /v1/auth/forgot-password',
        'post /v1/auth/login',
        'post /v1/auth/logout',
        'post /v1/auth/refresh-token',
        'post /v1/auth/reset-forgot-password/{token}',
        'post /v1/payments/callback',
        'post /v1/sms/delivery-report',
        'post /v1/ussd/callback',
      ].sort(),
    );
    expect(Object.keys(doc.paths['/v1/category'].get.responses)).toEqual(expect.arrayContaining(['401', '403']));
  });

  describe('answers as the document describes them', () => {
    const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));
    ajv.addSchema({ $id: 'doc', components: {} });
    let admin: Headers;
    let agentId: string;

    beforeAll(async () => {
      ajv.removeSchema('doc');
      ajv.addSchema({ $id: 'doc', components: doc.components });
      const signedIn = await world.headersFor('admin');
      admin = signedIn.headers;
      agentId = (await world.createUser('agent')).id;
    });

    /** Checks a real answer against the operation's documented answer of its status. */
    async function expectDocumented(method: string, url: string, path: string, payload?: Record<string, unknown>, headers: Headers = admin) {
      const response = await world.app.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) });
      const answers = doc.paths[path][method.toLowerCase()].responses;
      const schema = jsonSchema(answers[String(response.statusCode)]?.content);
      expect({ url, status: response.statusCode, documented: Boolean(schema) }).toEqual({ url, status: response.statusCode, documented: true });
      const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')));
      const body = response.json();
      expect({ url, errors: validate(body) ? null : validate.errors }).toEqual({ url, errors: null });
      return body;
    }

    it('sign in, the profile and the accounts', async () => {
      const user = await world.createUser('admin');
      await expectDocumented('POST', '/v1/auth/login', '/v1/auth/login', { userName: user.userName, password: 'password-123' }, {});
      await expectDocumented('POST', '/v1/auth/login', '/v1/auth/login', { userName: '' }, {});
      await expectDocumented('POST', '/v1/auth/login', '/v1/auth/login', { userName: user.userName, password: 'not-the-password' }, {});
      await expectDocumented('POST', '/v1/auth/refresh-token', '/v1/auth/refresh-token', { token: 'unknown' }, {});
      await expectDocumented('GET', '/v1/auth/profile', '/v1/auth/profile');
      await expectDocumented('GET', '/v1/auth/profile', '/v1/auth/profile', undefined, {});
      await expectDocumented('GET', '/v1/users', '/v1/users');
    });

    it('the catalogue, SMS, calls, dashboard and campaigns', async () => {
      const category = (await expectDocumented('POST', '/v1/category', '/v1/category', categoryBody(agentId))).results;
      await expectDocumented('GET', '/v1/category', '/v1/category');
      await expectDocumented('PATCH', `/v1/category/${crypto.randomUUID()}`, '/v1/category/{id}', { name: 'x' });
      await expectDocumented('POST', '/v1/short-code', '/v1/short-code', { name: randomCode(), category: category._id });
      await expectDocumented('GET', '/v1/short-code', '/v1/short-code');
      await expectDocumented('POST', '/v1/ticket', '/v1/ticket', { category: category._id, categoryLevel: 'vip', message: 'Gate 4', active: true });
      await expectDocumented('GET', '/v1/ticket', '/v1/ticket');
      await expectDocumented('POST', '/v1/sms', '/v1/sms', { categoryLevel: 'vip', phoneNumber: '256770000001', message: 'Hello' });
      await expectDocumented('GET', '/v1/sms', '/v1/sms');

      const { code } = await createCatalogue(world, agentId);
      const [failed] = await insertTransactions(world, code.name, [{ isDeleted: true, amount: 1000, categoryLevel: 'vip' }, { isComplete: true }]);
      await expectDocumented('POST', '/v1/transactions', '/v1/transactions', { name: code.name });
      await expectDocumented('GET', '/v1/transactions/to/give/attention', '/v1/transactions/to/give/attention');
      await expectDocumented('POST', '/v1/transactions/search', '/v1/transactions/search', { phoneNumber: '256770000001' });
      await expectDocumented('POST', `/v1/transactions/to/give/attention/${failed.id}`, '/v1/transactions/to/give/attention/{id}', { isResolved: true, reason: 'refunded', note: 'Sent back' });
      await expectDocumented('POST', '/v1/transactions/to/give/attention/bulk', '/v1/transactions/to/give/attention/bulk', { ids: [failed.id, crypto.randomUUID()] });
      await expectDocumented('POST', '/v1/transactions/to/give/attention/bulk', '/v1/transactions/to/give/attention/bulk', { ids: [] });
      await expectDocumented('GET', '/v1/short-code/today', '/v1/short-code/today');
      await world.app.live.detector.detect();
      await insertTransactions(world, code.name, Array.from({ length: 10 }, () => ({ isDeleted: true, createdAt: new Date() })));
      await world.app.live.detector.detect();
      const incidents = await expectDocumented('GET', '/v1/incidents?state=open', '/v1/incidents');
      expect(incidents.results.docs).toEqual([expect.objectContaining({ kind: 'failure-rate', serviceCode: code.name })]);
      await expectDocumented('GET', '/v1/incidents?state=lost', '/v1/incidents');
      await expectDocumented('GET', '/v1/incidents/open-count', '/v1/incidents/open-count');
      await expectDocumented('GET', `/v1/dashboard/summary?name=${encodeURIComponent(code.name)}`, '/v1/dashboard/summary');
      await expectDocumented('POST', '/v1/world/cup/better/all', '/v1/world/cup/better/all', {});
      await createCampaigns(world);
      await insertVotes(world, WORLD_CUP, [{ phoneNumber: '256770000009' }, { phoneNumber: '256770000009', teamName: 'France', teamName2: 'Brazil' }]);
      await expectDocumented('GET', '/v1/campaigns', '/v1/campaigns');
      await expectDocumented('POST', '/v1/world/cup/better/all', '/v1/world/cup/better/all', {});
      await expectDocumented('POST', '/v1/world/cup/analysis/all', '/v1/world/cup/analysis/all', {});
      await expectDocumented('GET', '/v1/campaigns/world-cup-2022/votes?phoneNumber=256770000009', '/v1/campaigns/{key}/votes');
      await expectDocumented('GET', '/v1/campaigns/world-cup-2022/results', '/v1/campaigns/{key}/results');
      await expectDocumented('GET', '/healthz', '/healthz', undefined, {});
      await expectDocumented('GET', '/readyz', '/readyz', undefined, {});
    });
  });
});
