import { useCallback, useEffect, useRef, useState } from 'react';
import { lastLiveCallAt, onLiveCall } from '../../api/live-cache';
import { throttled } from '../../api/throttle';
import type { Transaction } from '../../domain/entities';
import { todayInServiceZone } from '../../domain/format';
import { isNewInView, type LiveListView } from '../../domain/live-views';
import type { PagedList } from '../../domain/paged-list';

/** At most one refetch of a list in this window, however fast calls come. */
export const LIST_REFETCH_MS = 2000;

/** Scrolled less than this, the reader is at the top and sees new rows arrive. */
const TOP_SLACK_PX = 8;

/** What the hook reads of the screen's RTK Query list. */
export interface LiveListQuery {
  data?: PagedList<Transaction>;
  fulfilledTimeStamp?: number;
  isUninitialized: boolean;
  refetch: () => unknown;
}

export interface LiveListOptions {
  /** The list's view; none for a list that does not grow (a search, or before its code is known). */
  view: LiveListView | undefined;
  page: number;
  query: LiveListQuery;
  /** Goes to page 1 (the screen's usePagedGrid setPage). */
  setPage: (page: number) => void;
}

/** The 'n new calls' chip's props. */
export interface NewCalls {
  count: number;
  onShow: () => void;
}

const atTop = () => (globalThis.scrollY ?? 0) <= TOP_SLACK_PX;

/**
 * Makes a paged list of calls follow the live stream (issue 23): rows already shown change in place
 * (live-cache does that for every cached list); a new call for the view is read in at once when the
 * reader is on page 1 at the top (throttled), and is otherwise counted for the 'n new calls' chip,
 * so rows never move under the reader's cursor.
 *
 *   const live = useLiveList({ view: { name, date }, page: list.page, query, setPage: list.setPage });
 *   <NewCallsChip {...live} />
 */
export function useLiveList({ view, page, query, setPage }: LiveListOptions): NewCalls {
  const viewKey = view ? `${view.name ?? ''}|${view.date}|${view.failedOnly ? 'failed' : 'all'}|${page}` : '';
  // Counted per view and page: another view or page starts with none.
  const [pending, setPending] = useState<{ key: string; ids: string[] }>({ key: viewKey, ids: [] });
  const latest = useRef({ view, page, query, viewKey });
  useEffect(() => {
    latest.current = { view, page, query, viewKey };
  });
  // A view or page answered from the cache before the last reported call may lack it: read it again.
  useEffect(() => {
    const current = latest.current.query;
    if (!viewKey || current.isUninitialized || current.fulfilledTimeStamp === undefined) return;
    if (current.fulfilledTimeStamp < lastLiveCallAt()) current.refetch();
  }, [viewKey]);

  useEffect(() => {
    const refetch = throttled(() => {
      const current = latest.current.query;
      if (!current.isUninitialized) current.refetch();
    }, LIST_REFETCH_MS);
    const stop = onLiveCall((call) => {
      const { view: shown, page: shownPage, query: current, viewKey: key } = latest.current;
      if (!shown || !isNewInView(call, shown, todayInServiceZone())) return;
      if (current.data?.docs.some((row) => row._id === call._id)) return;
      if (shownPage === 1 && atTop()) {
        refetch();
        return;
      }
      setPending((counted) => {
        const ids = counted.key === key ? counted.ids : [];
        return ids.includes(call._id) ? counted : { key, ids: [...ids, call._id] };
      });
    });
    return () => {
      stop();
      refetch.cancel();
    };
  }, []);

  const onShow = useCallback(() => {
    setPending({ key: latest.current.viewKey, ids: [] });
    if (!atTop()) globalThis.scrollTo({ top: 0 });
    // Page 1 from the cache is read again by the view-change effect above.
    if (latest.current.page !== 1) setPage(1);
    else if (!latest.current.query.isUninitialized) latest.current.query.refetch();
  }, [setPage]);

  return { count: pending.key === viewKey ? pending.ids.length : 0, onShow };
}
