import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { ReconciliationKind, ReconciliationRow, ReconciliationStatement } from '../../src/domain/reconciliation';
import type { RefundState } from '../../src/domain/refunds';
import type { TransactionEvent } from '../../src/domain/transaction-events';
import { rowsOf } from '../src/repositories/sql-fragments';
import { auditEntries } from './audit-fixtures';
import { buildTestWorld, type TestWorld } from './helpers';
import { countingSms, insertCall, ticketCatalogue, upload, type Headers } from './reconciliation-fixtures';

jest.setTimeout(90_000);

/**
 * Refund lines in a statement: a line's type (PAYMENT by default, REFUND), a REFUND line matched to
 * our refund by its provider reference, the refund kinds (refundUnknown, refundMismatch,
 * refundMissing) reviewed like the other exceptions, and a paid-no-ticket call's money given back.
 */

const sms = countingSms();
let world: TestWorld;
let admin: { user: { id: string; userName: string }; headers: Headers };
let care: { user: { id: string; userName: string }; headers: Headers };
let catalogue: Awaited<ReturnType<typeof ticketCatalogue>>;
let day = 0;

beforeAll(async () => {
  world = await buildTestWorld({ providers: { sms: sms.provider } });
  admin = await world.headersFor('admin');
  care = await world.headersFor('customer-care');
  catalogue = await ticketCatalogue(world);
});
afterAll(() => world.close());

/** A day of its own (so no other test's calls or refunds fall in a statement's period). */
function nextDay() {
  day += 1;
  return `2026-07-${String(day).padStart(2, '0')}`;
}

/**
 * A refund written as it stands after the flow, in the given state, settled at `settledAt`; its call
 * was paid in May, outside every statement here.
 */
async function refundIn(state: RefundState, { amount = 20000, settledAt = null as string | null } = {}) {
  const call = await insertCall(world, catalogue, 'processed', new Date('2026-05-01T08:00:00Z'));
  const [refund] = await rowsOf<{ id: string; providerRef: string }>(
    world.db,
    sql`insert into refunds (transaction_id, amount, reason, state, requested_by, settled_at)
      values (${call.id}::uuid, ${amount}, 'duplicate-payment', ${state}, ${admin.user.id}::uuid, ${settledAt}::timestamptz)
      returning id, provider_ref as "providerRef"`,
  );
  return { ...refund, call };
}

type Line = { type?: string; reference: string; amount?: number; status?: string; completedAt?: string };

