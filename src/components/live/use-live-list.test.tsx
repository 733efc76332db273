import { act, renderHook } from '@testing-library/react';
import { liveCacheUpdater } from '../../api/live-cache';
import type { Transaction } from '../../domain/entities';
import { todayInServiceZone } from '../../domain/format';
import type { LiveTransaction } from '../../domain/live';
import { toPagedList } from '../../domain/paged-list';
import { setupStore } from '../../state/store';
import { useLiveList, type LiveListQuery } from './use-live-list';

/**
 * How a list hears of new calls, with the list's query played by the test: RTK Query ignores a
 * refetch asked while the query is reading, so the query here records which refetches it took.
 */

const CODE = '*217*1#';
const today = todayInServiceZone();
const at = (time: string) => `${today}T${time}.000Z`;

const row = (id: string, createdAt: string) => ({ _id: id, name: CODE, phoneNumber: '256770000001', createdAt, isComplete: true, isDeleted: false, isResolved: false }) as Transaction;
const report = (change: Partial<LiveTransaction>): LiveTransaction => ({ _id: 'new', name: CODE, phoneNumber: '256770000002', status: 'pending', isResolved: false, createdAt: at('10:00:00'), ...change });

/** A list query as the screen's RTK Query hook gives it: reading or not; a refetch asked while reading is dropped, as RTK Query drops it. */
function listQuery(rows: Transaction[], isFetching: boolean) {
  const taken: number[] = [];
  const state = { isFetching };
  const query = (): LiveListQuery => ({
    data: toPagedList(rows, 1, 50, rows.length),
    fulfilledTimeStamp: Date.now(),
    isUninitialized: false,
    isFetching: state.isFetching,
    refetch: () => {
      if (!state.isFetching) taken.push(Date.now());
      return Promise.resolve();
    },
  });
  /** The read in flight is done: the hook renders again with the answer. */
  const readDone = () => {
    state.isFetching = false;
    return query();
  };
  return { query: query(), readDone, taken };
}

function followList(initial: LiveListQuery, page = 1) {
  const store = setupStore();
  const live = liveCacheUpdater({ dispatch: store.dispatch, getState: store.getState });
  const hook = renderHook(({ query }) => useLiveList({ view: { name: CODE, date: today }, page, query, setPage: () => {} }), { initialProps: { query: initial } });
  return { live, hook };
}

describe('useLiveList', () => {
  it('reads the list again once the read in flight is done, when a new call is reported during it', async () => {
    const { query, readDone, taken } = listQuery([row('old', at('09:00:00'))], true);
    const { live, hook } = followList(query);
    act(() => live.event('transaction', report({})));
    expect(taken).toEqual([]);
    // The read in flight left before the call was made: its answer lacks it.
    hook.rerender({ query: readDone() });
    await act(async () => {});
    expect(taken).toHaveLength(1);
    live.stop();
    hook.unmount();
  });

  it('reads page 1 again for a call first heard of already paid, newer than every row shown', async () => {
    const { query, taken } = listQuery([row('old', at('09:00:00'))], false);
    const { live, hook } = followList(query);
    act(() => live.event('transaction', report({ status: 'processed', createdAt: at('10:00:00') })));
    await act(async () => {});
    expect(taken).toHaveLength(1);
    live.stop();
    hook.unmount();
  });

  it('leaves page 1 alone when an older call of another page is paid, and counts no new call', async () => {
    const { query, taken } = listQuery([row('newest', at('11:00:00'))], false);
    const { live, hook } = followList(query);
    act(() => live.event('transaction', report({ status: 'processed', createdAt: at('10:00:00') })));
    await act(async () => {});
    expect(taken).toEqual([]);
    expect(hook.result.current.count).toBe(0);
    live.stop();
    hook.unmount();
  });
});
