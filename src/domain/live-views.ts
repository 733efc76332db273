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
 * `view`. New calls are today's, so only today's lists grow. On the lists of every status a call is
 * new when made (its pending report), or when it is newer than every call of page 1
 * (`newestOnPageOne`, the newest row's `createdAt`; null for an empty page 1): a call made and paid
 * within one write of the stream is first heard of already processed or failed, while a settled
 * call older than page 1's newest is one of the rows already listed, on this page or another.
 * Away from page 1 (`newestOnPageOne` undefined) only the pending report tells. On a Failed list, a
 * call turning failed (and not yet resolved) is the new one.
 */
export function isNewInView(call: LiveTransaction, view: LiveListView, today: string, newestOnPageOne?: string | null): boolean {
  if (view.date !== today) return false;
  if (view.name && view.name !== call.name) return false;
  if (view.failedOnly) return awaitsResolve(call.status, call.isResolved);
  if (call.status === 'pending') return true;
  if (newestOnPageOne === undefined) return false;
  return newestOnPageOne === null || call.createdAt >= newestOnPageOne;
}
