import * as yup from 'yup';
import type { Transaction, UserRef } from './entities';
import type { RefundState } from './refunds';
import { isoInZone } from './format';
import { flag, INVALID_VALUE, text } from './schemas/text';
import { csvLine } from './transaction-csv';
import { transactionStatus } from './transaction-status';
import { UUID_PATTERN } from './uuid';

/**
 * Reconciliation with the payment provider's statement (DESIGN §7), shared by the API that sorts a
 * statement's lines and the SPA that shows them. Each line (and each paid call the statement left
 * out) is one row of one kind.
 */
export const RECONCILIATION_KINDS = [
  'matched',
  'paidNoTicket',
  'ticketNoMoney',
  'amountMismatch',
  'currencyMismatch',
  'unknownReference',
  'refundUnknown',
  'refundMismatch',
  'refundMissing',
] as const;

export type ReconciliationKind = (typeof RECONCILIATION_KINDS)[number];

export const RECONCILIATION_KIND_LABELS: Record<ReconciliationKind, string> = {
  matched: 'Matched',
  paidNoTicket: 'Paid, no ticket',
  ticketNoMoney: 'Ticket, no money',
  amountMismatch: 'Amount mismatch',
  currencyMismatch: 'Currency mismatch',
  unknownReference: 'Unknown reference',
  refundUnknown: 'Unknown refund',
  refundMismatch: 'Refund mismatch',
  refundMissing: 'Refund missing',
};

/** What each kind means, for the screen's legend and the API's documentation. */
export const RECONCILIATION_KIND_HELP: Record<ReconciliationKind, string> = {
  matched: 'The statement and the call agree',
  paidNoTicket: 'The statement says SUCCESSFUL but the call is failed or pending: the customer paid and got no ticket',
  ticketNoMoney: 'The call is processed but the statement says FAILED, or has no line for it although it settled within the statement’s period',
  amountMismatch: 'The statement says SUCCESSFUL for another amount than the call’s price',
  currencyMismatch: 'The statement’s line is in another currency than the service’s: never matched, whatever its amount',
  unknownReference: 'No call has this reference',
  refundUnknown: 'A REFUND line whose reference is no refund’s provider reference: money went back that no refund here asked for',
  refundMismatch:
    'A REFUND line that disagrees with our refund: another amount, SUCCESSFUL for a refund we hold as not completed (failed, unknown, still in flight), or FAILED for one we do not hold as failed',
  refundMissing: 'A refund we hold as completed within the statement’s period that the statement has no REFUND line for',
};

export type ReconciliationCounts = Record<ReconciliationKind, number>;

/**
 * What a statement line is: money in for a call (PAYMENT, a line without a type), or money back
 * (REFUND), matched to our refund by its provider reference.
 */
export const STATEMENT_LINE_TYPES = ['PAYMENT', 'REFUND'] as const;
export type StatementLineType = (typeof STATEMENT_LINE_TYPES)[number];

/** The optional column saying a line's type. */
export const STATEMENT_TYPE_COLUMN = 'type';

/**
 * The words providers' exports use for a line's type, in lower case: a payment is also a
 * collection, a sale, a debit of the customer; a refund a reversal or a disbursement back.
 */
const STATEMENT_TYPE_WORDS = new Map<string, StatementLineType>([
  ['', 'PAYMENT'],
  ['payment', 'PAYMENT'],
  ['collection', 'PAYMENT'],
  ['sale', 'PAYMENT'],
  ['purchase', 'PAYMENT'],
  ['debit', 'PAYMENT'],
  ['refund', 'REFUND'],
  ['refunded', 'REFUND'],
  ['reversal', 'REFUND'],
  ['credit', 'REFUND'],
]);

/** A line's type as written (case, spaces, '-' and '_' aside), or undefined for a word that is neither. */
export function statementLineType(raw: string): StatementLineType | undefined {
  // A Map, so 'constructor' or '__proto__' in a file is no type.
  return STATEMENT_TYPE_WORDS.get(raw.trim().toLowerCase().replace(/[\s_-]+/g, ''));
}

/** The statement's columns, in the order a file is expected to have them (any order is read). */
export const STATEMENT_COLUMNS = ['reference', 'amount', 'currency', 'status', 'completedAt'] as const;
export type StatementColumn = (typeof STATEMENT_COLUMNS)[number];

export const STATEMENT_STATUSES = ['SUCCESSFUL', 'FAILED'] as const;
export type StatementStatus = (typeof STATEMENT_STATUSES)[number];

/** The currency the service sells in when SERVICE_CURRENCY is not set. */
export const DEFAULT_SERVICE_CURRENCY = 'UGX';

/** A statement whose lines span more than this many days is refused unless its period is declared at upload. */
export const STATEMENT_MAX_SPAN_DAYS = 31;
/** The longest period an upload may declare: a quarter's statement. */
export const DECLARED_PERIOD_MAX_DAYS = 92;

