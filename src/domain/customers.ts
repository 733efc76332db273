import type { Transaction } from './entities';

/** One customer (a phone number) as support reads it, over the calls in the caller's scope. */
export interface CustomerSummary {
  phoneNumber: string;
  /** The first and last call in scope; null when the number has none. */
  firstSeenAt: string | null;
  lastSeenAt: string | null;
  calls: number;
  processed: number;
  failed: number;
  /** What the processed calls paid, in the service currency. */
  spent: number;
  /** What was paid back to the number. */
  refunded: number;
  /** Processed calls that were campaign votes. */
  votes: number;
  /** Ticket SMS that left for the number (sent or delivered). */
  sms: number;
}

/** What the top bar's search found: a customer's page, or one call (opened on its customer's page). */
export type LookupKind = 'customer' | 'call';

export interface LookupResult {
  kind: LookupKind;
  phoneNumber: string;
  /** The call found, for a payment reference or a call id; null for a phone number. */
  transactionId: string | null;
  /** That call as the lists show it, so its Details open without another request. */
  transaction: Transaction | null;
  /** Where the SPA goes: the customer page, with the call's Details open when one was found. */
  path: string;
}

/** The customer page of a number, with one call's Details open when given. */
export function customerPath(phoneNumber: string, transactionId?: string | null): string {
  const base = `/customers/${encodeURIComponent(phoneNumber)}`;
  return transactionId ? `${base}?call=${encodeURIComponent(transactionId)}` : base;
}
