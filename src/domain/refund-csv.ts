import { formatDateTime } from './format';
import { REFUND_STATE_LABELS, refundReasonLabel, type Refund } from './refunds';
import { csvLine } from './transaction-csv';

const COLUMNS: readonly { header: string; value: (r: Refund) => string }[] = [
  { header: 'Requested at', value: (r) => formatDateTime(r.createdAt) },
  { header: 'Service code', value: (r) => r.serviceCode },
  { header: 'From', value: (r) => r.phoneNumber },
  { header: 'Call amount', value: (r) => (r.callAmount === null ? '' : String(r.callAmount)) },
  { header: 'Amount', value: (r) => String(r.amount) },
  { header: 'Reason', value: (r) => refundReasonLabel(r.reason) },
  { header: 'Note', value: (r) => r.note ?? '' },
  { header: 'State', value: (r) => REFUND_STATE_LABELS[r.state] ?? r.state },
  { header: 'Requested by', value: (r) => r.requestedBy?.userName ?? '' },
  { header: 'Decided by', value: (r) => r.decidedBy?.userName ?? '' },
  { header: 'Decided at', value: (r) => (r.decidedAt ? formatDateTime(r.decidedAt) : '') },
  { header: 'Decision reason', value: (r) => r.decisionReason ?? '' },
  { header: 'Provider reference', value: (r) => r.providerRef },
  { header: 'Failure reason', value: (r) => r.failureReason ?? '' },
  { header: 'Settled at', value: (r) => (r.settledAt ? formatDateTime(r.settledAt) : '') },
];

/** The refunds queue as CSV (`GET /v1/refunds/export`), in the queue's order: what finance matches against the provider's statement. */
export const REFUND_CSV_HEADER = csvLine(COLUMNS.map((c) => c.header));
export const refundCsvLine = (refund: Refund) => csvLine(COLUMNS.map((c) => c.value(refund)));
