import type { LiveEventName, LiveTransaction } from '../domain/live';
import { statusFlags } from '../domain/transaction-status';
import { baseApi, type ApiTagType } from './base-api';
import { patchCallInCachedLists, type CacheAccess } from './resolve-in-cache';
import { debounced, throttled } from './throttle';

/** How often at most the figures that sum many calls are read again while calls stream in. */
export const LIVE_FIGURES_REFETCH_MS = 2500;

/**
 * How long after the last settled vote a ranking is read once more. The server answers a ranking
 * read right after a vote from memory while it refreshes that page (answer-cache.ts), so the read
 * a vote sets off can still be the ranking from before it; without this second read a lone vote
 * stayed off an open ranking until Refresh.
 */
export const LIVE_RANKING_SETTLE_MS = 1500;

/** Everything the stream keeps current: read again after a gap, when changes may have been missed. */
const FOLLOWED_TAGS: ApiTagType[] = ['Transaction', 'FailedTransaction', 'CampaignTransaction', 'Dashboard', 'Ranking', 'Incident', 'ServiceCodeToday', 'Refund'];

type CallListener = (call: LiveTransaction) => void;
const callListeners = new Set<CallListener>();
let lastCallAt = 0;

/** Calls the listener with every call the stream reports (after its cached rows were updated); returns the unsubscribe. */
export function onLiveCall(listener: CallListener): () => void {
  callListeners.add(listener);
  return () => callListeners.delete(listener);
}

/** When the stream last reported a call: a cached list answered before it may lack a new call. */
export const lastLiveCallAt = () => lastCallAt;

const isLiveTransaction = (data: unknown): data is LiveTransaction => {
  const call = data as Partial<LiveTransaction> | null;
  return typeof call?._id === 'string' && typeof call.name === 'string' && typeof call.status === 'string';
};

/**
 * Applies the live stream's events to the RTK Query cache: a call's status or resolve
 * changes its rows in place in every cached list; the lists learn of new calls through onLiveCall;
 * the dashboard, rankings and the codes' day figures are read again, throttled; an incident
 * reads the incidents again.
 */
export function liveCacheUpdater(cache: CacheAccess) {
  const invalidate = (tags: ApiTagType[]) => cache.dispatch(baseApi.util.invalidateTags(tags));
  const dashboard = throttled(() => invalidate(['Dashboard']), LIVE_FIGURES_REFETCH_MS);
  const rankings = throttled(() => invalidate(['Ranking']), LIVE_FIGURES_REFETCH_MS);
  const rankingsSettled = debounced(() => invalidate(['Ranking']), LIVE_RANKING_SETTLE_MS);
  const codesToday = throttled(() => invalidate(['ServiceCodeToday']), LIVE_FIGURES_REFETCH_MS);

  const onCall = (call: LiveTransaction) => {
    lastCallAt = Date.now();
    patchCallInCachedLists(
      call._id,
      (row) => Object.assign(row, statusFlags(call.status), { isResolved: call.isResolved }),
      cache,
    );
    for (const listener of [...callListeners]) listener(call);
    dashboard();
    codesToday();
    // A ranking counts settled votes only.
    if (call.status === 'processed') {
      rankings();
      rankingsSettled();
    }
  };

  return {
    event(name: LiveEventName, data: unknown) {
      if (name === 'transaction' && isLiveTransaction(data)) onCall(data);
      else if (name === 'incident') invalidate(['Incident', 'ServiceCodeToday']);
      else if (name === 'refund') {
        // The queue, and the call's timeline and refunded amount.
        const transactionId = (data as { transactionId?: unknown } | null)?.transactionId;
        cache.dispatch(baseApi.util.invalidateTags(['Refund', ...(typeof transactionId === 'string' ? [{ type: 'Transaction' as const, id: transactionId }] : [])]));
      }
      else if (name === 'resync') this.caughtUp();
    },
    /** After a gap (a reconnect, a resync): read again everything shown. */
    caughtUp() {
      lastCallAt = Date.now();
      invalidate(FOLLOWED_TAGS);
    },
    stop() {
      for (const pending of [dashboard, rankings, rankingsSettled, codesToday]) pending.cancel();
    },
  };
}
