import type { Role } from '../../src/domain/roles';
import { buildTestWorld, type TestWorld } from './helpers';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

jest.setTimeout(30_000);

let world: TestWorld;
let mine: string;
let theirs: string;
let agentHeaders: Record<string, string>;
let theirFailedId: string;
let myFailedId: string;
const DAY = '2024-05-01';
const at = new Date('2024-05-01T09:00:00Z');

beforeAll(async () => {
  world = await buildTestWorld();
  const me = await world.headersFor('agent');
  agentHeaders = me.headers;
  const other = await world.createUser('agent');
  mine = (await createCatalogue(world, me.user.id)).code.name;
  theirs = (await createCatalogue(world, other.id)).code.name;
  [{ id: myFailedId }] = await insertTransactions(world, mine, [{ isDeleted: true, createdAt: at, phoneNumber: '256700000001' }]);
  [{ id: theirFailedId }] = await insertTransactions(world, theirs, [{ isDeleted: true, createdAt: at, phoneNumber: '256700000001' }]);
});
afterAll(() => world.close());

const q = (name: string) => encodeURIComponent(name);
const calls = (name: string) => [
  { method: 'POST' as const, url: '/v1/transactions', payload: { name, date: DAY } },
  { method: 'GET' as const, url: `/v1/transactions/to/give/attention?name=${q(name)}&date=${DAY}` },
  { method: 'GET' as const, url: `/v1/transactions/export?name=${q(name)}&date=${DAY}` },
  { method: 'GET' as const, url: `/v1/dashboard/summary?name=${q(name)}&date=${DAY}` },
];

describe('an agent', () => {
  it('reads its own service code on every call', async () => {
    for (const call of calls(mine)) {
      const response = await world.app.inject({ ...call, headers: agentHeaders });
      expect([call.url, response.statusCode]).toEqual([call.url, 200]);
    }
  });

  it("is answered 404 for another agent's service code on every call, as for an unknown one, never naming it", async () => {
    for (const call of [...calls(theirs), ...calls('*999*999#')]) {
      const response = await world.app.inject({ ...call, headers: agentHeaders });
      expect([call.url, response.statusCode]).toEqual([call.url, 404]);
      expect(response.body).not.toContain(theirs);
    }
  });

  it('sees only its own codes in the failed list and the search', async () => {
    const failed = (await world.app.inject({ method: 'GET', url: '/v1/transactions/to/give/attention', headers: agentHeaders })).json().results;
    expect(failed.docs.map((d: { name: string }) => d.name)).toEqual([mine]);
    const search = (await world.app.inject({ method: 'POST', url: '/v1/transactions/search', headers: agentHeaders, payload: { phoneNumber: '0700000001' } })).json().results;
    expect(search.docs.map((d: { name: string }) => d.name)).toEqual([mine]);
  });

  it('sees the calls of all its codes when it owns several', async () => {
    const { user, headers } = await world.headersFor('agent');
    const first = (await createCatalogue(world, user.id)).code.name;
    const second = (await createCatalogue(world, user.id)).code.name;
    await insertTransactions(world, first, [{ isDeleted: true, createdAt: at }]);
    await insertTransactions(world, second, [{ isDeleted: true, createdAt: at }]);
    const failed = (await world.app.inject({ method: 'GET', url: `/v1/transactions/to/give/attention?date=${DAY}`, headers })).json().results;
    expect(failed.docs.map((d: { name: string }) => d.name).sort()).toEqual([first, second].sort());
    const summary = (await world.app.inject({ method: 'GET', url: `/v1/dashboard/summary?date=${DAY}`, headers })).json().results;
    expect(summary.failed).toBe(2);
  });

  it("resolves its own failed call but not another agent's", async () => {
    const resolve = (id: string) =>
      world.app.inject({ method: 'POST', url: `/v1/transactions/to/give/attention/${id}`, headers: agentHeaders, payload: { isResolved: true } });
    expect((await resolve(myFailedId)).statusCode).toBe(200);
    const refused = await resolve(theirFailedId);
    expect(refused.statusCode).toBe(404);
    expect(refused.body).not.toContain(theirs);
  });
});

describe.each<Role>(['admin', 'super-user'])('a %s', (role) => {
  it('reads any service code on every call and searches every code', async () => {
    const { headers } = await world.headersFor(role);
    for (const call of [...calls(mine), ...calls(theirs)]) {
      const response = await world.app.inject({ ...call, headers });
      expect([call.url, response.statusCode]).toEqual([call.url, 200]);
    }
    const search = (await world.app.inject({ method: 'POST', url: '/v1/transactions/search', headers, payload: { phoneNumber: '256700000001' } })).json().results;
    expect(search.total).toBe(2);
  });
});