/** The largest statement file taken (a month of a busy service is a few MB). */
export const STATEMENT_MAX_BYTES = 20 * 1024 * 1024;
export const STATEMENT_MAX_MB = STATEMENT_MAX_BYTES / (1024 * 1024);

/** What staff did about a row: settled its call from the statement, or looked and noted why. */
export type ReconciliationAction = 'ticket_issued' | 'reviewed';

export const RECONCILIATION_ACTION_LABELS: Record<ReconciliationAction, string> = {
  ticket_issued: 'Ticket issued',
  reviewed: 'Reviewed',
};

/** An uploaded statement, as the list and the statement's page answer it. */
export interface ReconciliationStatement {
  _id: string;
  fileName: string | null;
  uploadedBy: UserRef | null;
  createdAt: string;
  /** Lines read from the file (its header not counted). */
  lines: number;
  /** The earliest and latest completedAt of its lines, or the days declared at upload (`periodDeclared`). */
  periodFrom: string;
  periodTo: string;
  periodDeclared: boolean;
  counts: ReconciliationCounts;
  /** Exception rows (every kind but matched) nobody has acted on yet, per kind. */
  open: Record<Exclude<ReconciliationKind, 'matched'>, number>;
  /** Set once a manager voided it: out of the default list, and no longer vouching for any call's payment. */
  voidedAt: string | null;
  voidedBy: UserRef | null;
  voidReason: string | null;
}

/** The refund a row is about, as the row shows it. */
export interface ReconciliationRowRefund {
  _id: string;
  amount: number;
  state: RefundState;
  providerRef: string;
}

/**
 * One row of a statement: a line of the file, a paid call the file has no line for, or a completed
 * refund it has no REFUND line for (`line` null).
 */
export interface ReconciliationRow {
  _id: string;
  kind: ReconciliationKind;
  type: StatementLineType;
  /**
   * A REFUND row's refund (the one its reference names, or the completed one the statement left
   * out); on a PAYMENT row, its call's latest refund that is not rejected or failed (money going
   * or gone back).
   */
  refund: ReconciliationRowRefund | null;
  line: number | null;
  reference: string;
  amount: number | null;
  currency: string | null;
  status: StatementStatus | null;
  completedAt: string | null;
  /** The call of the reference as it is now, or null when none has it. */
  transaction: Transaction | null;
  action: ReconciliationAction | null;
  actionBy: UserRef | null;
  actionAt: string | null;
  note: string | null;
}

/** Statements newest first by the period they cover (then the latest upload): a late upload of an old month is not 'the newest'. */
export const byPeriodNewestFirst = (statements: readonly ReconciliationStatement[]): ReconciliationStatement[] =>
  [...statements].sort((a, b) => b.periodTo.localeCompare(a.periodTo) || b.createdAt.localeCompare(a.createdAt));

/** Rows the grid may act on: 'Issue ticket' and 'Mark reviewed'. */
export const canIssueTicket = (row: Pick<ReconciliationRow, 'kind' | 'action' | 'transaction' | 'refund'>) =>
  row.kind === 'paidNoTicket' && row.action === null && row.transaction !== null && !row.transaction.isComplete && row.refund === null;
/** A paid-no-ticket row whose money may go back instead of a ticket: the same rows as 'Issue ticket' (a refund under way or done takes both away). */
export const canRefundRow = (row: Pick<ReconciliationRow, 'kind' | 'action' | 'transaction' | 'refund'>) => canIssueTicket(row);
/** Every kind but 'matched' is an exception: something staff look into and note what they found. */
export const isException = (kind: ReconciliationKind) => kind !== 'matched';
export const canMarkReviewed = (row: Pick<ReconciliationRow, 'kind' | 'action'>) => isException(row.kind) && row.action === null;

/** The most rows one 'Review' takes: a page of the grid and more. */
export const BULK_REVIEW_MAX = 200;

export const REVIEW_NOTE_MAX = 500;

/** 'Mark reviewed': why the ticket without money is in order, or what was done about it. */
export const reviewRowSchema = yup.object({
  note: text(REVIEW_NOTE_MAX, { multiline: true, plainDirection: true }).trim().required('Please write a note'),
});
export type ReviewRowInput = yup.InferType<typeof reviewRowSchema>;

/** 'Review' of many rows of one statement with one note. */
export const bulkReviewSchema = reviewRowSchema.shape({
  rowIds: yup
    .array()
    .typeError('rowIds must be a list of row ids')
    .of(text(36).required(INVALID_VALUE).matches(UUID_PATTERN, 'Invalid row id'))
    .required('Please select the rows')
    .min(1, 'Please select the rows')
    .max(BULK_REVIEW_MAX, `At most ${BULK_REVIEW_MAX} rows at once`),
});
export type BulkReviewInput = yup.InferType<typeof bulkReviewSchema>;

export const VOID_REASON_MAX = 500;