/** A statement with a type column (as the provider writes it), uploaded, and its rows of every kind. */
async function statementOf(date: string, lines: Line[], header = 'type,reference,amount,currency,status,completedAt') {
  const body = lines.map((l) => [l.type ?? '', l.reference, l.amount ?? 20000, 'UGX', l.status ?? 'SUCCESSFUL', l.completedAt ?? `${date}T10:00:00Z`].join(','));
  const response = await upload(world, admin.headers, [header, ...body].join('\r\n'), { fileName: `refunds-${date}.csv` });
  expect(response.statusCode).toBe(201);
  const id = response.json().results._id as string;
  const detail = (await world.app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${id}?limit=100`, headers: admin.headers })).json().results as ReconciliationStatement & {
    rows: { docs: ReconciliationRow[] };
  };
  return { id, statement: detail, rows: detail.rows.docs };
}

const byReference = (rows: ReconciliationRow[], reference: string) => rows.find((row) => row.reference === reference)!;
const kindOf = (rows: ReconciliationRow[], reference: string): ReconciliationKind | undefined => rows.find((row) => row.reference === reference)?.kind;

async function timeline(transactionId: string): Promise<TransactionEvent[]> {
  return (await world.app.inject({ method: 'GET', url: `/v1/transactions/${transactionId}/events`, headers: admin.headers })).json().results;
}

describe('a statement with refund lines', () => {
  it('matches a REFUND line to our refund by its provider reference, and sorts every disagreement into its kind', async () => {
    const date = nextDay();
    const at = `${date}T09:00:00Z`;
    const agreed = await refundIn('completed', { amount: 5000, settledAt: at });
    const otherAmount = await refundIn('completed', { amount: 5000, settledAt: at });
    const heldFailed = await refundIn('failed', { settledAt: at });
    const heldUnknown = await refundIn('unknown');
    const failedBoth = await refundIn('failed', { settledAt: at });
    const completedButFailed = await refundIn('completed', { amount: 7000, settledAt: at });
    const missing = await refundIn('completed', { amount: 3000, settledAt: `${date}T09:30:00Z` });
    const outsidePeriod = await refundIn('completed', { amount: 3000, settledAt: '2026-04-01T09:00:00Z' });
    const payment = await insertCall(world, catalogue, 'processed', new Date(`${date}T00:00:00Z`));
    const strangerRef = crypto.randomUUID();

    const { statement, rows } = await statementOf(date, [
      { type: 'payment', reference: payment.reference, completedAt: `${date}T00:00:00Z` },
      { type: 'REFUND', reference: agreed.providerRef, amount: 5000 },
      { type: ' Refund ', reference: otherAmount.providerRef, amount: 4000 },
      { type: 'refund', reference: heldFailed.providerRef },
      { type: 'REFUND', reference: heldUnknown.providerRef },
      { type: 'REFUND', reference: failedBoth.providerRef, status: 'FAILED' },
      { type: 'REFUND', reference: completedButFailed.providerRef, amount: 7000, status: 'FAILED' },
      { type: 'reversal', reference: strangerRef, amount: 1500 },
      { type: 'REFUND', reference: 'MP-not-a-uuid', amount: 1500 },
    ]);

    expect(byReference(rows, payment.reference)).toMatchObject({ kind: 'matched', type: 'PAYMENT', refund: null });
    expect(byReference(rows, agreed.providerRef)).toMatchObject({
      kind: 'matched',
      type: 'REFUND',
      refund: { _id: agreed.id, amount: 5000, state: 'completed', providerRef: agreed.providerRef },
      transaction: { _id: agreed.call.id },
    });
    expect(kindOf(rows, otherAmount.providerRef)).toBe('refundMismatch');
    expect(kindOf(rows, heldFailed.providerRef)).toBe('refundMismatch');
    expect(kindOf(rows, heldUnknown.providerRef)).toBe('refundMismatch');
    expect(kindOf(rows, failedBoth.providerRef)).toBe('matched');
    expect(kindOf(rows, completedButFailed.providerRef)).toBe('refundMismatch');
    expect(byReference(rows, strangerRef)).toMatchObject({ kind: 'refundUnknown', type: 'REFUND', refund: null, transaction: null });
    expect(kindOf(rows, 'MP-not-a-uuid')).toBe('refundUnknown');
    // The completed refund the statement left out, within its period; the one settled before it is not this statement's.
    expect(byReference(rows, missing.providerRef)).toMatchObject({ kind: 'refundMissing', type: 'REFUND', line: null, amount: 3000, refund: { _id: missing.id }, transaction: { _id: missing.call.id } });
    expect(kindOf(rows, outsidePeriod.providerRef)).toBeUndefined();

    expect(statement.counts).toMatchObject({ matched: 3, refundMismatch: 4, refundUnknown: 2, refundMissing: 1 });
    expect(statement.open).toMatchObject({ refundMismatch: 4, refundUnknown: 2, refundMissing: 1 });
    const listed = await world.app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${statement._id}?kind=refundMismatch`, headers: admin.headers });
    expect(listed.json().results.rows.docs.map((row: ReconciliationRow) => row.kind)).toEqual(['refundMismatch', 'refundMismatch', 'refundMismatch', 'refundMismatch']);

    const csv = await world.app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${statement._id}/export?kind=refundUnknown`, headers: admin.headers });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n')[0]).toBe('Line,Kind,Type,Reference,Amount,Currency,Status,Completed at,Call status,Call amount,Service code,From,Call time,Action,By,At,Note');
    expect(csv.body).toContain(`Unknown refund,REFUND,${strangerRef}`);
  });

  it('no longer counts a refund missing once another standing statement showed it paid back', async () => {
    const date = nextDay();
    const refund = await refundIn('completed', { amount: 2000, settledAt: `${date}T09:00:00Z` });
    const first = await statementOf(date, [{ type: 'REFUND', reference: refund.providerRef, amount: 2000, completedAt: `${date}T09:00:00Z` }]);
    expect(kindOf(first.rows, refund.providerRef)).toBe('matched');
    // Files without a type column hold payments: a day's statement around the refund's time.
    const call = await insertCall(world, catalogue, 'processed', new Date(`${date}T00:00:00Z`));
    const call2 = await insertCall(world, catalogue, 'processed', new Date(`${date}T23:00:00Z`));
    const paymentsOnly = ['reference,amount,currency,status,completedAt', `${call.reference},20000,UGX,SUCCESSFUL,${date}T00:00:00Z`, `${call2.reference},20000,UGX,SUCCESSFUL,${date}T23:00:00Z`].join('\r\n');
    const second = await upload(world, admin.headers, paymentsOnly);
    expect(second.statusCode).toBe(201);
    const secondRows = (await world.app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${second.json().results._id}`, headers: admin.headers })).json().results.rows.docs as ReconciliationRow[];
    expect(secondRows.map((row) => [row.type, row.kind])).toEqual([
      ['PAYMENT', 'matched'],
      ['PAYMENT', 'matched'],
    ]);
    // Voided, the first no longer vouches for it: the same period's next statement finds it missing.
    expect((await world.app.inject({ method: 'POST', url: `/v1/reconciliation/statements/${first.id}/void`, headers: admin.headers, payload: { reason: 'Wrong file' } })).statusCode).toBe(200);
    const third = await statementOf(date, [
      { reference: call.reference, completedAt: `${date}T00:00:00Z` },
      { reference: call2.reference, completedAt: `${date}T23:00:00Z` },
    ]);
    expect(kindOf(third.rows, refund.providerRef)).toBe('refundMissing');
  });

  it('reads a payment and a refund under one reference, and refuses a type it does not know, naming the line', async () => {
    const date = nextDay();
    const call = await insertCall(world, catalogue, 'processed', new Date(`${date}T10:00:00Z`));
    const both = await statementOf(date, [{ reference: call.reference }, { type: 'REFUND', reference: call.reference, amount: 100 }]);
    expect(both.rows.filter((row) => row.reference === call.reference).map((row) => [row.type, row.kind])).toEqual([
      ['PAYMENT', 'matched'],
      ['REFUND', 'refundUnknown'],
    ]);

    const refused = await upload(world, admin.headers, `type,reference,amount,currency,status,completedAt\r\nCASHBACK,r-1,100,UGX,SUCCESSFUL,${date}T10:00:00Z\r\nREFUND,r-2,100,UGX,SUCCESSFUL,${date}T10:00:00Z\r\nREFUND,r-2,100,UGX,SUCCESSFUL,${date}T10:00:00Z\r\n`);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([
      { field: 'type', message: 'Line 2, column type: must be PAYMENT or REFUND (empty for a payment)' },
      { field: 'reference', message: 'Line 4, column reference: the same reference as line 3' },
    ]);
    expect(refused.body).not.toContain('CASHBACK');
    const control = await upload(world, admin.headers, `Transaction Type,reference,amount,currency,status,completedAt\r\nREF\u0007UND,r-3,100,UGX,SUCCESSFUL,${date}T10:00:00Z\r\n`);
    expect(control.statusCode).toBe(400);
    expect(control.json().errors).toEqual([{ field: 'type', message: 'Line 2, column type: contains a control character' }]);
    const inherited = await upload(world, admin.headers, `type,reference,amount,currency,status,completedAt\r\nconstructor,r-4,100,UGX,SUCCESSFUL,${date}T10:00:00Z\r\n__proto__,r-5,100,UGX,SUCCESSFUL,${date}T10:00:00Z\r\n`);
    expect(inherited.json().errors.map((e: { field: string }) => e.field)).toEqual(['type', 'type']);
  });
});

