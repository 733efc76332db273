import { CATEGORY_LEVELS, REQUIRED_PRICE_LEVELS } from '../../src/domain/category-levels';
import { buildTestWorld, type TestWorld } from './helpers';
import { categoryBody, createCategory, type Headers } from './catalogue-fixtures';

let world: TestWorld;
let admin: Headers;
let agent: { id: string; headers: Headers };

beforeAll(async () => {
  world = await buildTestWorld();
  admin = (await world.headersFor('admin')).headers;
  const a = await world.headersFor('agent');
  agent = { id: a.user.id, headers: a.headers };
}, 60_000);
afterAll(() => world.close());

const post = (headers: Headers | undefined, payload: unknown) => world.app.inject({ method: 'POST', url: '/v1/category', headers, payload: payload as object });

describe('POST /v1/category', () => {
  it('creates a category with every level price and its agent', async () => {
    const body = categoryBody(agent.id, { supper: 25000, odd2: 1500.4 });
    const response = await post(admin, body);
    expect(response.statusCode).toBe(201);
    const { results } = response.json();
    expect(results).toMatchObject({ name: body.name, description: 'Weekend games', ordinary: 1000, supper: 25000, odd2: 1500, corporate: null });
    expect(results.user).toEqual({ _id: agent.id, userName: expect.any(String) });
    for (const level of CATEGORY_LEVELS) expect(results).toHaveProperty(level);
    expect(new Date(results.createdAt).getTime()).not.toBeNaN();
  });

  it('answers 400 with SPEC messages for an empty body', async () => {
    const response = await post(admin, {});
    expect(response.statusCode).toBe(400);
    const errors: { field: string; message: string }[] = response.json().errors;
    expect(errors).toContainEqual({ field: 'name', message: 'Please provide the category name' });
    expect(errors).toContainEqual({ field: 'user', message: 'Please select the agent' });
    for (const level of REQUIRED_PRICE_LEVELS) expect(errors).toContainEqual({ field: level, message: 'Please specify the price' });
    expect(errors.map((e) => e.field)).not.toContain('supper');
  });

  it('rejects non-numeric and negative prices as Invalid value', async () => {
    const response = await post(admin, categoryBody(agent.id, { vip: 'abc', ordinary: -5, odd3: 'x', corporate: 1e12 }));
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual(
      expect.arrayContaining([
        { field: 'vip', message: 'Invalid value' },
        { field: 'ordinary', message: 'Invalid value' },
        { field: 'odd3', message: 'Invalid value' },
        { field: 'corporate', message: 'Invalid value' },
      ]),
    );
  });

  it('refuses an agent that is not an agent, unknown or malformed', async () => {
    const otherAdmin = await world.createUser('admin');
    for (const user of ['0', otherAdmin.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const response = await post(admin, categoryBody(agent.id, { user }));
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([{ field: 'user', message: 'Please select the agent' }]);
    }
  });

  it('answers 409 for a name already taken, whatever the case', async () => {
    const first = await createCategory(world, admin, agent.id);
    const response = await post(admin, categoryBody(agent.id, { name: first.name.toUpperCase() }));
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(`Category name ${first.name.toUpperCase()} is already taken, please try another`);
  });

  it('is for managers only', async () => {
    expect((await post(undefined, categoryBody(agent.id))).statusCode).toBe(401);
    expect((await post(agent.headers, categoryBody(agent.id))).statusCode).toBe(403);
    const superUser = (await world.headersFor('super-user')).headers;
    expect((await post(superUser, categoryBody(agent.id))).statusCode).toBe(201);
  });
});

describe('PATCH /v1/category/:id', () => {
  it('updates prices, name and agent', async () => {
    const category = await createCategory(world, admin, agent.id);
    const other = await world.createUser('agent');
    const response = await world.app.inject({
      method: 'PATCH',
      url: `/v1/category/${category._id}`,
      headers: admin,
      payload: { ...categoryBody(other.id), name: `${category.name} renamed`, vip: 7000 },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().results).toMatchObject({ _id: category._id, name: `${category.name} renamed`, vip: 7000, user: { _id: other.id } });
  });

  it('accepts a partial body and keeps its own name', async () => {
    const category = await createCategory(world, admin, agent.id);
    const response = await world.app.inject({ method: 'PATCH', url: `/v1/category/${category._id}`, headers: admin, payload: { corporate: 99000 } });
    expect(response.statusCode).toBe(200);
    expect(response.json().results).toMatchObject({ name: category.name, corporate: 99000, ordinary: category.ordinary });
  });

  it('answers 409 when renamed to another category name, 400 on bad prices', async () => {
    const a = await createCategory(world, admin, agent.id);
    const b = await createCategory(world, admin, agent.id);
    const taken = await world.app.inject({ method: 'PATCH', url: `/v1/category/${b._id}`, headers: admin, payload: { name: a.name } });
    expect(taken.statusCode).toBe(409);
    const bad = await world.app.inject({ method: 'PATCH', url: `/v1/category/${b._id}`, headers: admin, payload: { vip: '' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ field: 'vip', message: 'Please specify the price' }]);
  });

  it('answers 400 for a malformed id, 404 for an unknown one, 403 for an agent', async () => {
    const malformed = await world.app.inject({ method: 'PATCH', url: '/v1/category/nope', headers: admin, payload: {} });
    expect(malformed.statusCode).toBe(400);
    const unknown = await world.app.inject({ method: 'PATCH', url: '/v1/category/00000000-0000-4000-8000-000000000000', headers: admin, payload: {} });
    expect(unknown.statusCode).toBe(404);
    const category = await createCategory(world, admin, agent.id);
    const byAgent = await world.app.inject({ method: 'PATCH', url: `/v1/category/${category._id}`, headers: agent.headers, payload: { vip: 1 } });
    expect(byAgent.statusCode).toBe(403);
  });
});

describe('GET /v1/category', () => {
  it('pages newest first for managers, with page and limit', async () => {
    const a = await createCategory(world, admin, agent.id);
    const b = await createCategory(world, admin, agent.id);
    const response = await world.app.inject({ method: 'GET', url: '/v1/category?page=1&limit=100', headers: admin });
    expect(response.statusCode).toBe(200);
    const { results } = response.json();
    expect(results).toMatchObject({ page: 1, limit: 100, previous: null });
    const ids = results.docs.map((c: { _id: string }) => c._id);
    expect(ids.indexOf(b._id)).toBeLessThan(ids.indexOf(a._id));
    const paged = (await world.app.inject({ method: 'GET', url: '/v1/category?page=2&limit=1', headers: admin })).json().results;
    expect(paged).toMatchObject({ page: 2, limit: 1, previous: 1, docs: [expect.any(Object)] });
  });

  it('shows an agent only its own categories', async () => {
    const other = await world.headersFor('agent');
    const mine = await createCategory(world, admin, other.user.id);
    const response = await world.app.inject({ method: 'GET', url: '/v1/category?page=1&limit=100', headers: other.headers });
    expect(response.json().results.docs.map((c: { _id: string }) => c._id)).toEqual([mine._id]);
  });

  it('answers 401 without a token and 400 for a bad page', async () => {
    expect((await world.app.inject({ method: 'GET', url: '/v1/category?page=1' })).statusCode).toBe(401);
    expect((await world.app.inject({ method: 'GET', url: '/v1/category?page=abc', headers: admin })).statusCode).toBe(400);
  });
});
