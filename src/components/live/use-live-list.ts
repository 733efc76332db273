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
  /** A read of the list is under way (the first, a refetch, Refresh). */
  isFetching: boolean;
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
 * Reads a list again without losing an ask: RTK Query drops a refetch asked while its query is
 * reading, and that read may have left before the call it was asked for, so an ask made meanwhile
 * is owed and made once the read is done (`shown` a list with no read under way).
 */
function listReader() {
  let query: LiveListQuery | undefined;
  let reading = false;
  let owed = false;
  const ask = () => {
    if (!query || query.isUninitialized) return;
    if (query.isFetching || reading) {
      owed = true;
      return;
    }
    owed = false;
    reading = true;
    void Promise.resolve(query.refetch())
      .catch(() => undefined)
      .finally(() => {
        reading = false;
        if (owed) ask();
      });
  };
  return {
    ask,
    /** The list as the screen renders it now. */
    shown(now: LiveListQuery) {
      query = now;
      if (owed && !now.isFetching) ask();
    },
  };
}

/** The newest call of page 1 as shown (null: page 1 is empty); undefined when another page, or nothing yet, is shown. */
function newestOnPageOne(page: number, data: PagedList<Transaction> | undefined): string | null | undefined {
  if (page !== 1 || !data) return undefined;
  let newest: string | null = null;
  for (const row of data.docs) if (newest === null || row.createdAt > newest) newest = row.createdAt;
  return newest;
}

/**
 * Makes a paged list of calls follow the live stream: rows already shown change in place
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
  const [reader] = useState(listReader);
  const readAgain = reader.ask;
  useEffect(() => reader.shown(query));

  // A view or page answered from the cache before the last reported call may lack it: read it again.
  useEffect(() => {
    const current = latest.current.query;
    if (!viewKey || current.isUninitialized || current.fulfilledTimeStamp === undefined) return;
    if (current.fulfilledTimeStamp < lastLiveCallAt()) readAgain();
  }, [viewKey, readAgain]);

  useEffect(() => {
    const refetch = throttled(readAgain, LIST_REFETCH_MS);
    const stop = onLiveCall((call) => {
      const { view: shown, page: shownPage, query: current, viewKey: key } = latest.current;
      if (!shown || !isNewInView(call, shown, todayInServiceZone(), newestOnPageOne(shownPage, current.data))) return;
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
  }, [readAgain]);

  const onShow = useCallback(() => {
    setPending({ key: latest.current.viewKey, ids: [] });
    if (!atTop()) globalThis.scrollTo({ top: 0 });
    // Page 1 from the cache is read again by the view-change effect above.
    if (latest.current.page !== 1) setPage(1);
    else readAgain();
  }, [setPage, readAgain]);

  return { count: pending.key === viewKey ? pending.ids.length : 0, onShow };
}
