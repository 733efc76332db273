import type { LiveTransaction } from './live';
import { awaitsResolve } from './transaction-status';

/** What a live list shows: a day, a service code (none: every code the reader may read), failed calls only or all. */
export interface LiveListView {
  name?: string;
  date: string;
  failedOnly?: boolean;
}

/**
 * Whether a call the stream reports, missing from the rows shown, is a new call for a list of
 * `view` (issue 23). New calls are today's, so only today's lists grow. A call is made pending (the
 * USSD confirmation), so on the lists of every status the pending report is the new one, and a later
 * change of a call on another page is not; on a Failed list, a call turning failed (and not yet
 * resolved) is the new one.
 */
export function isNewInView(call: LiveTransaction, view: LiveListView, today: string): boolean {
  if (view.date !== today) return false;
  if (view.name && view.name !== call.name) return false;
  return view.failedOnly ? awaitsResolve(call.status, call.isResolved) : call.status === 'pending';
}
