import type { ReconciliationRow, ReconciliationStatement } from '../../src/domain/reconciliation';
import { buildTestWorld, type TestWorld } from './helpers';
import { insertCall, reconciliationTableSizes, statementCsv, ticketCatalogue, upload, type Headers } from './reconciliation-fixtures';

jest.setTimeout(60_000);

/**
 * DESIGN §7: a statement compares currency as well as amount, and its period is its lines' span,
 * at most 31 days unless the upload declares it.
 */

let world: TestWorld;
let admin: Headers;
let catalogue: Awaited<ReturnType<typeof ticketCatalogue>>;

beforeAll(async () => {
  world = await buildTestWorld();
  admin = (await world.headersFor('admin')).headers;
  catalogue = await ticketCatalogue(world);
});
afterAll(() => world.close());

type StatementAnswer = ReconciliationStatement & { rows: { docs: ReconciliationRow[] } };

async function statement(id: string, query = ''): Promise<StatementAnswer> {
  const response = await world.app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${id}${query}`, headers: admin });
  expect(response.statusCode).toBe(200);
  return response.json().results;
}

const uploadTo = (csv: string, query: string) =>
  world.app.inject({ method: 'POST', url: `/v1/reconciliation/statements?${query}`, headers: { ...admin, 'content-type': 'text/csv' }, payload: csv });

describe('the currency of a line', () => {
  it("is never matched when it is not the service's, whatever the amount and status", async () => {
    const at = new Date('2026-07-01T10:00:00Z');
    const [usd, usdFailed, lower, ugx] = await Promise.all([
      insertCall(world, catalogue, 'processed', at),
      insertCall(world, catalogue, 'failed', at),
      insertCall(world, catalogue, 'processed', at),
      insertCall(world, catalogue, 'processed', at),
    ]);
    const csv = statementCsv([
      // The call's price, in dollars: not the money the call asked for.
      { reference: usd.reference, currency: 'USD', completedAt: '2026-07-01T10:00:00Z' },
      // Paid in another currency for a failed call: no ticket is issued from it.
      { reference: usdFailed.reference, currency: 'KES', completedAt: '2026-07-01T10:01:00Z' },
      { reference: lower.reference, currency: 'ugx', completedAt: '2026-07-01T10:02:00Z' },
      { reference: ugx.reference, completedAt: '2026-07-01T10:03:00Z' },
    ]);
    const created = await upload(world, admin, csv);
    expect(created.statusCode).toBe(201);
    const answer = await statement(created.json().results._id, '?kind=currencyMismatch');
    expect(answer.counts).toEqual({ matched: 2, paidNoTicket: 0, ticketNoMoney: 0, amountMismatch: 0, currencyMismatch: 2, unknownReference: 0, refundUnknown: 0, refundMismatch: 0, refundMissing: 0 });
    expect(answer.rows.docs.map((row) => [row.reference, row.currency])).toEqual([
      [usd.reference, 'USD'],
      [usdFailed.reference, 'KES'],
    ]);
  });

  it('follows SERVICE_CURRENCY', async () => {
    const kenya = await buildTestWorld({ serviceCurrency: 'KES' });
    try {
      const headers = (await kenya.headersFor('admin')).headers;
      const shop = await ticketCatalogue(kenya);
      const call = await insertCall(kenya, shop, 'processed', new Date('2026-07-02T10:00:00Z'));
      const created = await upload(kenya, headers, statementCsv([{ reference: call.reference, currency: 'UGX', completedAt: '2026-07-02T10:00:00Z' }]));
      const detail = (await kenya.app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${created.json().results._id}`, headers })).json().results;
      expect(detail.counts).toMatchObject({ matched: 0, currencyMismatch: 1 });
    } finally {
      await kenya.close();
    }
  });

  it("refuses what is not a currency code: the shilling's sign USh, digits, four letters", async () => {
    const before = await reconciliationTableSizes(world);
    const csv = statementCsv(['USh', 'Ugx', 'U5D', 'UGXX', 'Sh'].map((currency, i) => ({ reference: `cur-${i}`, currency, completedAt: '2026-07-03T10:00:00Z' })));
    const response = await upload(world, admin, csv);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([2, 3, 4, 5, 6].map((line) => ({ field: 'currency', message: `Line ${line}, column currency: not a currency code (three letters as ISO 4217 writes them, e.g. UGX)` })));
    expect(await reconciliationTableSizes(world)).toEqual(before);
  });
});

