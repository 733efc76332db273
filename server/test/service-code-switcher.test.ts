import { todayInServiceZone } from '../../src/domain/format';
import { categories, serviceCodes } from '../src/db/schema';
import { buildTestWorld, type TestWorld } from './helpers';
import { insertTransactions } from './transactions-fixtures';

/**
 * GET /v1/short-code/today: what the service-code switcher lists: codes in natural order,
 * each with its category and today's calls and failed share; an agent its own codes only.
 */

jest.setTimeout(30_000);

let world: TestWorld;
let agent: { user: { id: string }; headers: Record<string, string> };
let admin: Record<string, string>;

beforeAll(async () => {
  world = await buildTestWorld();
  admin = (await world.headersFor('admin')).headers;
  agent = await world.headersFor('agent');
  const [own, others] = await world.db
    .insert(categories)
    .values([
      { name: 'Premier League Tips', userId: agent.user.id, ordinary: 1000 },
      { name: 'Concerts', userId: null, ordinary: 2000 },
    ])
    .returning();
  // Registered out of order, as they were in the demo.
  await world.db.insert(serviceCodes).values([
    { name: '*217*10#', categoryId: own.id },
    { name: '*217*2#', categoryId: others.id },
    { name: '*217*25#', categoryId: own.id },
    { name: '*217*1#', categoryId: own.id },
    { name: '*218#', categoryId: null },
  ]);
  const now = new Date();
  await insertTransactions(world, '*217*10#', [{ isDeleted: true, createdAt: now }, { isComplete: true, createdAt: now }, { isComplete: true, createdAt: now }, {}]);
  await insertTransactions(world, '*217*1#', [{ isDeleted: true, createdAt: new Date(now.getTime() - 3 * 86_400_000) }]);
});
afterAll(() => world.close());

const today = (headers: Record<string, string>) => world.app.inject({ method: 'GET', url: '/v1/short-code/today', headers });

describe('GET /v1/short-code/today', () => {
  it("lists every code in natural order with its category and today's calls and failed share", async () => {
    const response = await today(admin);
    expect(response.statusCode).toBe(200);
    const { message, results } = response.json();
    expect(message).toBe(`Service codes on ${todayInServiceZone()}`);
    expect(results.map((code: { name: string }) => code.name)).toEqual(['*217*1#', '*217*2#', '*217*10#', '*217*25#', '*218#']);
    expect(results[2]).toEqual({ _id: expect.any(String), name: '*217*10#', category: { _id: expect.any(String), name: 'Premier League Tips' }, calls: 4, failed: 1, failedShare: 0.25 });
    // Calls of other days do not count; a code without a category shows none.
    expect(results[0]).toMatchObject({ calls: 0, failed: 0, failedShare: 0 });
    expect(results[4]).toMatchObject({ category: null, calls: 0 });
  });

  it("gives an agent its own codes only, and no one else's figures", async () => {
    const { results } = (await today(agent.headers)).json();
    expect(results.map((code: { name: string }) => code.name)).toEqual(['*217*1#', '*217*10#', '*217*25#']);
    expect((await today({})).statusCode).toBe(401);
    const afcon = (await world.headersFor('agent', { isAfcon: true })).headers;
    expect((await today(afcon)).statusCode).toBe(403);
  });
});

describe("an agent's switcher and its lists agree", () => {
  it('opens the lists and overview of every code the switcher offers an agent, and answers 404 for another, unnamed', async () => {
    const offered: string[] = (await today(agent.headers)).json().results.map((code: { name: string }) => code.name);
    for (const name of offered) {
      const query = `name=${encodeURIComponent(name)}`;
      const answers = await Promise.all([
        world.app.inject({ method: 'POST', url: '/v1/transactions', headers: agent.headers, payload: { name } }),
        world.app.inject({ method: 'GET', url: `/v1/transactions/to/give/attention?${query}`, headers: agent.headers }),
        world.app.inject({ method: 'GET', url: `/v1/dashboard/summary?${query}`, headers: agent.headers }),
      ]);
      expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    }
    const tenth = await world.app.inject({ method: 'POST', url: '/v1/transactions', headers: agent.headers, payload: { name: '*217*10#' } });
    expect(tenth.json().results.total).toBe(4);
    // Every code at once is the agent's own codes' calls.
    const all = await world.app.inject({ method: 'POST', url: '/v1/transactions', headers: agent.headers, payload: {} });
    expect(all.json().results.total).toBe(4);
    const others = await world.app.inject({ method: 'POST', url: '/v1/transactions', headers: agent.headers, payload: { name: '*217*2#' } });
    expect(others.statusCode).toBe(404);
    expect(others.body).not.toContain('*217*2#');
  });
});
