/**
 * A call's history (DESIGN §6), shared by the API that records and serves it and the SPA's
 * 'Details' timeline. Each event says what happened, when, and who or what caused it.
 */
export const TRANSACTION_EVENT_KINDS = [
  'ussd_hop',
  'payment_requested',
  'payment_callback',
  'payment_polled',
  'payment_settled',
  'sms_sent',
  'sms_delivery',
  'resolved',
  'resolve_undone',
  'ticket_resent',
  'reconciled',
  'reconciliation_reviewed',
  'refund_requested',
  'refund_approved',
  'refund_rejected',
  'refund_submitted',
  'refund_completed',
  'refund_failed',
  'refund_sms_sent',
] as const;

export type TransactionEventKind = (typeof TRANSACTION_EVENT_KINDS)[number];

/** What the timeline shows for each kind. */
export const TRANSACTION_EVENT_LABELS: Record<TransactionEventKind, string> = {
  ussd_hop: 'USSD hop',
  payment_requested: 'Payment requested',
  payment_callback: 'Payment callback received',
  payment_polled: 'Payment status polled',
  payment_settled: 'Payment settled',
  sms_sent: 'Ticket SMS sent',
  sms_delivery: 'SMS delivery report',
  resolved: 'Resolved',
  resolve_undone: 'Resolve undone',
  ticket_resent: 'Ticket resent',
  reconciled: 'Settled from the provider statement',
  reconciliation_reviewed: 'Reviewed against the provider statement',
  refund_requested: 'Refund requested',
  refund_approved: 'Refund approved',
  refund_rejected: 'Refund rejected',
  refund_submitted: 'Refund sent to the provider',
  refund_completed: 'Refund completed',
  refund_failed: 'Refund failed',
  refund_sms_sent: 'Refund SMS sent',
};

/** Small flat facts about an event (input and reply of a hop, provider status, SMS status…). */
export type TransactionEventDetail = Record<string, string | number | boolean | null>;

/** One event as `GET /v1/transactions/{id}/events` answers it, oldest first. */
export interface TransactionEvent {
  _id: string;
  kind: TransactionEventKind;
  /** ISO time. */
  at: string;
  /** Who or what caused it: 'customer', 'provider:local', 'provider:momo', 'sweeper', 'user'… */
  actor: string;
  /** The staff member's user name when a person caused it (resolved, ticket resent, reconciled, reviewed). */
  actorUserName?: string | null;
  detail: TransactionEventDetail;
}

/**
 * Every value of a call's `messageStatuses` (DESIGN §6), the one set the API writes and the SPA
 * reads. A paid call's ticket SMS is 'Sending' between settling and the SMS provider's answer (a
 * call left in it is sent by the sweeper), then 'Sent' when the provider accepts it, and 'Delivered'
 * or 'Failed' by its delivery report; 'Resending' while one 'Resend ticket' is sending; 'No ticket
 * content' when no active content matched the category and level. A failed call says why:
 * 'Payment failed' (the provider refused), 'Payment timed out' (nobody answered in time) or
 * 'Payment never requested' (the call never reached the payment step, so nobody was asked).
 */
export const MESSAGE_STATUS = {
  sending: 'Sending',
  resending: 'Resending',
  sent: 'Sent',
  delivered: 'Delivered',
  failed: 'Failed',
  noContent: 'No ticket content',
  paymentFailed: 'Payment failed',
  paymentTimedOut: 'Payment timed out',
  paymentNeverRequested: 'Payment never requested',
} as const;

export type MessageStatus = (typeof MESSAGE_STATUS)[keyof typeof MESSAGE_STATUS];

/**
 * A failed call's reason as a narrow list cell says it: the row's Status already says 'failed', so
 * 'Payment' is dropped and the reason keeps a dense row to one line. The call's drawer and the
 * cell's title give the whole text.
 */
const SHORT_REASONS: Partial<Record<string, string>> = {
  [MESSAGE_STATUS.paymentFailed]: 'Refused',
  [MESSAGE_STATUS.paymentTimedOut]: 'Timed out',
  [MESSAGE_STATUS.paymentNeverRequested]: 'Not requested',
  [MESSAGE_STATUS.noContent]: 'No content',
};

export function shortMessageStatus(status: string | null | undefined): string {
  return status ? (SHORT_REASONS[status] ?? status) : '';
}

/** A paid call whose ticket SMS failed may be sent its ticket again ('Resend ticket'). */
export function canResendTicket(transaction: { isComplete: boolean; messageStatuses?: string | null; ticket?: { message: string } | null }): boolean {
  return transaction.isComplete && transaction.messageStatuses === MESSAGE_STATUS.failed && Boolean(transaction.ticket?.message);
}
