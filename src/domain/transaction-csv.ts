import { votePick } from './campaigns';
import type { Transaction } from './entities';
import { formatDateTime } from './format';
import { resolveReasonLabel } from './resolution';
import { transactionStatus } from './transaction-status';

/** The category's name whichever form the API answered it in. */
export function categoryName(t: Pick<Transaction, 'category'>): string {
  if (!t.category) return '';
  return typeof t.category === 'string' ? t.category : t.category.name;
}

/** Who resolved a failed call ('' while nobody has, or when that account is gone). */
export function resolvedByName(t: Pick<Transaction, 'resolvedBy'>): string {
  return t.resolvedBy?.userName ?? '';
}

/** 'Resolved by kato on 23 November 2026 10:15 am', or '' when the server does not know who. */
export function resolvedByText(t: Pick<Transaction, 'resolvedBy' | 'resolvedAt'>): string {
  const name = resolvedByName(t);
  if (!name) return '';
  return t.resolvedAt ? `Resolved by ${name} on ${formatDateTime(t.resolvedAt)}` : `Resolved by ${name}`;
}

/**
 * Who resolved a call, when, why and with which note, in one line: 'Resolved by kato on 23 November
 * 2026 10:15 am · Could not reach · Called twice'; '' while nobody has.
 */
export function resolvedSummary(t: Pick<Transaction, 'resolvedBy' | 'resolvedAt' | 'resolvedReason' | 'resolvedNote'>): string {
  const who = resolvedByText(t);
  if (!who) return '';
  return [who, resolveReasonLabel(t.resolvedReason), t.resolvedNote ?? ''].filter(Boolean).join(' · ');
}

/** Why a failed call failed: 'Payment failed: NOT_ENOUGH_FUNDS', either part alone when the other is unknown. */
export function failureText(t: Pick<Transaction, 'messageStatuses' | 'failureReason'>): string {
  return [t.messageStatuses, t.failureReason].filter(Boolean).join(': ');
}

export interface TransactionColumn {
  field: string;
  header: string;
  value(t: Transaction): string;
}

/** The transactions grid's columns, shared by the CSV export so both read the same. */
export const TRANSACTION_EXPORT_COLUMNS: readonly TransactionColumn[] = [
  { field: 'createdAt', header: 'Call Time', value: (t) => formatDateTime(t.createdAt) },
  { field: 'callbackTime', header: 'Response Time', value: (t) => formatDateTime(t.callbackTime) },
  { field: 'name', header: 'Service code', value: (t) => t.name },
  { field: 'phoneNumber', header: 'From', value: (t) => t.phoneNumber },
  { field: 'category', header: 'Category', value: categoryName },
  { field: 'categoryLevel', header: 'Level', value: (t) => t.categoryLevel ?? '' },
  { field: 'amount', header: 'Amount', value: (t) => (t.amount === null || t.amount === undefined ? '' : String(t.amount)) },
  { field: 'status', header: 'Status', value: (t) => transactionStatus(t) },
  { field: 'network', header: 'Network', value: (t) => t.network },
  { field: 'isResolved', header: 'Resolved', value: (t) => (t.isResolved ? 'Yes' : 'No') },
  { field: 'resolvedBy', header: 'Resolved by', value: resolvedByName },
  { field: 'resolvedAt', header: 'Resolved at', value: (t) => (t.resolvedAt ? formatDateTime(t.resolvedAt) : '') },
  { field: 'resolvedReason', header: 'Resolve reason', value: (t) => resolveReasonLabel(t.resolvedReason) },
  { field: 'resolvedNote', header: 'Resolve note', value: (t) => t.resolvedNote ?? '' },
  // A vote's pick and its game, last so that the columns before keep their places.
  { field: 'teamName', header: 'Team', value: (t) => votePick(t)?.pick ?? '' },
  { field: 'game', header: 'Game', value: (t) => votePick(t)?.game ?? '' },
  // Added after the vote's columns, so that files read by position keep reading the same.
  { field: 'paymentRef', header: 'Payment reference', value: (t) => t.paymentRef ?? '' },
  { field: 'messageStatuses', header: 'SMS status', value: (t) => t.messageStatuses ?? '' },
  { field: 'failureReason', header: 'Failure reason', value: (t) => t.failureReason ?? '' },
  // What completed refunds gave back, last for the same reason, so finance can net each call.
  { field: 'refundedAmount', header: 'Refunded', value: (t) => String(t.refundedAmount ?? 0) },
];

/** One CSV cell: quoted when needed; a leading formula sign is defused for spreadsheets. */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(values: readonly string[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

export const TRANSACTION_CSV_HEADER = csvLine(TRANSACTION_EXPORT_COLUMNS.map((c) => c.header));

export function transactionCsvLine(t: Transaction): string {
  return csvLine(TRANSACTION_EXPORT_COLUMNS.map((c) => c.value(t)));
}