describe("a statement's period", () => {
  it('is refused when its lines span more than 31 days, naming completedAt, and nothing is written', async () => {
    const before = await reconciliationTableSizes(world);
    const csv = statementCsv([
      { reference: 'span-1', completedAt: '2000-01-01T00:00:00Z' },
      { reference: 'span-2', completedAt: '2050-06-01T00:00:00Z' },
      { reference: 'span-3', completedAt: '2100-01-01T00:00:00Z' },
    ]);
    const response = await upload(world, admin, csv);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      {
        field: 'completedAt',
        message: 'Column completedAt: the lines span 36,525 days (line 2 to line 4); a statement covers at most 31 days unless the upload declares its period (periodFrom and periodTo)',
      },
    ]);
    expect(await reconciliationTableSizes(world)).toEqual(before);
    // 31 days to the minute is still one statement.
    const month = statementCsv([{ reference: 'month-1', completedAt: '2026-08-01T00:00:00Z' }, { reference: 'month-2', completedAt: '2026-09-01T00:00:00Z' }]);
    expect((await upload(world, admin, month)).statusCode).toBe(201);
  });

  it('may be declared at upload: every line within it, and its days are the period the missing calls are looked for in', async () => {
    const inside = await insertCall(world, catalogue, 'processed', new Date('2026-10-20T12:00:00Z'));
    // Kampala is UTC+3: 23:30 on 31 December there is within the last declared day, 00:30 on 1 January is not.
    const lastEvening = await insertCall(world, catalogue, 'processed', new Date('2026-12-31T20:30:00Z'));
    const after = await insertCall(world, catalogue, 'processed', new Date('2026-12-31T21:30:00Z'));
    const csv = statementCsv([
      { reference: 'quarter-1', completedAt: '2026-10-01T00:00:00+03:00' },
      { reference: 'quarter-2', completedAt: '2026-12-31T12:00:00Z' },
    ]);
    const created = await uploadTo(csv, 'fileName=q4.csv&periodFrom=2026-10-01&periodTo=2026-12-31');
    expect(created.statusCode).toBe(201);
    const answer = await statement(created.json().results._id, '?kind=ticketNoMoney');
    expect(answer).toMatchObject({ fileName: 'q4.csv', periodDeclared: true, periodFrom: '2026-09-30T21:00:00.000Z', periodTo: '2026-12-31T20:59:59.999Z' });
    expect(answer.rows.docs.map((row) => row.reference)).toEqual([inside.reference, lastEvening.reference]);
    expect(answer.counts).toMatchObject({ unknownReference: 2, ticketNoMoney: 2 });
    expect(after.reference).not.toBe(lastEvening.reference);
  });

  it('refuses a line outside the declared period, naming its line and column', async () => {
    const csv = statementCsv([
      { reference: 'declared-1', completedAt: '2026-11-01T10:00:00Z' },
      { reference: 'declared-2', completedAt: '2026-11-01T00:00:00+03:00' },
      { reference: 'declared-3', completedAt: '2026-10-31T20:59:59Z' },
    ]);
    const response = await uploadTo(csv, 'periodFrom=2026-11-01&periodTo=2026-11-30');
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([{ field: 'completedAt', message: 'Line 4, column completedAt: outside the declared period (2026-11-01 to 2026-11-30)' }]);
  });

  it('refuses a declared period that is not two days in order, at most 92 days apart, before reading the file', async () => {
    const csv = statementCsv([{ reference: 'p-1', completedAt: '2026-11-01T10:00:00Z' }]);
    const cases: [string, { field: string; message: string }[]][] = [
      ['periodFrom=2026-11-01', [{ field: 'periodFrom', message: 'Give periodTo as well' }]],
      ['periodTo=2026-11-30', [{ field: 'periodTo', message: 'Give periodFrom as well' }]],
      ['periodFrom=2026-11-31&periodTo=2026-12-01', [{ field: 'periodFrom', message: 'Must be a day, YYYY-MM-DD, between 2000 and 2100' }]],
      ['periodFrom=1-11-2026&periodTo=2026-12-01', [{ field: 'periodFrom', message: 'Must be a day, YYYY-MM-DD, between 2000 and 2100' }]],
      ['periodFrom=2026-12-01&periodTo=2026-11-01', [{ field: 'periodTo', message: 'Must not be before periodFrom' }]],
      ['periodFrom=2000-01-01&periodTo=2100-12-31', [{ field: 'periodTo', message: 'A declared period covers at most 92 days' }]],
      ['periodFrom=2101-01-01&periodTo=2101-01-02', [{ field: 'periodFrom', message: 'Must be a day, YYYY-MM-DD, between 2000 and 2100' }, { field: 'periodTo', message: 'Must be a day, YYYY-MM-DD, between 2000 and 2100' }]],
    ];
    for (const [query, errors] of cases) {
      const response = await uploadTo(csv, query);
      expect({ query, status: response.statusCode, errors: response.json().errors }).toEqual({ query, status: 400, errors });
    }
    expect((await uploadTo(csv, 'periodFrom=2026-09-01&periodTo=2026-11-30')).statusCode).toBe(201);
  });
});