describe('reviewing refund rows', () => {
  it('marks each refund kind reviewed, one at a time or together, with the note on the refund call’s timeline and in the audit trail', async () => {
    const date = nextDay();
    const mismatched = await refundIn('failed', { settledAt: `${date}T08:00:00Z` });
    const missing = await refundIn('completed', { amount: 1000, settledAt: `${date}T09:00:00Z` });
    const stranger = crypto.randomUUID();
    const { id, rows } = await statementOf(date, [
      { type: 'REFUND', reference: mismatched.providerRef, completedAt: `${date}T00:00:00Z` },
      { type: 'REFUND', reference: stranger, completedAt: `${date}T23:00:00Z` },
    ]);
    const mismatchRow = byReference(rows, mismatched.providerRef);
    const one = await world.app.inject({ method: 'POST', url: `/v1/reconciliation/statements/${id}/rows/${mismatchRow._id}/review`, headers: admin.headers, payload: { note: 'Provider paid it back after all' } });
    expect(one.statusCode).toBe(200);
    expect(one.json().results).toMatchObject({ kind: 'refundMismatch', action: 'reviewed', note: 'Provider paid it back after all' });
    expect((await timeline(mismatched.call.id)).filter((event) => event.kind === 'reconciliation_reviewed')).toEqual([
      expect.objectContaining({ detail: expect.objectContaining({ note: 'Provider paid it back after all' }) }),
    ]);

    const rest = [byReference(rows, stranger)._id, byReference(rows, missing.providerRef)._id];
    const many = await world.app.inject({ method: 'POST', url: `/v1/reconciliation/statements/${id}/rows/review`, headers: admin.headers, payload: { rowIds: rest, note: 'Asked the provider' } });
    expect(many.statusCode).toBe(200);
    expect(many.json().results.map((row: ReconciliationRow) => [row.kind, row.action])).toEqual([
      ['refundUnknown', 'reviewed'],
      ['refundMissing', 'reviewed'],
    ]);
    expect((await timeline(missing.call.id)).filter((event) => event.kind === 'reconciliation_reviewed')).toHaveLength(1);
    const statement = (await world.app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${id}`, headers: admin.headers })).json().results as ReconciliationStatement;
    expect(statement.open).toMatchObject({ refundMismatch: 0, refundUnknown: 0, refundMissing: 0 });
    const audit = await auditEntries(world, admin.headers, { entityType: 'statement', entityId: id });
    expect(audit.filter((entry) => entry.action === 'statement.review')).toHaveLength(2);
  });
});

describe("'Refund' on a paid-no-ticket row", () => {
  it("gives a paid call's money back instead of a ticket: refundable once a statement shows it paid, and no ticket after", async () => {
    const date = nextDay();
    const call = await insertCall(world, catalogue, 'failed', new Date(`${date}T08:00:00Z`));
    const unpaid = await insertCall(world, catalogue, 'failed', new Date(`${date}T08:00:00Z`));
    // No statement shows its money taken: a failed call took none.
    const before = await world.app.inject({ method: 'POST', url: `/v1/transactions/${call.id}/refunds`, headers: care.headers, payload: { reason: 'ticket-not-delivered' } });
    expect(before.statusCode).toBe(400);

    const { id, rows } = await statementOf(date, [{ reference: call.reference }]);
    const row = byReference(rows, call.reference);
    expect(row).toMatchObject({ kind: 'paidNoTicket', refund: null });
    const requested = await world.app.inject({ method: 'POST', url: `/v1/transactions/${call.id}/refunds`, headers: care.headers, payload: { reason: 'ticket-not-delivered' } });
    expect(requested.statusCode).toBe(201);
    expect(requested.json().results).toMatchObject({ transactionId: call.id, amount: 20000, state: 'requested' });
    expect((await world.app.inject({ method: 'POST', url: `/v1/transactions/${unpaid.id}/refunds`, headers: care.headers, payload: { reason: 'other' } })).statusCode).toBe(400);

    const after = (await world.app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${id}`, headers: admin.headers })).json().results.rows.docs as ReconciliationRow[];
    expect(byReference(after, call.reference).refund).toMatchObject({ _id: requested.json().results._id, state: 'requested', amount: 20000 });
    const issue = await world.app.inject({ method: 'POST', url: `/v1/reconciliation/statements/${id}/rows/${row._id}/issue-ticket`, headers: admin.headers });
    expect(issue.statusCode).toBe(409);
    expect(issue.json().message).toBe('This call has a refund; no ticket is issued');
    expect(sms.sent.filter((message) => message.phoneNumber === call.phoneNumber)).toEqual([]);

    // Rejected, the money stays with the provider: a ticket may be issued after all.
    expect((await world.app.inject({ method: 'POST', url: `/v1/refunds/${requested.json().results._id}/reject`, headers: admin.headers, payload: { reason: 'Send the ticket' } })).statusCode).toBe(200);
    expect((await world.app.inject({ method: 'POST', url: `/v1/reconciliation/statements/${id}/rows/${row._id}/issue-ticket`, headers: admin.headers })).statusCode).toBe(200);
  });
});
