import { TRANSACTION_CSV_HEADER, transactionCsvLine } from '../../src/domain/transaction-csv';
import { refunds } from '../src/db/schema';
import { CSV_CHUNK_ROWS } from '../src/http/csv-download';
import { transactionReads } from '../src/repositories/transaction-reads';
import { buildTestWorld, type TestWorld } from './helpers';
import { createCatalogue, insertMany, insertTransactions } from './transactions-fixtures';

jest.setTimeout(60_000);

let world: TestWorld;
let admin: Record<string, string>;
let code: string;
const DAY = '2024-06-01';
// More rows than ten export chunks, seven sharing each instant, so the keyset walk crosses shared instants.
const ROWS = 5_203;

beforeAll(async () => {
  world = await buildTestWorld();
  admin = (await world.headersFor('admin')).headers;
  const { code: c, category } = await createCatalogue(world, null);
  code = c.name;
  await insertMany(world, code, ROWS, '2024-05-31T21:00:00Z', category.id);
  await insertTransactions(world, code, [{ createdAt: new Date('2024-06-02T08:00:00Z') }]); // another day
});
afterAll(() => world.close());

const exportCsv = (query: string) => world.app.inject({ method: 'GET', url: `/v1/transactions/export?${query}`, headers: admin });

describe('GET /v1/transactions/export', () => {
  it('streams the whole filtered day as CSV with the grid columns, each call once', async () => {
    const response = await exportCsv(`name=${encodeURIComponent(code)}&date=${DAY}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="transactions-.*-2024-06-01\.csv"$/);
    const lines = response.body.trimEnd().split('\r\n');
    expect(`${lines[0]}\r\n`).toBe(TRANSACTION_CSV_HEADER);
    expect(lines[0]).toBe('Call Time,Response Time,Service code,From,Category,Level,Amount,Status,Network,Resolved,Resolved by,Resolved at,Resolve reason,Resolve note,Team,Game,Payment reference,SMS status,Failure reason,Refunded');
    expect(lines).toHaveLength(ROWS + 1);
    expect(new Set(lines.slice(1)).size).toBeGreaterThan(ROWS / 8); // rows differ (phones, times)
    expect(lines[1]).toMatch(/^01 June 2024 \d\d:\d\d (am|pm),N\/A,\*[\d*]+#,2567\d{8},Category [^,]+,ordinary,1000,(processed|failed|pending),(MTN|Airtel),No,,,,,,,,,,0$/); // nobody resolved it, it is no vote, and no payment was asked for: no resolver, time, reason, note, team, game, reference, SMS status or failure reason; nothing refunded
    const phones = lines.slice(1).map((l) => l.split(',')[3]);
    expect(new Set(phones).size).toBe(ROWS);
  });

  it('gives the same file, row for row, as one read of the whole set, with several exports taking turns', async () => {
    expect(ROWS).toBeGreaterThan(10 * CSV_CHUNK_ROWS);
    const whole: string[] = [];
    for await (const rows of transactionReads(world.db).chunks({ codes: [code], day: DAY }, ROWS * 2)) whole.push(...rows.map(transactionCsvLine));
    expect(whole).toHaveLength(ROWS);
    const expected = TRANSACTION_CSV_HEADER + whole.join('');
    const answers = await Promise.all([1, 2, 3].map(() => exportCsv(`name=${encodeURIComponent(code)}&date=${DAY}`)));
    for (const answer of answers) {
      // Compared line by line first, so a failure names the first differing line rather than printing megabytes.
      const lines = answer.body.split('\r\n');
      const firstDifference = expected.split('\r\n').findIndex((line, i) => line !== lines[i]);
      expect(firstDifference).toBe(-1);
      expect(answer.body === expected).toBe(true);
    }
  });

  it("ends each call's row with what its completed refunds gave back", async () => {
    const [call] = await insertTransactions(world, code, [{ createdAt: new Date('2024-06-05T08:00:00Z'), isComplete: true, amount: 5000 }]);
    await world.db.insert(refunds).values([
      { transactionId: call.id, amount: 2000, reason: 'other', state: 'completed', settledAt: new Date('2024-06-05T09:00:00Z') },
      { transactionId: call.id, amount: 1000, reason: 'other', state: 'failed', settledAt: new Date('2024-06-05T09:30:00Z') },
      { transactionId: call.id, amount: 500, reason: 'wrong-ticket', state: 'requested' },
    ]);
    const lines = (await exportCsv(`name=${encodeURIComponent(code)}&date=2024-06-05`)).body.trimEnd().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[0].split(',').at(-1)).toBe('Refunded');
    expect(lines[1].split(',').at(-1)).toBe('2000');
  });

  it('filters by status', async () => {
    const response = await exportCsv(`name=${encodeURIComponent(code)}&date=${DAY}&status=failed`);
    const lines = response.body.trimEnd().split('\r\n').slice(1);
    expect(lines).toHaveLength(Math.floor((ROWS + 2) / 3));
    expect(lines.every((l) => l.split(',')[7] === 'failed')).toBe(true);
  });

  it('refuses a bad status or date with 400', async () => {
    const status = await exportCsv('status=lost');
    expect(status.statusCode).toBe(400);
    expect(status.json()).toMatchObject({ message: 'Invalid status', errors: [{ field: 'status', message: 'Invalid status' }] });
    expect((await exportCsv('date=2024-13-01')).json()).toMatchObject({ message: 'Invalid date' });
  });
});
