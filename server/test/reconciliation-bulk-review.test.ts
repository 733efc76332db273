import type { ReconciliationRow } from '../../src/domain/reconciliation';
import type { TransactionEvent } from '../../src/domain/transaction-events';
import { auditEntries } from './audit-fixtures';
import { buildTestWorld, type TestWorld } from './helpers';
import { insertCall, statementCsv, ticketCatalogue, upload, type Headers } from './reconciliation-fixtures';

jest.setTimeout(60_000);

/**
 * Every exception of a statement can be reviewed with a note: one row, or many at once
 * (`POST /v1/reconciliation/statements/{id}/rows/review`), all or nothing, with one audit entry.
 */

let world: TestWorld;
let admin: { user: { id: string; userName: string }; headers: Headers };
let catalogue: Awaited<ReturnType<typeof ticketCatalogue>>;
let day = 0;

beforeAll(async () => {
  world = await buildTestWorld();
  admin = await world.headersFor('admin');
  catalogue = await ticketCatalogue(world);
});
afterAll(() => world.close());

/**
 * A statement of its own day with one row of each kind: matched, paid-no-ticket, ticket-no-money,
 * amount mismatch, currency mismatch and unknown reference.
 */
async function statementOfEveryKind() {
  day += 1;
  const completedAt = `2026-07-${String(day).padStart(2, '0')}T10:00:00Z`;
  const [matched, unpaid, unbacked, short, foreign] = await Promise.all([
    insertCall(world, catalogue, 'processed'),
    insertCall(world, catalogue, 'failed'),
    insertCall(world, catalogue, 'processed'),
    insertCall(world, catalogue, 'processed'),
    insertCall(world, catalogue, 'processed'),
  ]);
  const csv = statementCsv([
    { reference: matched.reference, completedAt },
    { reference: unpaid.reference, completedAt },
    { reference: unbacked.reference, status: 'FAILED', completedAt },
    { reference: short.reference, amount: 15000, completedAt },
    { reference: foreign.reference, currency: 'KES', completedAt },
    { reference: `nobody-${day}`, completedAt },
  ]);
  const response = await upload(world, admin.headers, csv, { fileName: `july-${day}.csv` });
  expect(response.statusCode).toBe(201);
  const id = response.json().results._id as string;
  const rows = (await world.app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${id}`, headers: admin.headers })).json().results.rows.docs as ReconciliationRow[];
  const byKind = Object.fromEntries(rows.map((row) => [row.kind, row])) as Record<ReconciliationRow['kind'], ReconciliationRow>;
  return { id, rows, byKind, calls: { short, unpaid } };
}

const reviewMany = (statementId: string, payload: unknown, headers = admin.headers) =>
  world.app.inject({ method: 'POST', url: `/v1/reconciliation/statements/${statementId}/rows/review`, headers, payload: payload as object });
const reviewOne = (statementId: string, rowId: string, note: string) =>
  world.app.inject({ method: 'POST', url: `/v1/reconciliation/statements/${statementId}/rows/${rowId}/review`, headers: admin.headers, payload: { note } });
const rowsOf = async (statementId: string) =>
  (await world.app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${statementId}`, headers: admin.headers })).json().results.rows.docs as ReconciliationRow[];
const timeline = async (transactionId: string) =>
  (await world.app.inject({ method: 'GET', url: `/v1/transactions/${transactionId}/events`, headers: admin.headers })).json().results as TransactionEvent[];

it('reviews an amount mismatch and an unknown reference one at a time, with the note and reviewer on the row', async () => {
  const statement = await statementOfEveryKind();
  for (const kind of ['amountMismatch', 'unknownReference', 'currencyMismatch'] as const) {
    const response = await reviewOne(statement.id, statement.byKind[kind]._id, `Looked into the ${kind}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().results).toMatchObject({ kind, action: 'reviewed', note: `Looked into the ${kind}`, actionBy: { userName: admin.user.userName } });
  }
  expect((await timeline(statement.calls.short.id)).filter((event) => event.kind === 'reconciliation_reviewed')).toEqual([
    expect.objectContaining({ detail: expect.objectContaining({ note: 'Looked into the amountMismatch' }) }),
  ]);
  const counts = (await world.app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${statement.id}`, headers: admin.headers })).json().results.open;
  expect(counts).toEqual({ paidNoTicket: 1, ticketNoMoney: 1, amountMismatch: 0, currencyMismatch: 0, unknownReference: 0, refundUnknown: 0, refundMismatch: 0, refundMissing: 0 });
});

