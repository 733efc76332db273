import { refunds } from '../src/db/schema';
import { buildTestWorld, type TestWorld } from './helpers';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

jest.setTimeout(30_000);

let world: TestWorld;
let admin: Record<string, string>;
let code: string;
const DAY = '2024-07-15';

beforeAll(async () => {
  world = await buildTestWorld();
  admin = (await world.headersFor('admin')).headers;
  code = (await createCatalogue(world, null)).code.name;
  // 08:30 and 21:10 in Kampala are 05:30Z and 18:10Z.
  const [first] = await insertTransactions(world, code, [
    { createdAt: new Date('2024-07-15T05:30:00Z'), isComplete: true, categoryLevel: 'vip', amount: 20000, network: 'MTN' },
    { createdAt: new Date('2024-07-15T05:40:00Z'), isComplete: true, categoryLevel: 'vip', amount: 20000, network: 'Airtel' },
    { createdAt: new Date('2024-07-15T18:10:00Z'), isComplete: true, categoryLevel: 'ordinary', amount: 10000, network: 'MTN' },
    { createdAt: new Date('2024-07-15T18:20:00Z'), isDeleted: true, categoryLevel: 'vip', amount: 20000, network: 'MTN' },
    { createdAt: new Date('2024-07-15T18:30:00Z'), categoryLevel: 'vip', amount: 20000, network: 'MTN' },
    { createdAt: new Date('2024-07-16T05:30:00Z'), isComplete: true, categoryLevel: 'vip', amount: 20000 }, // next day
  ]);
  const [earlier] = await insertTransactions(world, code, [{ createdAt: new Date('2024-07-10T05:30:00Z'), isComplete: true, categoryLevel: 'vip', amount: 10000 }]);
  // Refunds count on the day they completed in Kampala, whenever their call was made; a failed one gave nothing back.
  await world.db.insert(refunds).values([
    { transactionId: first.id, amount: 5000, reason: 'other', state: 'completed', createdAt: new Date('2024-07-15T04:00:00Z'), settledAt: new Date('2024-07-15T10:00:00Z') },
    { transactionId: first.id, amount: 3000, reason: 'other', state: 'completed', createdAt: new Date('2024-07-15T04:00:00Z'), settledAt: new Date('2024-07-15T21:30:00Z') }, // 00:30 on the 16th
    { transactionId: first.id, amount: 4000, reason: 'other', state: 'failed', createdAt: new Date('2024-07-15T04:00:00Z'), settledAt: new Date('2024-07-15T11:00:00Z') },
    { transactionId: earlier.id, amount: 2000, reason: 'duplicate-payment', state: 'completed', createdAt: new Date('2024-07-15T04:00:00Z'), settledAt: new Date('2024-07-15T06:00:00Z') },
  ]);
});
afterAll(() => world.close());

describe('GET /v1/dashboard/summary', () => {
  it('answers counts, success rate, revenue by level, volume per hour and per network for a day', async () => {
    const response = await world.app.inject({ method: 'GET', url: `/v1/dashboard/summary?name=${encodeURIComponent(code)}&date=${DAY}`, headers: admin });
    expect(response.statusCode).toBe(200);
    const summary = response.json().results;
    expect(summary).toMatchObject({ date: DAY, name: code, total: 5, processed: 3, failed: 1, pending: 1, successRate: 60, revenue: 50000 });
    expect(summary.refunds).toEqual({ count: 2, amount: 7000 });
    expect(summary.netRevenue).toBe(43000);
    expect(summary.revenueByLevel).toEqual([
      { level: 'vip', amount: 40000, count: 2 },
      { level: 'ordinary', amount: 10000, count: 1 },
    ]);
    expect(summary.perHour).toHaveLength(24);
    expect(summary.perHour[8]).toEqual({ hour: 8, total: 2, processed: 2, failed: 0, pending: 0 });
    expect(summary.perHour[21]).toEqual({ hour: 21, total: 3, processed: 1, failed: 1, pending: 1 });
    expect(summary.perNetwork).toEqual([
      { network: 'MTN', total: 4 },
      { network: 'Airtel', total: 1 },
    ]);
  });

  it('sums every code an admin reads when none is named: a rate to one decimal, a call of no level as unknown', async () => {
    const other = (await createCatalogue(world, null)).code.name;
    const [call] = await insertTransactions(world, other, [{ createdAt: new Date('2024-07-15T05:50:00Z'), isComplete: true, categoryLevel: null, amount: 5000, network: 'Airtel' }]);
    await world.db.insert(refunds).values({ transactionId: call.id, amount: 1000, reason: 'other', state: 'completed', createdAt: new Date('2024-07-15T04:00:00Z'), settledAt: new Date('2024-07-15T12:00:00Z') });
    const response = await world.app.inject({ method: 'GET', url: `/v1/dashboard/summary?date=${DAY}`, headers: admin });
    expect(response.statusCode).toBe(200);
    const summary = response.json().results;
    expect(summary).toMatchObject({ date: DAY, name: null, total: 6, processed: 4, failed: 1, pending: 1, successRate: 66.7, revenue: 55000 });
    expect(summary).toMatchObject({ refunds: { count: 3, amount: 8000 }, netRevenue: 47000 });
    expect(summary.revenueByLevel).toEqual([
      { level: 'vip', amount: 40000, count: 2 },
      { level: 'ordinary', amount: 10000, count: 1 },
      { level: 'unknown', amount: 5000, count: 1 },
    ]);
    expect(summary.perHour[8]).toEqual({ hour: 8, total: 3, processed: 3, failed: 0, pending: 0 });
    expect(summary.perNetwork).toEqual([
      { network: 'MTN', total: 4 },
      { network: 'Airtel', total: 2 },
    ]);
  });

  it('answers zeros for a quiet day and 400 for a bad date', async () => {
    const quiet = (await world.app.inject({ method: 'GET', url: `/v1/dashboard/summary?name=${encodeURIComponent(code)}&date=2020-01-01`, headers: admin })).json().results;
    expect(quiet).toMatchObject({ total: 0, successRate: 0, revenue: 0, refunds: { count: 0, amount: 0 }, netRevenue: 0, revenueByLevel: [], perNetwork: [] });
    const bad = await world.app.inject({ method: 'GET', url: '/v1/dashboard/summary?date=15-07-2024', headers: admin });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('Invalid date');
  });
});
