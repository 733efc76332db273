import { eq } from 'drizzle-orm';
import { auditLog } from '../src/db/schema';
import { buildTestWorld, type TestWorld } from './helpers';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

/**
 * The refunds queue as CSV: customer care and the managers download it (of one state or all, in
 * the queue's order, only the codes they read), every download recorded as an export.
 */

jest.setTimeout(60_000);

let world: TestWorld;
let care: Record<string, string>;
let admin: Record<string, string>;
let phones: string[];

beforeAll(async () => {
  world = await buildTestWorld();
  care = (await world.headersFor('customer-care')).headers;
  admin = (await world.headersFor('admin')).headers;
  const { code } = await createCatalogue(world, null);
  const calls = await insertTransactions(world, code.name, [
    { isComplete: true, amount: 5000, categoryLevel: 'vip', phoneNumber: '256770000011' },
    { isComplete: true, amount: 1000, categoryLevel: 'ordinary', phoneNumber: '256770000012' },
  ]);
  phones = calls.map((call) => call.phoneNumber);
  const first = await world.app.inject({ method: 'POST', url: `/v1/transactions/${calls[0].id}/refunds`, headers: care, payload: { amount: 2000, reason: 'duplicate-payment', note: 'Paid, twice' } });
  expect(first.statusCode).toBe(201);
  const second = await world.app.inject({ method: 'POST', url: `/v1/transactions/${calls[1].id}/refunds`, headers: care, payload: { reason: 'other' } });
  const rejected = await world.app.inject({ method: 'POST', url: `/v1/refunds/${second.json().results._id}/reject`, headers: admin, payload: { reason: 'Ticket was used' } });
  expect(rejected.statusCode).toBe(200);
});

afterAll(async () => {
  await world?.close();
});

const exportOf = (query: string, headers = care) => world.app.inject({ method: 'GET', url: `/v1/refunds/export${query}`, headers });

describe('GET /v1/refunds/export', () => {
  it("sends every refund in the queue's order, awaiting approval first, with who asked and who decided", async () => {
    const response = await exportOf('');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toBe('attachment; filename="refunds-all.csv"');
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('Requested at,Service code,From,Call amount,Amount,Reason,Note,State,Requested by,Decided by,Decided at,Decision reason,Provider reference,Failure reason,Settled at');
    expect(lines).toHaveLength(3);
    const [awaiting, done] = lines.slice(1).map((line) => line.split(','));
    expect(awaiting.slice(2, 6)).toEqual([phones[0], '5000', '2000', 'Duplicate payment']);
    expect(lines[1]).toContain('"Paid, twice"');
    expect(done[2]).toBe(phones[1]);
    expect(lines[2]).toContain('Ticket was used');
  });

  it('sends one state when asked, and refuses a state that is none', async () => {
    const requested = await exportOf('?state=requested', admin);
    expect(requested.statusCode).toBe(200);
    expect(requested.headers['content-disposition']).toBe('attachment; filename="refunds-requested.csv"');
    expect(requested.body.trimEnd().split('\r\n')).toHaveLength(2);
    const bad = await exportOf('?state=paid%00');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('state');
    expect(bad.body).not.toContain('paid');
  });

  it('records each download as an export with its filter and row count', async () => {
    const before = await world.db.select().from(auditLog).where(eq(auditLog.action, 'export.report'));
    await exportOf('?state=rejected');
    const entries = await world.db.select().from(auditLog).where(eq(auditLog.action, 'export.report'));
    expect(entries).toHaveLength(before.length + 1);
    const entry = entries.find((row) => !before.some((old) => old.id === row.id))!;
    expect(entry.entityLabel).toContain('refunds-rejected.csv');
    expect(entry.changes).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'rows', after: 1 })]));
  });

  it('is not for agents', async () => {
    const agent = (await world.headersFor('agent')).headers;
    expect((await exportOf('', agent)).statusCode).toBe(403);
  });
});