/** 'Void': why the statement no longer counts (the wrong file, the wrong period, replaced by the provider). */
export const voidStatementSchema = yup.object({
  reason: text(VOID_REASON_MAX, { multiline: true, plainDirection: true }).trim().required('Please say why the statement is voided'),
});
export type VoidStatementInput = yup.InferType<typeof voidStatementSchema>;

/** The statements list: the standing ones, or with `?voided=true` the voided ones. */
export const statementListQuerySchema = yup.object({
  voided: flag().optional(),
});

const DAY_MESSAGE = 'Must be a day, YYYY-MM-DD, between 2000 and 2100';

/** A calendar day 'YYYY-MM-DD' that exists, within the years a statement may cover. */
function isStatementDay(value: string | undefined): boolean {
  if (value === undefined) return true;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [year, month, day] = m.slice(1).map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 2000 && year <= 2100 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Days from one 'YYYY-MM-DD' to another, both counted. */
export const daysCovered = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

const statementDay = () => text(10).test('day', DAY_MESSAGE, isStatementDay);

/**
 * The upload's declared period (`?periodFrom=&periodTo=`, days in the service's zone, both counted):
 * both or neither, in order, at most DECLARED_PERIOD_MAX_DAYS. Without it the period is the lines' span.
 */
export const statementUploadQuerySchema = yup.object({
  periodFrom: statementDay()
    .optional()
    .test('both', 'Give periodTo as well', function both(value) {
      return value === undefined || this.parent.periodTo !== undefined;
    }),
  periodTo: statementDay()
    .optional()
    .test('both', 'Give periodFrom as well', function both(value) {
      return value === undefined || this.parent.periodFrom !== undefined;
    })
    .test('order', 'Must not be before periodFrom', function order(value) {
      const from = this.parent.periodFrom as string | undefined;
      return value === undefined || from === undefined || !isStatementDay(from) || from <= value;
    })
    .test('span', `A declared period covers at most ${DECLARED_PERIOD_MAX_DAYS} days`, function span(value) {
      const from = this.parent.periodFrom as string | undefined;
      return value === undefined || from === undefined || !isStatementDay(from) || from > value || daysCovered(from, value) <= DECLARED_PERIOD_MAX_DAYS;
    }),
});
export type StatementUploadQuery = yup.InferType<typeof statementUploadQuerySchema>;

/** The statements list and a statement's rows: `?kind=` picks one kind. */
export const statementRowsQuerySchema = yup.object({
  kind: text(20)
    .optional()
    .oneOf([...RECONCILIATION_KINDS, undefined], 'Invalid kind'),
});

/** The file name kept with an upload: its last path part, without control characters, at most 200 characters (direction controls are refused before). */
export function statementFileName(raw: string | undefined): string | null {
  if (!raw) return null;
  // eslint-disable-next-line no-control-regex -- control characters are what is dropped
  const name = raw.split(/[\\/]/).pop()?.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim() ?? '';
  return name ? name.slice(0, 200) : null;
}

const rowStatus = (row: ReconciliationRow) => (row.transaction ? transactionStatus(row.transaction) : '');

/** A statement's rows as CSV: the line as the provider wrote it, the call as it is now, and what staff did. */
const ROW_EXPORT_COLUMNS: readonly [string, (row: ReconciliationRow) => string][] = [
  ['Line', (row) => (row.line === null ? '' : String(row.line))],
  ['Kind', (row) => RECONCILIATION_KIND_LABELS[row.kind]],
  ['Type', (row) => row.type],
  ['Reference', (row) => row.reference],
  ['Amount', (row) => (row.amount === null ? '' : String(row.amount))],
  ['Currency', (row) => row.currency ?? ''],
  ['Status', (row) => row.status ?? ''],
  // Times on the service zone's clock, as the screen shows them, with the offset that makes each one instant.
  ['Completed at', (row) => isoInZone(row.completedAt)],
  ['Call status', rowStatus],
  ['Call amount', (row) => (row.transaction?.amount === null || row.transaction?.amount === undefined ? '' : String(row.transaction.amount))],
  ['Service code', (row) => row.transaction?.name ?? ''],
  ['From', (row) => row.transaction?.phoneNumber ?? ''],
  ['Call time', (row) => isoInZone(row.transaction?.createdAt)],
  ['Action', (row) => (row.action ? RECONCILIATION_ACTION_LABELS[row.action] : '')],
  ['By', (row) => row.actionBy?.userName ?? ''],
  ['At', (row) => isoInZone(row.actionAt)],
  ['Note', (row) => row.note ?? ''],
];

export const RECONCILIATION_CSV_HEADER = csvLine(ROW_EXPORT_COLUMNS.map(([header]) => header));

export function reconciliationCsvLine(row: ReconciliationRow): string {
  return csvLine(ROW_EXPORT_COLUMNS.map(([, value]) => value(row)));
}
