import { buildTestWorld, type TestWorld } from './helpers';
import { createCategory, type Headers } from './catalogue-fixtures';
import type { Category, Content } from '../../src/domain/entities';

let world: TestWorld;
let admin: Headers;
let agent: { id: string; userName: string; headers: Headers };
let category: Category;
let othersCategory: Category;

beforeAll(async () => {
  world = await buildTestWorld();
  admin = (await world.headersFor('admin')).headers;
  const a = await world.headersFor('agent');
  agent = { id: a.user.id, userName: a.user.userName, headers: a.headers };
  category = await createCategory(world, admin, agent.id);
  othersCategory = await createCategory(world, admin, (await world.createUser('agent')).id);
}, 60_000);
afterAll(() => world.close());

const post = (headers: Headers | undefined, payload: object) => world.app.inject({ method: 'POST', url: '/v1/ticket', headers, payload });
const patch = (id: string, headers: Headers | undefined, payload: object) => world.app.inject({ method: 'PATCH', url: `/v1/ticket/${id}`, headers, payload });
const ticket = (overrides: object = {}) => ({ name: 'Ticket', description: 'Weekend', category: category._id, categoryLevel: 'vip', message: 'Your ticket is 1234', ...overrides });
const create = async (headers: Headers, overrides: object = {}) => {
  const response = await post(headers, ticket(overrides));
  if (response.statusCode !== 201) throw new Error(response.body);
  return response.json().results as Content;
};
const list = async (headers: Headers) =>
  (await world.app.inject({ method: 'GET', url: '/v1/ticket?page=1&limit=100', headers })).json().results.docs as Content[];

describe('POST /v1/ticket', () => {
  it('creates a content with its category and author', async () => {
    const content = await create(agent.headers);
    expect(content).toMatchObject({
      name: 'Ticket',
      message: 'Your ticket is 1234',
      description: 'Weekend',
      categoryLevel: 'vip',
      category: { _id: category._id, name: category.name },
      createdBy: { _id: agent.id, userName: agent.userName },
      active: false,
    });
  });

  it('answers 400 with SPEC messages', async () => {
    const response = await post(admin, { category: '0', categoryLevel: '0' });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual(
      expect.arrayContaining([
        { field: 'category', message: 'Please select the category' },
        { field: 'categoryLevel', message: 'Please select the category level' },
        { field: 'message', message: 'Please the message' },
      ]),
    );
    const unknownLevel = await post(admin, ticket({ categoryLevel: 'platinum' }));
    expect(unknownLevel.json().errors).toEqual([{ field: 'categoryLevel', message: 'Please select the category level' }]);
    const unknownCategory = await post(admin, ticket({ category: '00000000-0000-4000-8000-000000000000' }));
    expect(unknownCategory.statusCode).toBe(400);
    expect(unknownCategory.json().errors).toEqual([{ field: 'category', message: 'Please select the category' }]);
  });

  it('holds messages to 160 GSM-7 characters, extension characters counting two', async () => {
    expect((await post(admin, ticket({ message: 'a'.repeat(160) }))).statusCode).toBe(201);
    const long = await post(admin, ticket({ message: 'a'.repeat(161) }));
    expect(long.statusCode).toBe(400);
    expect(long.json().errors).toEqual([{ field: 'message', message: 'Message must be at most 160 characters' }]);
    expect((await post(admin, ticket({ message: `${'a'.repeat(159)}€` }))).statusCode).toBe(400);
    const emoji = await post(admin, ticket({ message: 'Goal ⚽' }));
    expect(emoji.json().errors).toEqual([{ field: 'message', message: "Use only characters of the GSM-7 alphabet: '⚽' (U+26BD) is not one" }]);
    // A character that cannot be told from a space by its look is named by its code point alone.
    const noBreakSpace = await post(admin, ticket({ message: 'Gate\u00a0B' }));
    expect(noBreakSpace.json().errors).toEqual([{ field: 'message', message: 'Use only characters of the GSM-7 alphabet: U+00A0 is not one' }]);
  });

  it('lets an agent write only for its own categories', async () => {
    expect((await post(agent.headers, ticket({ category: othersCategory._id }))).statusCode).toBe(403);
    expect((await post(undefined, ticket())).statusCode).toBe(401);
  });
});

describe('activation', () => {
  it('keeps one active content per category and level', async () => {
    const first = await create(admin, { categoryLevel: 'family', active: true });
    const second = await create(admin, { categoryLevel: 'family', active: true });
    const otherLevel = await create(admin, { categoryLevel: 'doubles', active: true });
    const byId = new Map((await list(admin)).map((c) => [c._id, c.active]));
    expect(byId.get(first._id)).toBe(false);
    expect(byId.get(second._id)).toBe(true);
    expect(byId.get(otherLevel._id)).toBe(true);

    const reactivated = await patch(first._id, admin, { active: true });
    expect(reactivated.statusCode).toBe(200);
    expect(reactivated.json().results.active).toBe(true);
    const after = new Map((await list(admin)).map((c) => [c._id, c.active]));
    expect(after.get(first._id)).toBe(true);
    expect(after.get(second._id)).toBe(false);
  });
});

describe('PATCH /v1/ticket/:id', () => {
  it('updates the message and keeps the author', async () => {
    const content = await create(agent.headers);
    const response = await patch(content._id, admin, { message: 'New ticket 99', description: 'Changed' });
    expect(response.statusCode).toBe(200);
    expect(response.json().results).toMatchObject({ message: 'New ticket 99', description: 'Changed', createdBy: { _id: agent.id } });
  });

  it('answers 400 on bad bodies and ids, 404 on unknown ones, 403 for another agent', async () => {
    const content = await create(admin);
    expect((await patch(content._id, admin, { message: '' })).json().errors).toEqual([{ field: 'message', message: 'Please the message' }]);
    expect((await patch('nope', admin, {})).statusCode).toBe(400);
    expect((await patch('00000000-0000-4000-8000-000000000000', admin, {})).statusCode).toBe(404);
    const foreign = await create(admin, { category: othersCategory._id });
    expect((await patch(foreign._id, agent.headers, { message: 'hijack' })).statusCode).toBe(403);
    expect((await patch(content._id, agent.headers, { category: othersCategory._id })).statusCode).toBe(403);
  });
});

describe('GET /v1/ticket', () => {
  it('shows managers everything and an agent only its own categories', async () => {
    const foreign = await create(admin, { category: othersCategory._id });
    const own = await create(admin);
    const all = (await list(admin)).map((c) => c._id);
    expect(all.slice(0, 2)).toEqual([own._id, foreign._id]);
    const agentSees = await list(agent.headers);
    expect(agentSees.map((c) => c._id)).toContain(own._id);
    expect(agentSees.every((c) => c.category?._id === category._id)).toBe(true);
    expect((await world.app.inject({ method: 'GET', url: '/v1/ticket?page=1' })).statusCode).toBe(401);
  });
});
