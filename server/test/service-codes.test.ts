import { buildTestWorld, type TestWorld } from './helpers';
import { createCategory, randomCode, type Headers } from './catalogue-fixtures';
import type { Category } from '../../src/domain/entities';

let world: TestWorld;
let admin: Headers;
let agent: { id: string; userName: string; headers: Headers };
let category: Category;

beforeAll(async () => {
  world = await buildTestWorld();
  admin = (await world.headersFor('admin')).headers;
  const a = await world.headersFor('agent');
  agent = { id: a.user.id, userName: a.user.userName, headers: a.headers };
  category = await createCategory(world, admin, agent.id);
}, 60_000);
afterAll(() => world.close());

const post = (headers: Headers | undefined, payload: object) => world.app.inject({ method: 'POST', url: '/v1/short-code', headers, payload });
const patch = (id: string, headers: Headers | undefined, payload: object) =>
  world.app.inject({ method: 'PATCH', url: `/v1/short-code/${id}`, headers, payload });

describe('POST /v1/short-code', () => {
  it('registers a code under a category and answers it with category and agent', async () => {
    const name = randomCode();
    const response = await post(admin, { name, description: 'Main line', category: category._id });
    expect(response.statusCode).toBe(201);
    expect(response.json().results).toMatchObject({
      name,
      description: 'Main line',
      category: { _id: category._id, name: category.name, user: { _id: agent.id, userName: agent.userName } },
    });
  });

  it('answers 400 with SPEC messages', async () => {
    const empty = await post(admin, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toEqual([
      { field: 'name', message: 'Please provide the code' },
      { field: 'category', message: 'Please select the category' },
    ]);
    const notSelected = await post(admin, { name: randomCode(), category: '0' });
    expect(notSelected.json().errors).toEqual([{ field: 'category', message: 'Please select the category' }]);
  });

  it('rejects codes that are not USSD codes', async () => {
    for (const name of ['217', '*217*4', 'abc#', '**4#']) {
      const response = await post(admin, { name, category: category._id });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([{ field: 'name', message: 'A service code looks like *217*4#' }]);
    }
  });

  it('answers 400 for an unknown or malformed category', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      const response = await post(admin, { name: randomCode(), category: id });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([{ field: 'category', message: 'Please select the category' }]);
    }
  });

  it('answers 409 for a code already registered', async () => {
    const name = randomCode();
    expect((await post(admin, { name, category: category._id })).statusCode).toBe(201);
    const again = await post(admin, { name, category: category._id });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(`Service code ${name} is already taken, please try another`);
  });

  it('is for managers only', async () => {
    expect((await post(undefined, { name: randomCode(), category: category._id })).statusCode).toBe(401);
    expect((await post(agent.headers, { name: randomCode(), category: category._id })).statusCode).toBe(403);
    const superUser = (await world.headersFor('super-user')).headers;
    expect((await post(superUser, { name: randomCode(), category: category._id })).statusCode).toBe(201);
  });
});

describe('PATCH /v1/short-code/:id', () => {
  it('moves a code to another category and renames it', async () => {
    const code = (await post(admin, { name: randomCode(), category: category._id })).json().results;
    const other = await createCategory(world, admin, agent.id);
    const name = randomCode();
    const response = await patch(code._id, admin, { name, category: other._id });
    expect(response.statusCode).toBe(200);
    expect(response.json().results).toMatchObject({ _id: code._id, name, category: { _id: other._id } });
  });

  it('answers 409 on a taken code, 400 on a bad shape, 404 and 400 on ids, 403 for agents', async () => {
    const a = (await post(admin, { name: randomCode(), category: category._id })).json().results;
    const b = (await post(admin, { name: randomCode(), category: category._id })).json().results;
    expect((await patch(b._id, admin, { name: a.name })).statusCode).toBe(409);
    expect((await patch(b._id, admin, { name: 'x' })).statusCode).toBe(400);
    expect((await patch('00000000-0000-4000-8000-000000000000', admin, {})).statusCode).toBe(404);
    expect((await patch('nope', admin, {})).statusCode).toBe(400);
    expect((await patch(b._id, agent.headers, { description: 'mine' })).statusCode).toBe(403);
    const same = await patch(b._id, admin, { description: 'kept name' });
    expect(same.statusCode).toBe(200);
    expect(same.json().results).toMatchObject({ name: b.name, description: 'kept name' });
  });
});

describe('GET /v1/short-code', () => {
  it('lists every code for managers and only its own for an agent', async () => {
    const other = await world.headersFor('agent');
    const othersCategory = await createCategory(world, admin, other.user.id);
    const mine = (await post(admin, { name: randomCode(), category: othersCategory._id })).json().results;
    const all = (await world.app.inject({ method: 'GET', url: '/v1/short-code?page=1&limit=100', headers: admin })).json().results;
    expect(all.docs[0]._id).toBe(mine._id);
    expect(all.total).toBeGreaterThan(1);
    const own = (await world.app.inject({ method: 'GET', url: '/v1/short-code?page=1', headers: other.headers })).json().results;
    expect(own.docs.map((c: { _id: string }) => c._id)).toEqual([mine._id]);
    expect(own.total).toBe(1);
  });

  it('answers 401 without a token', async () => {
    expect((await world.app.inject({ method: 'GET', url: '/v1/short-code?page=1' })).statusCode).toBe(401);
  });
});