it('reviews many exception rows with one note in one request, audited once naming the count', async () => {
  const statement = await statementOfEveryKind();
  const exceptions = statement.rows.filter((row) => row.kind !== 'matched');
  const response = await reviewMany(statement.id, { rowIds: exceptions.map((row) => row._id), note: '  Checked with MoMo on the phone  ' });
  expect(response.statusCode).toBe(200);
  expect(response.json().message).toBe('5 rows marked reviewed');
  expect(response.json().results).toHaveLength(5);
  for (const row of await rowsOf(statement.id)) {
    if (row.kind === 'matched') expect(row.action).toBeNull();
    else expect(row).toMatchObject({ action: 'reviewed', note: 'Checked with MoMo on the phone', actionBy: { _id: admin.user.id, userName: admin.user.userName } });
  }
  expect((await timeline(statement.calls.unpaid.id)).filter((event) => event.kind === 'reconciliation_reviewed')).toHaveLength(1);

  const entries = await auditEntries(world, admin.headers, { action: 'statement.review', entityId: statement.id });
  expect(entries).toHaveLength(1);
  expect(entries[0]).toMatchObject({ actor: { _id: admin.user.id }, entity: { type: 'statement', id: statement.id, label: `Statement july-${day}.csv` } });
  expect(entries[0].changes).toEqual(expect.arrayContaining([{ field: 'rows', before: null, after: 5 }, { field: 'note', before: null, after: 'Checked with MoMo on the phone' }]));

  // Again: nothing left to review, the first note stands, nothing more recorded.
  const again = await reviewMany(statement.id, { rowIds: exceptions.map((row) => row._id), note: 'Another look' });
  expect(again.json()).toMatchObject({ message: 'These rows were reviewed already', results: expect.arrayContaining([expect.objectContaining({ note: 'Checked with MoMo on the phone' })]) });
  expect(await auditEntries(world, admin.headers, { action: 'statement.review', entityId: statement.id })).toHaveLength(1);
});

it("keeps what was done on a row someone acted on already, reviewing the others", async () => {
  const statement = await statementOfEveryKind();
  expect((await reviewOne(statement.id, statement.byKind.amountMismatch._id, 'First look')).statusCode).toBe(200);
  const response = await reviewMany(statement.id, { rowIds: [statement.byKind.amountMismatch._id, statement.byKind.unknownReference._id], note: 'Second look' });
  expect(response.json().message).toBe('1 row marked reviewed');
  const rows = await rowsOf(statement.id);
  expect(rows.find((row) => row.kind === 'amountMismatch')!.note).toBe('First look');
  expect(rows.find((row) => row.kind === 'unknownReference')!.note).toBe('Second look');
});

it("refuses, naming each, a row of another statement, a matched row and an unknown id; nothing is reviewed", async () => {
  const statement = await statementOfEveryKind();
  const other = await statementOfEveryKind();
  const response = await reviewMany(statement.id, {
    rowIds: [statement.byKind.amountMismatch._id, other.byKind.unknownReference._id, statement.byKind.matched._id, '00000000-0000-4000-8000-000000000000'],
    note: 'All of them',
  });
  expect(response.statusCode).toBe(400);
  expect(response.json().errors).toEqual([
    { field: 'rowIds[1]', message: 'Not a row of this statement' },
    { field: 'rowIds[2]', message: 'A matched row needs no review' },
    { field: 'rowIds[3]', message: 'Not a row of this statement' },
  ]);
  expect((await rowsOf(statement.id)).every((row) => row.action === null)).toBe(true);
  expect((await rowsOf(other.id)).every((row) => row.action === null)).toBe(true);
  expect(await auditEntries(world, admin.headers, { action: 'statement.review', entityId: statement.id })).toHaveLength(0);
});

it('refuses a bad body with field errors, an unknown statement with 404, a voided one with 409, and anyone but a manager', async () => {
  const statement = await statementOfEveryKind();
  const rowId = statement.byKind.unknownReference._id;
  const bad: [unknown, string][] = [
    [{ note: 'x' }, 'rowIds'],
    [{ rowIds: [], note: 'x' }, 'rowIds'],
    [{ rowIds: 'abc', note: 'x' }, 'rowIds'],
    [{ rowIds: ['not-an-id'], note: 'x' }, 'rowIds[0]'],
    [{ rowIds: Array.from({ length: 201 }, () => rowId), note: 'x' }, 'rowIds'],
    [{ rowIds: [rowId] }, 'note'],
    [{ rowIds: [rowId], note: '   ' }, 'note'],
    [{ rowIds: [rowId], note: 'a\u0000b' }, 'note'],
    [{ rowIds: [rowId], note: 'y'.repeat(501) }, 'note'],
  ];
  for (const [payload, field] of bad) {
    const response = await reviewMany(statement.id, payload);
    expect([field, response.statusCode]).toEqual([field, 400]);
    expect(response.json().errors.map((error: { field: string }) => error.field)).toContain(field);
    expect(response.body).not.toContain('not-an-id');
  }
  expect((await reviewMany('00000000-0000-4000-8000-000000000000', { rowIds: [rowId], note: 'x' })).statusCode).toBe(404);
  for (const role of ['agent', 'customer-care'] as const) {
    expect((await reviewMany(statement.id, { rowIds: [rowId], note: 'x' }, (await world.headersFor(role)).headers)).statusCode).toBe(403);
  }
  expect((await reviewMany(statement.id, { rowIds: [rowId], note: 'x' }, {})).statusCode).toBe(401);
  await world.app.inject({ method: 'POST', url: `/v1/reconciliation/statements/${statement.id}/void`, headers: admin.headers, payload: { reason: 'Wrong file' } });
  expect((await reviewMany(statement.id, { rowIds: [rowId], note: 'x' })).statusCode).toBe(409);
});
