import { eq } from 'drizzle-orm';
import { auditLog, refunds } from '../src/db/schema';
import { buildTestWorld, type TestWorld } from './helpers';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

jest.setTimeout(60_000);

let world: TestWorld;
let agent: Record<string, string>;
let care: Record<string, string>;
let admin: Record<string, string>;
let mine: string;
let theirs: string;
const PHONE = '256772000901';
let myCallIds: string[];
let theirCallId: string;

beforeAll(async () => {
  world = await buildTestWorld();
  const me = await world.headersFor('agent');
  agent = me.headers;
  care = (await world.headersFor('customer-care')).headers;
  admin = (await world.headersFor('admin')).headers;
  const other = await world.createUser('agent');
  mine = (await createCatalogue(world, me.user.id)).code.name;
  theirs = (await createCatalogue(world, other.id)).code.name;
  const mineRows = await insertTransactions(world, mine, [
    { phoneNumber: PHONE, isComplete: true, amount: 10000, messageStatuses: 'Delivered', createdAt: new Date('2026-10-02T09:00:00Z'), paymentRef: 'ref-mine-1' },
    { phoneNumber: PHONE, isComplete: true, amount: 5000, campaignKey: null, messageStatuses: 'Sent', createdAt: new Date('2026-10-20T09:00:00Z') },
    { phoneNumber: PHONE, isDeleted: true, amount: 5000, messageStatuses: 'Payment failed', createdAt: new Date('2026-11-03T09:00:00Z') },
    { phoneNumber: '256772000902', isComplete: true, amount: 7000, createdAt: new Date('2026-10-05T09:00:00Z') },
  ]);
  myCallIds = mineRows.slice(0, 3).map((row) => row.id);
  [{ id: theirCallId }] = await insertTransactions(world, theirs, [
    { phoneNumber: PHONE, isComplete: true, amount: 20000, messageStatuses: 'Delivered', createdAt: new Date('2026-10-10T09:00:00Z'), paymentRef: 'ref-theirs-1' },
  ]);
});
afterAll(() => world.close());

const get = (url: string, headers: Record<string, string>) => world.app.inject({ method: 'GET', url, headers });

describe('the customer page', () => {
  it("shows an agent only its own codes' calls and figures", async () => {
    const summary = (await get(`/v1/customers/${PHONE}`, agent)).json().results;
    expect(summary).toEqual({
      phoneNumber: PHONE,
      firstSeenAt: '2026-10-02T09:00:00.000Z',
      lastSeenAt: '2026-11-03T09:00:00.000Z',
      calls: 3,
      processed: 2,
      failed: 1,
      spent: 15000,
      refunded: 0,
      votes: 0,
      sms: 2,
    });
    const calls = (await get(`/v1/customers/${PHONE}/calls?page=1&limit=10`, agent)).json().results;
    expect(calls.docs.map((t: { _id: string }) => t._id)).toEqual([...myCallIds].reverse());
    expect(calls.total).toBe(3);
  });

  it('shows customer care and admins every code, and reads the number in any form', async () => {
    for (const headers of [care, admin]) {
      const summary = (await get(`/v1/customers/${encodeURIComponent('+256 772-000901')}`, headers)).json().results;
      expect(summary).toMatchObject({ phoneNumber: PHONE, calls: 4, processed: 3, spent: 35000, sms: 3 });
      const calls = (await get(`/v1/customers/0772000901/calls?page=1`, headers)).json().results;
      expect(calls.docs[0]._id).toBe(myCallIds[2]);
      expect(calls.docs.map((t: { _id: string }) => t._id)).toContain(theirCallId);
    }
  });

  it('answers zeros for a number without calls in scope', async () => {
    const summary = (await get('/v1/customers/256700000555', agent)).json().results;
    expect(summary).toMatchObject({ calls: 0, firstSeenAt: null, lastSeenAt: null, spent: 0 });
  });

  it('refuses a number that is not one, naming the field and not echoing it', async () => {
    for (const bad of ['12345', 'abc%3Cscript%3E', '2567720009019999999']) {
      const response = await get(`/v1/customers/${bad}`, admin);
      expect([bad, response.statusCode]).toEqual([bad, 400]);
      expect(response.json().errors[0].field).toBe('phoneNumber');
      expect(response.body).not.toContain('script');
    }
  });
});

