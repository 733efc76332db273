import { eq, sql } from 'drizzle-orm';
import type { ReconciliationRow } from '../../src/domain/reconciliation';
import type { TransactionEvent } from '../../src/domain/transaction-events';
import { transactions } from '../src/db/schema';
import { buildTestWorld, type TestWorld } from './helpers';
import { countingSms, insertCall, statementCsv, ticketCatalogue, upload, type Headers } from './reconciliation-fixtures';

jest.setTimeout(60_000);

/** DESIGN §7: 'Issue ticket' and 'Mark reviewed', each once however often asked, each on the call's timeline. */

const sms = countingSms();
let world: TestWorld;
let admin: { user: { id: string; userName: string }; headers: Headers };
let catalogue: Awaited<ReturnType<typeof ticketCatalogue>>;
let day = 0;

beforeAll(async () => {
  world = await buildTestWorld({ providers: { sms: sms.provider } });
  admin = await world.headersFor('admin');
  catalogue = await ticketCatalogue(world);
});
afterAll(() => world.close());

/** A statement of its own day (so no other test's calls fall in its period) with one line per call. */
async function statementOf(lines: { reference: string; status?: string; amount?: number }[]) {
  day += 1;
  const date = `2026-06-${String(day).padStart(2, '0')}`;
  const response = await upload(world, admin.headers, statementCsv(lines.map((l) => ({ ...l, completedAt: `${date}T10:00:00Z` }))), { fileName: `statement-${day}.csv` });
  expect(response.statusCode).toBe(201);
  const id = response.json().results._id as string;
  const detail = await world.app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${id}`, headers: admin.headers });
  return { id, date, rows: detail.json().results.rows.docs as ReconciliationRow[] };
}

const issueTicket = (statementId: string, rowId: string, headers = admin.headers) =>
  world.app.inject({ method: 'POST', url: `/v1/reconciliation/statements/${statementId}/rows/${rowId}/issue-ticket`, headers });
const review = (statementId: string, rowId: string, payload: unknown, headers = admin.headers) =>
  world.app.inject({ method: 'POST', url: `/v1/reconciliation/statements/${statementId}/rows/${rowId}/review`, headers, payload: payload as object });

async function timeline(transactionId: string): Promise<TransactionEvent[]> {
  return (await world.app.inject({ method: 'GET', url: `/v1/transactions/${transactionId}/events`, headers: admin.headers })).json().results;
}
const sentTo = (phoneNumber: string) => sms.sent.filter((message) => message.phoneNumber === phoneNumber);

describe("the ingestion wing's reconcile (settlement from a statement)", () => {
  it('turns a failed call processed once, sends its ticket once and records who and which line', async () => {
    const call = await insertCall(world, catalogue, 'failed');
    const payment = { reference: call.reference, userId: admin.user.id, statement: 'may.csv', line: 7, amount: 20000, completedAt: '2026-05-01T10:00:00.000Z' };
    const [first, second] = await Promise.all([world.app.ingestion.reconcile(payment), world.app.ingestion.reconcile(payment)]);
    expect([first.result, second.result].sort()).toEqual(['already_processed', 'reconciled']);
    expect(await world.app.ingestion.reconcile(payment)).toEqual({ result: 'already_processed', transactionId: call.id });
    expect(sentTo(call.phoneNumber)).toEqual([{ phoneNumber: call.phoneNumber, message: catalogue.ticketMessage }]);

    const events = await timeline(call.id);
    const reconciled = events.filter((event) => event.kind === 'reconciled');
    expect(reconciled).toEqual([
      expect.objectContaining({ actor: 'user', actorUserName: admin.user.userName, detail: { statement: 'may.csv', line: 7, amount: 20000, completedAt: '2026-05-01T10:00:00.000Z', previously: 'failed' } }),
    ]);
    expect(events.filter((event) => event.kind === 'sms_sent')).toEqual([expect.objectContaining({ actor: 'user', actorUserName: admin.user.userName, detail: expect.objectContaining({ status: 'Sent' }) })]);
    const row = (await world.app.inject({ method: 'POST', url: '/v1/transactions/search', headers: admin.headers, payload: { phoneNumber: call.phoneNumber } })).json().results.docs[0];
    expect(row).toMatchObject({ isComplete: true, isDeleted: false, messageStatuses: 'Sent', ticket: { message: catalogue.ticketMessage } });
  });

  it('settles a pending call too (recorded as previously pending), and a late callback then changes nothing', async () => {
    const call = await insertCall(world, catalogue, 'pending');
    expect((await world.app.ingestion.reconcile({ reference: call.reference, userId: admin.user.id, statement: null, line: 2, amount: 20000, completedAt: null })).result).toBe('reconciled');
    await world.pay(call.reference, 'FAILED');
    await world.pay(call.reference, 'SUCCESSFUL');
    const events = await timeline(call.id);
    expect(events.find((event) => event.kind === 'reconciled')?.detail.previously).toBe('pending');
    expect(events.filter((event) => event.kind === 'payment_settled')).toEqual([]);
    expect(sentTo(call.phoneNumber)).toHaveLength(1);
    expect(await world.app.ingestion.reconcile({ reference: 'no-such-reference', userId: admin.user.id, statement: null, line: null, amount: null, completedAt: null })).toEqual({ result: 'unknown' });
  });
});

describe('POST /v1/reconciliation/statements/{id}/rows/{rowId}/issue-ticket', () => {
  it("settles a paid-no-ticket row's call once, however often and however fast it is clicked", async () => {
    const call = await insertCall(world, catalogue, 'failed');
    const statement = await statementOf([{ reference: call.reference }]);
    const [row] = statement.rows;
    expect(row.kind).toBe('paidNoTicket');

    const [a, b] = await Promise.all([issueTicket(statement.id, row._id), issueTicket(statement.id, row._id)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const issued = [a, b].find((response) => response.json().message === 'Ticket issued')!.json().results as ReconciliationRow;
    expect(issued).toMatchObject({ kind: 'paidNoTicket', action: 'ticket_issued', actionBy: { userName: admin.user.userName }, actionAt: expect.any(String), transaction: { isComplete: true } });
    const again = await issueTicket(statement.id, row._id);
    expect(again.json()).toMatchObject({ message: 'The ticket was issued already', results: { action: 'ticket_issued' } });
    expect(sentTo(call.phoneNumber)).toHaveLength(1);

    const events = await timeline(call.id);
    expect(events.filter((event) => event.kind === 'reconciled')).toEqual([
      expect.objectContaining({ actorUserName: admin.user.userName, detail: expect.objectContaining({ statement: `statement-${day}.csv`, line: 2, previously: 'failed' }) }),
    ]);
    const detail = (await world.app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${statement.id}`, headers: admin.headers })).json().results;
    expect(detail).toMatchObject({ counts: { paidNoTicket: 1 }, open: { paidNoTicket: 0 } });
  });

  it('settles the call and marks the row in one transaction: a row that cannot be marked leaves the call as it was', async () => {
    const call = await insertCall(world, catalogue, 'failed');
    const statement = await statementOf([{ reference: call.reference }]);
    // The row's update fails after the call's settlement in the same request: nothing of it may stay.
    await world.db.execute(sql`create function refuse_issued() returns trigger language plpgsql as $$ begin raise exception 'row cannot be marked'; end $$`);
    await world.db.execute(sql`create trigger refuse_issued before update on reconciliation_rows for each row when (new.action = 'ticket_issued') execute function refuse_issued()`);
    try {
      expect((await issueTicket(statement.id, statement.rows[0]._id)).statusCode).toBe(500);
    } finally {
      await world.db.execute(sql`drop trigger refuse_issued on reconciliation_rows`);
      await world.db.execute(sql`drop function refuse_issued()`);
    }
    const [now] = await world.db.select().from(transactions).where(eq(transactions.id, call.id));
    expect(now).toMatchObject({ isComplete: false, isDeleted: true });
    expect((await timeline(call.id)).some((event) => event.kind === 'reconciled')).toBe(false);
    expect(sentTo(call.phoneNumber)).toHaveLength(0);
    // Asked again once the row can be marked, it settles once.
    expect((await issueTicket(statement.id, statement.rows[0]._id)).json().message).toBe('Ticket issued');
  });

  it('sends nothing when the call was processed meanwhile (a late callback)', async () => {
    const call = await insertCall(world, catalogue, 'pending');
    const statement = await statementOf([{ reference: call.reference }]);
    await world.pay(call.reference, 'SUCCESSFUL');
    const before = sentTo(call.phoneNumber).length;
    const response = await issueTicket(statement.id, statement.rows[0]._id);
    expect(response.json()).toMatchObject({ message: 'The call was processed already; no ticket was sent', results: { action: 'ticket_issued' } });
    expect(sentTo(call.phoneNumber)).toHaveLength(before);
    expect((await timeline(call.id)).some((event) => event.kind === 'reconciled')).toBe(false);
  });

  it('refuses other kinds of row (409), rows of another statement or none (404), and anyone but admins and super-users', async () => {
    const processed = await insertCall(world, catalogue, 'processed');
    const failed = await insertCall(world, catalogue, 'failed');
    const statement = await statementOf([{ reference: processed.reference }, { reference: failed.reference }, { reference: 'unknown-ref' }]);
    const other = await statementOf([{ reference: 'elsewhere' }]);
    const [matched, paid, unknown] = statement.rows;
    expect((await issueTicket(statement.id, matched._id)).statusCode).toBe(409);
    expect((await issueTicket(statement.id, unknown._id)).statusCode).toBe(409);
    expect((await issueTicket(other.id, paid._id)).statusCode).toBe(404);
    expect((await issueTicket(statement.id, crypto.randomUUID())).statusCode).toBe(404);
    expect((await issueTicket(statement.id, paid._id, (await world.headersFor('agent')).headers)).statusCode).toBe(403);
    expect((await issueTicket(statement.id, paid._id, (await world.headersFor('admin', { isAfcon: true })).headers)).statusCode).toBe(403);
    expect(sentTo(failed.phoneNumber)).toHaveLength(0);
    expect((await issueTicket(statement.id, paid._id, (await world.headersFor('super-user')).headers)).json().message).toBe('Ticket issued');
  });
});

