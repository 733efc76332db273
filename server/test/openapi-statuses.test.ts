import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Role } from '../../src/domain/roles';
import { startSession } from '../src/auth/sessions';
import { contents, smsMessages, users } from '../src/db/schema';
import { signCallback } from '../src/ingestion/callback-signature';
import { answeredStatuses } from './answered-statuses';
import { createCampaigns } from './campaign-fixtures';
import { buildTestWorld, TEST_CALLBACK_SECRET, TEST_PASSWORD, TEST_USSD_TOKEN, type TestWorld } from './helpers';
import { statementCsv } from './reconciliation-fixtures';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

/**
 * Every route declares every status it answers: each route of the OpenAPI document is called by
 * every kind of caller, on its own records, another agent's and none, with a good body, another
 * good one and an empty one, and each status answered must be one its operation lists.
 * input-fuzz.test.ts holds the same against hostile input.
 */

jest.setTimeout(180_000);

type Caller = 'anonymous' | 'signed out' | 'afcon agent' | 'agent' | 'other agent' | 'super-user' | 'admin';
/** Managers last: they may rename, re-role or delete what the others read. */
const CALLERS: Caller[] = ['anonymous', 'signed out', 'afcon agent', 'agent', 'other agent', 'super-user', 'admin'];

type Operation = {
  parameters?: { in: string; name: string }[];
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> };
};
type Document = { paths: Record<string, Record<string, Operation>> };

/** Streams that never end while a signed-in client listens; inject waits for the end (live.test.ts covers them). */
const STREAMS = new Set(['GET /v1/live']);
/** Provider callbacks, signed as the provider would when sent anonymously. */
const SIGNED_CALLBACKS = new Set(['POST /v1/payments/callback', 'POST /v1/sms/delivery-report']);

const recorder = answeredStatuses();
let world: TestWorld;
let document: Document;
const headers = {} as Record<Caller, Record<string, string>>;
const holders = {} as Partial<Record<Caller, typeof users.$inferSelect>>;
/** Values a client would send, per field: the first the agent's own, the second another agent's or another good value. */
let values: Record<string, unknown[]>;
/** Path parameters per name; `id` per the resource its path starts with. */
let pathValues: (path: string, name: string) => string[];
let statementCsvText: string;

/** A live session of the caller's account, minted as sign-in does, for a caller whose session a request ended. */
async function signInAgain(caller: Caller) {
  const user = holders[caller];
  if (!user) return;
  const [now] = await world.db.select().from(users).where(eq(users.id, user.id));
  if (!now) return;
  const { sessionId } = await startSession(world.db, now.id);
  headers[caller] = { authorization: `Bearer ${world.app.jwt.sign({ sub: now.id, sid: sessionId, userName: now.userName, role: now.role as Role, isAfcon: now.isAfcon })}` };
}

