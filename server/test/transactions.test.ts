import { eq } from 'drizzle-orm';
import { transactions } from '../src/db/schema';
import { todayInServiceZone } from '../../src/domain/format';
import { buildTestWorld, type TestWorld } from './helpers';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

jest.setTimeout(30_000);

let world: TestWorld;
let admin: Record<string, string>;
let code: string;
let categoryId: string;

// 2024-03-10 in Kampala (UTC+3) runs from 2024-03-09T21:00Z to 2024-03-10T21:00Z.
const DAY = '2024-03-10';

beforeAll(async () => {
  world = await buildTestWorld();
  admin = (await world.headersFor('admin')).headers;
  const agent = await world.createUser('agent');
  const catalogue = await createCatalogue(world, agent.id);
  code = catalogue.code.name;
  categoryId = catalogue.category.id;
  await insertTransactions(world, code, [
    { createdAt: new Date('2024-03-09T20:59:59Z'), phoneNumber: '256770000009' }, // the day before
    { createdAt: new Date('2024-03-09T21:00:00Z'), isComplete: true, callbackTime: new Date('2024-03-09T21:00:05Z'), categoryId, categoryLevel: 'vip', ticketMessage: 'Seat 4', messageStatuses: 'Delivered' },
    { createdAt: new Date('2024-03-10T10:00:00Z'), isDeleted: true, phoneNumber: '256771234567' },
    { createdAt: new Date('2024-03-10T20:59:59Z'), phoneNumber: '256771234567' },
    { createdAt: new Date('2024-03-10T21:00:00Z') }, // the day after
  ]);
});
afterAll(() => world.close());

const list = (query: string, payload: object, headers = admin) =>
  world.app.inject({ method: 'POST', url: `/v1/transactions${query}`, headers, payload });

describe('POST /v1/transactions', () => {
  it('answers the day of one service code in the service zone, newest first, paged', async () => {
    const response = await list('?page=1&limit=2', { name: code, date: DAY });
    expect(response.statusCode).toBe(200);
    const { results } = response.json();
    expect(results).toMatchObject({ page: 1, limit: 2, total: 3, pages: 2, previous: null, next: 2 });
    expect(results.docs.map((d: { createdAt: string }) => d.createdAt)).toEqual(['2024-03-10T20:59:59.000Z', '2024-03-10T10:00:00.000Z']);
    const second = (await list('?page=2&limit=2', { name: code, date: DAY })).json().results;
    expect(second.docs[0]).toMatchObject({
      name: code,
      shortCode: { name: code },
      isComplete: true,
      callbackTime: '2024-03-09T21:00:05.000Z',
      category: { _id: categoryId },
      categoryLevel: 'vip',
      ticket: { message: 'Seat 4' },
      messageStatuses: 'Delivered',
    });
  });

  it('answers every field of a call, times in UTC to the millisecond, and the total past the last page', async () => {
    const [row] = await insertTransactions(world, code, [
      {
        createdAt: new Date('2024-03-10T12:00:00.123Z'),
        callbackTime: new Date('2024-03-10T12:00:09.987Z'),
        phoneNumber: '256772000001',
        network: 'Airtel',
        isComplete: true,
        categoryId,
        categoryLevel: 'ordinary',
        amount: 10000,
        paymentRef: 'ref-shape-1',
        ticketMessage: 'Gate 2 "north" $1 \\ ünïcode',
        messageStatuses: 'Success',
      },
    ]);
    const search = await world.app.inject({ method: 'POST', url: '/v1/transactions/search', headers: admin, payload: { phoneNumber: '0772000001' } });
    expect(search.headers['content-type']).toMatch(/^application\/json/);
    expect(search.json().results.docs).toEqual([
      {
        _id: row.id,
        name: code,
        shortCode: { name: code },
        phoneNumber: '256772000001',
        network: 'Airtel',
        createdAt: '2024-03-10T12:00:00.123Z',
        callbackTime: '2024-03-10T12:00:09.987Z',
        isComplete: true,
        isDeleted: false,
        isResolved: false,
        categoryLevel: 'ordinary',
        category: { _id: categoryId, name: expect.any(String) },
        amount: 10000,
        campaignKey: null,
        round: null,
        teamName: null,
        teamName2: null,
        messageStatuses: 'Success',
        ticket: { message: 'Gate 2 "north" $1 \\ ünïcode' },
        paymentRef: 'ref-shape-1',
        resolvedBy: null,
        resolvedAt: null,
        resolvedReason: null,
        resolvedNote: null,
        failureReason: null,
        refundedAmount: 0,
      },
    ]);
    const past = (await list('?page=9&limit=2', { name: code, date: DAY })).json().results;
    expect(past).toMatchObject({ docs: [], page: 9, total: 4, pages: 2, next: null, previous: 8 });
    await world.db.delete(transactions).where(eq(transactions.id, row.id));
  });

  it('orders calls of the same instant by id, newest first, on every page', async () => {
    const other = (await createCatalogue(world, null)).code.name;
    const at = new Date('2024-03-10T15:00:00.500Z');
    const rows = await insertTransactions(world, other, Array.from({ length: 12 }, (_, i) => ({ createdAt: i % 3 ? at : new Date(at.getTime() + i) })));
    const expected = [...rows]
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
      .map((r) => r.id);
    const pages = await Promise.all([1, 2, 3].map((page) => list(`?page=${page}&limit=5`, { name: other, date: DAY })));
    expect(pages.flatMap((r) => r.json().results.docs.map((d: { _id: string }) => d._id))).toEqual(expected);
  });

  it('defaults to today and to 50 per page', async () => {
    await insertTransactions(world, code, [{}]);
    const { results, message } = (await list('', { name: code })).json();
    expect(message).toBe(`Transactions for ${todayInServiceZone()}`);
    expect(results).toMatchObject({ total: 1, limit: 50 });
  });

  it.each([
    [{ name: code, date: '2024-02-30' }, 'Invalid date'],
    [{ name: code, date: '10/03/2024' }, 'Invalid date'],
  ])('refuses %j with 400', async (payload, message) => {
    const response = await list('', payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ status: false, message, errors: [{ field: 'date', message }] });
  });

  it('refuses a page size above 100 and a page below 1', async () => {
    expect((await list('?limit=500', { name: code })).statusCode).toBe(400);
    expect((await list('?page=0', { name: code })).statusCode).toBe(400);
  });

  it('asks for a sign-in', async () => {
    const response = await world.app.inject({ method: 'POST', url: '/v1/transactions', payload: {} });
    expect(response.statusCode).toBe(401);
  });
});

