import type { UserRef } from './entities';

/**
 * Money back to a customer for a processed call, through the payment provider, with a second pair
 * of eyes: support requests, a manager approves or rejects, the provider settles. Shared by the API
 * that enforces it and the SPA that shows it; the names are a contract.
 */
export const REFUND_STATES = ['requested', 'approved', 'rejected', 'submitted', 'unknown', 'completed', 'failed'] as const;
export type RefundState = (typeof REFUND_STATES)[number];

/** A call has at most one refund in these states at a time (the database's partial unique index). */
export const OPEN_REFUND_STATES = ['requested', 'approved', 'submitted', 'unknown'] as const satisfies readonly RefundState[];

/** Refunds that never moved money: they do not count towards what is left of the call's amount. */
export const SPENT_NOTHING_STATES = ['rejected', 'failed'] as const satisfies readonly RefundState[];

/** Sent to the provider and waiting for its final word (asked about by the sweeper when `unknown`). */
export const IN_FLIGHT_REFUND_STATES = ['approved', 'submitted', 'unknown'] as const satisfies readonly RefundState[];

export const REFUND_REASONS = ['duplicate-payment', 'ticket-not-delivered', 'wrong-ticket', 'customer-request', 'other'] as const;
export type RefundReason = (typeof REFUND_REASONS)[number];

export const REFUND_REASON_LABELS: Record<RefundReason, string> = {
  'duplicate-payment': 'Duplicate payment',
  'ticket-not-delivered': 'Ticket not delivered',
  'wrong-ticket': 'Wrong ticket',
  'customer-request': 'Customer request',
  other: 'Other',
};

export const REFUND_STATE_LABELS: Record<RefundState, string> = {
  requested: 'Awaiting approval',
  approved: 'Approved',
  rejected: 'Rejected',
  submitted: 'Submitted',
  unknown: 'Outcome unknown',
  completed: 'Completed',
  failed: 'Failed',
};

export const REFUND_STATE_COLOR: Record<RefundState, 'warning' | 'info' | 'success' | 'error' | 'default'> = {
  requested: 'warning',
  approved: 'info',
  submitted: 'info',
  unknown: 'warning',
  rejected: 'default',
  completed: 'success',
  failed: 'error',
};

/** A note or a decision's reason is one line of at most this many characters. */
export const REFUND_NOTE_MAX = 500;

/** The SMS a customer gets once their refund completed (REFUND_SMS_TEXT); `{amount}` and `{level}` are filled in. */
export const DEFAULT_REFUND_SMS_TEXT = 'UGX {amount} for your {level} ticket has been refunded.';

/** The queue's order: awaiting approval first, then in flight, then done. */
export function refundQueueRank(state: RefundState): number {
  if (state === 'requested') return 0;
  if ((IN_FLIGHT_REFUND_STATES as readonly string[]).includes(state)) return 1;
  return 2;
}

export const isOpenRefund = (state: RefundState) => (OPEN_REFUND_STATES as readonly string[]).includes(state);

export function refundReasonLabel(reason: string | null | undefined): string {
  if (!reason) return '';
  return (REFUND_REASON_LABELS as Record<string, string>)[reason] ?? reason;
}

/** A refund as the API answers it. */
export interface Refund {
  _id: string;
  transactionId: string;
  amount: number;
  reason: RefundReason;
  note: string | null;
  state: RefundState;
  /** Our reference with the provider: stored before the provider is first asked, reused on every retry. */
  providerRef: string;
  requestedBy: UserRef | null;
  decidedBy: UserRef | null;
  decisionReason: string | null;
  failureReason: string | null;
  /** The call's phone number, service code and amount, so the queue reads without a second call. */
  phoneNumber: string;
  serviceCode: string;
  callAmount: number | null;
  createdAt: string;
  decidedAt: string | null;
  submittedAt: string | null;
  settledAt: string | null;
  updatedAt: string;
}

/** What the live stream says of a refund that moved (`event: refund`); its call's code scopes who hears it and is not sent. */
export interface LiveRefund {
  _id: string;
  transactionId: string;
  state: RefundState;
  serviceCode: string;
}