describe('the top-bar lookup', () => {
  it('finds a phone number, a payment reference and a call id, in scope', async () => {
    expect((await get(`/v1/transactions/lookup?q=0772000901`, agent)).json().results).toEqual({ kind: 'customer', phoneNumber: PHONE, transactionId: null, transaction: null, path: `/customers/${PHONE}` });
    expect((await get(`/v1/transactions/lookup?q=ref-mine-1`, agent)).json().results).toMatchObject({ kind: 'call', transactionId: myCallIds[0], transaction: { _id: myCallIds[0], paymentRef: 'ref-mine-1' }, path: `/customers/${PHONE}?call=${myCallIds[0]}` });
    expect((await get(`/v1/transactions/lookup?q=${myCallIds[2]}`, agent)).json().results).toMatchObject({ kind: 'call', transactionId: myCallIds[2] });
    // Another agent's reference and id are unknown to this one.
    expect((await get(`/v1/transactions/lookup?q=ref-theirs-1`, agent)).statusCode).toBe(404);
    expect((await get(`/v1/transactions/lookup?q=${theirCallId}`, agent)).statusCode).toBe(404);
    expect((await get(`/v1/transactions/lookup?q=${theirCallId}`, care)).json().results).toMatchObject({ kind: 'call', transactionId: theirCallId });
  });

  it('refuses an empty search with a field error', async () => {
    const response = await get('/v1/transactions/lookup?q=', agent);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors[0].field).toBe('q');
  });
});

describe('date ranges on the lists and exports', () => {
  it('reads a range on the transactions, failed and search lists and the export', async () => {
    const range = { dateFrom: '2026-10-01', dateTo: '2026-10-31' };
    const day = await world.app.inject({ method: 'POST', url: '/v1/transactions?page=1', headers: admin, payload: { name: mine, ...range } });
    expect(day.json().results.total).toBe(3);
    const failed = await get(`/v1/transactions/to/give/attention?name=${encodeURIComponent(mine)}&dateFrom=2026-11-01&dateTo=2026-11-30`, admin);
    expect(failed.json().results.docs.map((t: { _id: string }) => t._id)).toEqual([myCallIds[2]]);
    const search = await world.app.inject({ method: 'POST', url: '/v1/transactions/search', headers: admin, payload: { phoneNumber: PHONE, ...range } });
    expect(search.json().results.total).toBe(3);
    const csv = await get(`/v1/transactions/export?name=${encodeURIComponent(mine)}&dateFrom=2026-10-01&dateTo=2026-10-31`, admin);
    expect(csv.statusCode).toBe(200);
    expect(csv.body.trim().split('\r\n')).toHaveLength(4);
  });

  it('refuses a range over 31 days, naming the field', async () => {
    const calls = [
      world.app.inject({ method: 'POST', url: '/v1/transactions', headers: admin, payload: { dateFrom: '2026-10-01', dateTo: '2026-11-02' } }),
      get('/v1/transactions/to/give/attention?dateFrom=2026-10-01&dateTo=2026-11-02', admin),
      get('/v1/transactions/export?dateFrom=2026-10-01&dateTo=2026-11-02', admin),
      world.app.inject({ method: 'POST', url: '/v1/transactions/search', headers: admin, payload: { phoneNumber: PHONE, dateFrom: '2026-10-01', dateTo: '2026-11-02' } }),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([{ field: 'dateTo', message: 'A range spans at most 31 days' }]);
    }
    // 31 days apart is a whole month and more: still taken.
    expect((await get('/v1/transactions/to/give/attention?dateFrom=2026-10-01&dateTo=2026-11-01', admin)).statusCode).toBe(200);
  });

  it('refuses a range that ends before it starts, one end alone, and a day with a range', async () => {
    const cases: [string, string][] = [
      ['dateFrom=2026-10-10&dateTo=2026-10-01', 'dateFrom'],
      ['dateFrom=2026-10-10', 'dateTo'],
      ['dateTo=2026-10-10', 'dateFrom'],
      ['date=2026-10-10&dateFrom=2026-10-01&dateTo=2026-10-10', 'date'],
      ['dateFrom=2026-02-30&dateTo=2026-03-01', 'dateFrom'],
    ];
    for (const [query, field] of cases) {
      const response = await get(`/v1/transactions/to/give/attention?${query}`, admin);
      expect([query, response.statusCode, response.json().errors[0]?.field]).toEqual([query, 400, field]);
    }
  });
});