beforeAll(async () => {
  world = await buildTestWorld({ onRoute: recorder.onRoute });
  const signedIn = async (caller: Caller, role: 'agent' | 'admin' | 'super-user', extra: Partial<typeof users.$inferInsert> = {}) => {
    const { user, headers: callerHeaders } = await world.headersFor(role, extra);
    holders[caller] = user;
    headers[caller] = callerHeaders;
    return user;
  };
  headers.anonymous = {};
  const agent = await signedIn('agent', 'agent', { email: 'agent@example.com' });
  const otherAgent = await signedIn('other agent', 'agent');
  await signedIn('afcon agent', 'agent', { isAfcon: true });
  await signedIn('super-user', 'super-user');
  const admin = await signedIn('admin', 'admin');
  const leaving = await world.createUser('agent');
  const session = await world.login(leaving.userName);
  headers['signed out'] = { authorization: `Bearer ${session.accessToken}` };
  await world.app.inject({ method: 'POST', url: '/v1/auth/logout', payload: { token: session.refreshToken } });

  const own = await createCatalogue(world, agent.id);
  const others = await createCatalogue(world, otherAgent.id);
  const [content] = await world.db.insert(contents).values({ message: 'Your ticket 1234', categoryId: own.category.id, categoryLevel: 'vip', createdById: agent.id, active: true }).returning();
  const [sms] = await world.db.insert(smsMessages).values({ userId: agent.id, phoneNumber: '256750461234', message: 'Hello', status: 'sent', providerRef: 'statuses-sms-ref' }).returning();
  const [failed, pending] = await insertTransactions(world, own.code.name, [
    { isDeleted: true, categoryId: own.category.id, categoryLevel: 'vip', amount: 20000 },
    { paymentRef: 'statuses-pending-ref', sessionId: 'statuses-session', categoryId: own.category.id, categoryLevel: 'vip', amount: 20000 },
  ]);
  const [othersFailed] = await insertTransactions(world, others.code.name, [{ isDeleted: true, categoryId: others.category.id, categoryLevel: 'vip', amount: 20000 }]);
  await createCampaigns(world);

  // A statement with a paid-no-ticket row (the pending call) and a ticket-no-money row (a processed call it lacks).
  await insertTransactions(world, own.code.name, [{ isComplete: true, paymentRef: 'statuses-paid-ref', categoryId: own.category.id, categoryLevel: 'vip', amount: 20000, callbackTime: new Date('2026-05-01T10:00:00Z') }]);
  statementCsvText = statementCsv([{ reference: 'statuses-pending-ref' }, { reference: 'statuses-unknown-ref' }]);
  const uploaded = await world.app.inject({ method: 'POST', url: '/v1/reconciliation/statements', headers: { ...headers.admin, 'content-type': 'text/csv' }, payload: statementCsvText });
  const statementId = uploaded.json().results._id as string;
  const statement = await world.app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${statementId}`, headers: headers.admin });
  const rowIds = (statement.json().results.rows.docs as { _id: string }[]).map((row) => row._id);

  const ids: Record<string, string[]> = {
    '/v1/users': [agent.id, admin.id],
    '/v1/category': [own.category.id, others.category.id],
    '/v1/short-code': [own.code.id, others.code.id],
    '/v1/ticket': [content.id],
    '/v1/sms': [sms.id],
    '/v1/transactions': [failed.id, othersFailed.id, pending.id],
    '/v1/world/cup': [failed.id],
    '/v1/afcon/2024': [failed.id],
    '/v1/reconciliation/statements': [statementId],
  };
  const random = crypto.randomUUID();
  pathValues = (path, name) => {
    if (name === 'key') return ['world-cup-2022', 'afcon-2024', 'no-such-campaign'];
    if (name === 'rowId') return [...rowIds, random];
    if (name === 'token') return ['made-up-token'];
    const resource = Object.keys(ids).find((prefix) => path.startsWith(prefix));
    return [...(resource ? ids[resource] : []), random, 'not-an-id'];
  };
  values = {
    userName: [`renamed-${crypto.randomUUID().slice(0, 6)}`, otherAgent.userName],
    password: ['a-new-password', TEST_PASSWORD],
    myPassword: [TEST_PASSWORD, 'not-my-password'],
    role: ['agent', 'admin'],
    email: ['agent@example.com', 'nobody@example.com'],
    redirectUrl: ['/reset-password'],
    token: ['not-a-token'],
    // A service code of the agent's, then one of the other agent's: outside the agent's scope.
    name: [own.code.name, others.code.name],
    description: ['Weekend games'],
    user: [agent.id, otherAgent.id],
    category: [own.category.id, others.category.id],
    categoryLevel: ['vip', 'ordinary'],
    message: ['Your ticket 4321'],
    phoneNumber: ['256770000001', '256750461234'],
    active: [true, false],
    isAfcon: [false, true],
    isResolved: [true],
    date: [new Date().toISOString().slice(0, 10), '2026-11-22'],
    status: ['SUCCESSFUL', 'Success', 'failed'],
    id: ['statuses-sms-ref', 'unknown-sms-ref'],
    reference: ['statuses-pending-ref', 'unknown-payment-ref'],
    sessionId: ['statuses-session', 'new-session'],
    serviceCode: [own.code.name, others.code.name],
    networkCode: ['64110'],
    text: ['', '1'],
    ordinary: [1000],
    vip: [2000],
    ids: [[failed.id], [othersFailed.id, crypto.randomUUID()]],
    reason: ['refunded', 'duplicate'],
    note: ['Called back, refunded'],
    state: ['open', 'closed'],
    kind: ['paidNoTicket', 'ticketNoMoney'],
    round: ['final', 'no-such-round'],
    fileName: ['statement.csv'],
  };
  document = world.app.swagger() as Document;
}, 120_000);
afterAll(() => world?.close());

/** Fields with the i-th good value of each (the values wrap), or none when no value is known. */
const goodFields = (names: string[], i: number) =>
  Object.fromEntries(names.filter((name) => name in values).map((name) => [name, values[name][i % values[name].length]]));

interface Request {
  method: string;
  url: string;
  /** Besides the caller's: the body's media type, a callback's signature. */
  headers: Record<string, string>;
  payload?: string;
}

/** The requests a caller makes of one operation: each path value with each of two good bodies (or queries) and an empty one. */
function requestsFor(method: string, path: string, operation: Operation, caller: Caller): Request[] {
  const label = `${method.toUpperCase()} ${path}`;
  const content = operation.requestBody?.content ?? {};
  const bodyFields = Object.keys(Object.values(content)[0]?.schema?.properties ?? {});
  const queryNames = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
  const pathNames = (path.match(/\{(\w+)\}/g) ?? []).map((part) => part.slice(1, -1));
  const paths = Math.max(1, ...pathNames.map((name) => pathValues(path, name).length));
  const requests: Request[] = [];
  for (let p = 0; p < paths; p += 1) {
    const url = path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const candidates = pathValues(path, name);
      return encodeURIComponent(candidates[p % candidates.length]);
    });
    for (const variant of [0, 1, 'empty'] as const) {
      const query = new URLSearchParams(variant === 'empty' ? {} : (goodFields(queryNames, variant) as Record<string, string>));
      // Callbacks come from the provider but for the empty request, which comes from someone else.
      const fromProvider = variant !== 'empty';
      if (fromProvider && label === 'POST /v1/ussd/callback') query.set('token', TEST_USSD_TOKEN);
      const fields = variant === 'empty' ? {} : goodFields(bodyFields, variant);
      let body: { type: string; text: string } | undefined;
      if ('text/csv' in content) body = variant === 0 ? { type: 'text/csv', text: statementCsvText } : { type: 'application/json', text: '{}' };
      else if (!('application/json' in content) && 'application/x-www-form-urlencoded' in content) body = { type: 'application/x-www-form-urlencoded', text: new URLSearchParams(fields as Record<string, string>).toString() };
      else if (method !== 'get') body = { type: 'application/json', text: JSON.stringify(fields) };
      const search = query.toString();
      const own: Record<string, string> = body ? { 'content-type': body.type } : {};
      if (fromProvider && caller === 'anonymous' && SIGNED_CALLBACKS.has(label)) own['x-callback-signature'] = signCallback(body?.text ?? '', TEST_CALLBACK_SECRET);
      requests.push({
        method: method.toUpperCase(),
        url: url + (search ? `?${search}` : ''),
        headers: own,
        ...(body ? { payload: body.text } : {}),
      });
    }
  }
  return requests;
}

it('declares in the OpenAPI document every status each route answers', async () => {
  const operations = Object.entries(document.paths).flatMap(([path, byMethod]) => Object.entries(byMethod).map(([method, operation]) => ({ method, path, operation })));
  expect(operations.length).toBeGreaterThan(45);
  for (const { method, path, operation } of operations) {
    for (const caller of CALLERS) {
      if (caller !== 'anonymous' && STREAMS.has(`${method.toUpperCase()} ${path}`)) continue;
      for (const request of requestsFor(method, path, operation, caller)) {
        // The caller's headers as they are now: an earlier request may have signed it in again.
        const response = await world.app.inject({ ...request, method: request.method as 'GET', headers: { ...headers[caller], ...request.headers } });
        // A request that ended its caller's session (a new password, an Afcon switch) must not end the run for that caller.
        if (response.statusCode === 401 && caller !== 'anonymous' && caller !== 'signed out') await signInAgain(caller);
      }
    }
  }
  const answered = recorder.answered();
  // The run reached every operation, and the routes that read a service code answered its scope.
  expect(operations.filter(({ method, path }) => !answered.has(`${method} ${path}`))).toEqual([]);
  expect([...(answered.get('post /v1/transactions') ?? [])].sort()).toEqual(expect.arrayContaining([200, 401, 403, 404]));
  expect(recorder.undeclared(document as never)).toEqual([]);
});