describe('POST /v1/reconciliation/statements/{id}/rows/{rowId}/review', () => {
  it("marks a ticket-no-money row reviewed with its note, once, on the call's timeline", async () => {
    const call = await insertCall(world, catalogue, 'processed');
    const statement = await statementOf([{ reference: call.reference, status: 'FAILED' }]);
    const [row] = statement.rows;
    expect(row.kind).toBe('ticketNoMoney');

    const response = await review(statement.id, row._id, { note: '  Provider confirmed the money arrived on 2 June  ' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ message: 'Marked reviewed', results: { action: 'reviewed', note: 'Provider confirmed the money arrived on 2 June', actionBy: { userName: admin.user.userName } } });
    const again = await review(statement.id, row._id, { note: 'Another note' });
    expect(again.json()).toMatchObject({ message: 'This row was reviewed already', results: { note: 'Provider confirmed the money arrived on 2 June' } });

    const reviewed = (await timeline(call.id)).filter((event) => event.kind === 'reconciliation_reviewed');
    expect(reviewed).toEqual([
      expect.objectContaining({ actor: 'user', actorUserName: admin.user.userName, detail: { statement: `statement-${day}.csv`, line: 2, note: 'Provider confirmed the money arrived on 2 June' } }),
    ]);
    expect(sms.sent.filter((message) => message.phoneNumber === call.phoneNumber)).toHaveLength(0);
  });

  it('reviews a paid call the statement has no line for', async () => {
    day += 1;
    const date = `2026-06-${String(day).padStart(2, '0')}`;
    const missing = await insertCall(world, catalogue, 'processed', new Date(`${date}T10:30:00Z`));
    const csv = statementCsv([{ reference: 'first', completedAt: `${date}T10:00:00Z` }, { reference: 'last', completedAt: `${date}T11:00:00Z` }]);
    const { _id } = (await upload(world, admin.headers, csv)).json().results;
    const rows = (await world.app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${_id}?kind=ticketNoMoney`, headers: admin.headers })).json().results.rows.docs as ReconciliationRow[];
    expect(rows).toEqual([expect.objectContaining({ line: null, reference: missing.reference })]);
    expect((await review(_id, rows[0]._id, { note: 'Refunded by hand' })).json().results.action).toBe('reviewed');
    expect((await timeline(missing.id)).find((event) => event.kind === 'reconciliation_reviewed')?.detail).toEqual({ statement: null, line: null, note: 'Refunded by hand' });
  });

  it('needs a note, refuses a matched row and writes nothing when refused', async () => {
    const call = await insertCall(world, catalogue, 'processed');
    const agreed = await insertCall(world, catalogue, 'processed');
    const statement = await statementOf([{ reference: call.reference, status: 'FAILED' }, { reference: agreed.reference }]);
    const [row, paid] = statement.rows;
    expect(paid.kind).toBe('matched');
    for (const body of [{}, { note: '   ' }, { note: 'x'.repeat(501) }, { note: 'a\u0000b' }, { note: { toString: 'x' } }, { note: 'refund \u202Eenod' }, { note: 'ok \u2066x\u2069' }]) {
      const response = await review(statement.id, row._id, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0].field).toBe('note');
    }
    expect((await review(statement.id, row._id, {})).json().errors).toEqual([{ field: 'note', message: 'Please write a note' }]);
    expect((await review(statement.id, paid._id, { note: 'no' })).statusCode).toBe(409);
    expect((await review(statement.id, row._id, { note: 'no' }, (await world.headersFor('agent')).headers)).statusCode).toBe(403);
    expect((await timeline(call.id)).some((event) => event.kind === 'reconciliation_reviewed')).toBe(false);
  });
});