describe('failed transactions', () => {
  it('lists only failed calls, optionally by code and day', async () => {
    const all = (await world.app.inject({ method: 'GET', url: '/v1/transactions/to/give/attention', headers: admin })).json().results;
    expect(all.docs.every((d: { isDeleted: boolean; isComplete: boolean }) => d.isDeleted && !d.isComplete)).toBe(true);
    const day = (await world.app.inject({ method: 'GET', url: `/v1/transactions/to/give/attention?name=${encodeURIComponent(code)}&date=${DAY}&limit=50`, headers: admin })).json().results;
    expect(day.total).toBe(1);
    expect(day.docs[0].phoneNumber).toBe('256771234567');
    const bad = await world.app.inject({ method: 'GET', url: '/v1/transactions/to/give/attention?date=yesterday', headers: admin });
    expect(bad.statusCode).toBe(400);
  });

  it('resolves a failed call once, keeping the first resolver', async () => {
    const [failed] = await insertTransactions(world, code, [{ isDeleted: true }]);
    const first = await world.app.inject({ method: 'POST', url: `/v1/transactions/to/give/attention/${failed.id}`, headers: admin, payload: { isResolved: true } });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ message: 'Resolved', results: { _id: failed.id, isResolved: true } });
    const [afterFirst] = await world.db.select().from(transactions).where(eq(transactions.id, failed.id));

    const other = (await world.headersFor('super-user')).headers;
    const second = await world.app.inject({ method: 'POST', url: `/v1/transactions/to/give/attention/${failed.id}`, headers: other, payload: { isResolved: true } });
    expect(second.statusCode).toBe(200);
    const [afterSecond] = await world.db.select().from(transactions).where(eq(transactions.id, failed.id));
    expect(afterSecond.resolvedById).toBe(afterFirst.resolvedById);
    expect(afterSecond.resolvedAt).toEqual(afterFirst.resolvedAt);
  });

  it('refuses bad resolves: not failed 400, bad body 400, malformed id 400, unknown id 404', async () => {
    const [pending] = await insertTransactions(world, code, [{}]);
    const resolve = (id: string, payload: object) =>
      world.app.inject({ method: 'POST', url: `/v1/transactions/to/give/attention/${id}`, headers: admin, payload });
    expect((await resolve(pending.id, { isResolved: true })).json()).toMatchObject({ message: 'Only failed transactions can be resolved' });
    expect((await resolve(pending.id, { isResolved: true })).statusCode).toBe(400);
    expect((await resolve(pending.id, { isResolved: false })).statusCode).toBe(400);
    expect((await resolve('not-a-uuid', { isResolved: true })).statusCode).toBe(400);
    expect((await resolve('6f1c2f44-0000-4000-8000-000000000000', { isResolved: true })).statusCode).toBe(404);
  });

  it.each([
    ['false', { isResolved: false }, 'isResolved must be true'],
    ['missing', {}, 'isResolved must be true'],
    ['null', { isResolved: null }, 'isResolved must be true'],
    ['not a boolean', { isResolved: 'yes' }, 'Invalid value'],
  ])('refuses a body whose isResolved is %s with a field error, and leaves the call unresolved', async (_case, payload, message) => {
    const [failed] = await insertTransactions(world, code, [{ isDeleted: true }]);
    const response = await world.app.inject({ method: 'POST', url: `/v1/transactions/to/give/attention/${failed.id}`, headers: admin, payload });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([{ field: 'isResolved', message }]);
    const [row] = await world.db.select().from(transactions).where(eq(transactions.id, failed.id));
    expect(row.isResolved).toBe(false);
  });
});

describe('POST /v1/transactions/search', () => {
  it.each(['0771234567', '+256771234567', '256771234567', '256 771 234 567'])('finds the calls of %s, newest first', async (phoneNumber) => {
    const response = await world.app.inject({ method: 'POST', url: '/v1/transactions/search', headers: admin, payload: { phoneNumber } });
    expect(response.statusCode).toBe(200);
    const { docs, total } = response.json().results;
    expect(total).toBe(2);
    expect(docs[0].createdAt > docs[1].createdAt).toBe(true);
  });

  it('asks for a phone number', async () => {
    const response = await world.app.inject({ method: 'POST', url: '/v1/transactions/search', headers: admin, payload: {} });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([{ field: 'phoneNumber', message: 'Please provide the phone number' }]);
  });
});