describe('the monthly report', () => {
  it("gives each code's month in the caller's scope", async () => {
    const all = (await get('/v1/reports/monthly?month=2026-10', admin)).json().results;
    expect(all).toEqual(
      expect.arrayContaining([
        { name: mine, calls: 3, processed: 3, failed: 0, revenue: 22000, refunded: 0, successRate: 100 },
        { name: theirs, calls: 1, processed: 1, failed: 0, revenue: 20000, refunded: 0, successRate: 100 },
      ]),
    );
    const mineOnly = (await get('/v1/reports/monthly?month=2026-11', agent)).json().results;
    expect(mineOnly).toEqual([{ name: mine, calls: 1, processed: 0, failed: 1, revenue: 0, refunded: 0, successRate: 0 }]);
    expect((await get(`/v1/reports/monthly?month=2026-10&name=${encodeURIComponent(theirs)}`, agent)).statusCode).toBe(404);
  });

  it('refuses a month that is not one', async () => {
    for (const month of ['2026-13', '26-10', '', '2026-10-01']) {
      const response = await get(`/v1/reports/monthly?month=${month}`, admin);
      expect([month, response.statusCode, response.json().errors[0]?.field]).toEqual([month, 400, 'month']);
    }
  });

  it('exports the month as CSV, recorded in the audit trail', async () => {
    const csv = await get(`/v1/reports/monthly/export?month=2026-10&name=${encodeURIComponent(mine)}`, admin);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\r\n')[1]).toBe(`${mine},3,3,0,22000,0,100`);
    const entries = await world.db.select().from(auditLog).where(eq(auditLog.action, 'export.report'));
    expect(entries).toHaveLength(1);
  });
});

describe('refunds in the figures', () => {
  it("counts completed refunds on the customer's calls in scope and in the month they settled", async () => {
    await world.db.insert(refunds).values([
      { transactionId: myCallIds[0], amount: 4000, reason: 'customer-request', state: 'completed', settledAt: new Date('2026-10-05T09:00:00Z') },
      { transactionId: theirCallId, amount: 3000, reason: 'duplicate-payment', state: 'completed', settledAt: new Date('2026-10-12T09:00:00Z') },
      // Asked for, never paid back: counts nowhere.
      { transactionId: myCallIds[1], amount: 1000, reason: 'other', state: 'requested' },
    ]);
    expect((await get(`/v1/customers/${PHONE}`, agent)).json().results.refunded).toBe(4000);
    expect((await get(`/v1/customers/${PHONE}`, admin)).json().results.refunded).toBe(7000);
    const october = (await get('/v1/reports/monthly?month=2026-10', admin)).json().results as { name: string; refunded: number }[];
    expect(october.filter((row) => row.name === mine || row.name === theirs).map((row) => [row.name, row.refunded]).sort()).toEqual(
      [[mine, 4000], [theirs, 3000]].sort(),
    );
    const november = (await get('/v1/reports/monthly?month=2026-11', agent)).json().results as { refunded: number }[];
    expect(november.map((row) => row.refunded)).toEqual([0]);
  });
});
