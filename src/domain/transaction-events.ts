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
  'ticket_resent',
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
  ticket_resent: 'Ticket resent',
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
  /** The staff member's user name when a person caused it (resolved, ticket resent). */
  actorUserName?: string | null;
  detail: TransactionEventDetail;
}

/**
 * `messageStatuses` of a processed call (DESIGN §6): the ticket SMS is 'Sent' when the SMS provider
 * accepts it, then 'Delivered' or 'Failed' by its delivery report; 'No ticket content' when no
 * active content matched the category and level.
 */
export const TICKET_SMS_STATUS = {
  sent: 'Sent',
  delivered: 'Delivered',
  failed: 'Failed',
  noContent: 'No ticket content',
} as const;

/** A paid call whose ticket SMS failed may be sent its ticket again ('Resend ticket'). */
export function canResendTicket(transaction: { isComplete: boolean; messageStatuses?: string | null; ticket?: { message: string } | null }): boolean {
  return transaction.isComplete && transaction.messageStatuses === TICKET_SMS_STATUS.failed && Boolean(transaction.ticket?.message);
}
