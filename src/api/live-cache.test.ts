import { setupStore } from '../state/store';
import { baseApi } from './base-api';
import { LIVE_FIGURES_REFETCH_MS, LIVE_RANKING_SETTLE_MS, liveCacheUpdater } from './live-cache';

/** The store's dispatch, noting every time the rankings are asked to be read again. */
function watchedStore() {
  const store = setupStore();
  const rankingReads: number[] = [];
  const dispatch = ((action: unknown) => {
    if (baseApi.util.invalidateTags.match(action as never) && (action as { payload: unknown[] }).payload.includes('Ranking')) rankingReads.push(Date.now());
    return store.dispatch(action as never);
  }) as typeof store.dispatch;
  return { cache: { dispatch, getState: store.getState }, rankingReads };
}

const vote = (n: number) => ({ _id: `vote-${n}`, name: '*217*50#', phoneNumber: '256774000001', status: 'processed', isResolved: false });

describe('liveCacheUpdater and the rankings', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('reads the rankings at once for a lone settled vote, and once more after it settles, as the first answer may predate the vote', () => {
    const { cache, rankingReads } = watchedStore();
    const live = liveCacheUpdater(cache);
    live.event('transaction', vote(1));
    expect(rankingReads).toEqual([1_000_000]);
    jest.advanceTimersByTime(LIVE_RANKING_SETTLE_MS);
    expect(rankingReads).toEqual([1_000_000, 1_000_000 + LIVE_RANKING_SETTLE_MS]);
    jest.advanceTimersByTime(10_000);
    expect(rankingReads).toHaveLength(2);
    live.stop();
  });

  it('reads them a few times during a surge of votes, and once more after the last', () => {
    const { cache, rankingReads } = watchedStore();
    const live = liveCacheUpdater(cache);
    // 10 seconds of votes, 20 a second.
    for (let n = 0; n < 200; n += 1) {
      live.event('transaction', vote(n));
      jest.advanceTimersByTime(50);
    }
    expect(rankingReads.length).toBeLessThanOrEqual(Math.ceil(10_000 / LIVE_FIGURES_REFETCH_MS) + 1);
    const beforeTheEnd = rankingReads.length;
    jest.advanceTimersByTime(LIVE_RANKING_SETTLE_MS);
    expect(rankingReads.length).toBeGreaterThan(beforeTheEnd);
    expect(rankingReads[rankingReads.length - 1]).toBe(1_000_000 + 200 * 50 - 50 + LIVE_RANKING_SETTLE_MS);
    live.stop();
  });

  it('does not read the rankings for a failed or pending call', () => {
    const { cache, rankingReads } = watchedStore();
    const live = liveCacheUpdater(cache);
    live.event('transaction', { ...vote(1), status: 'failed' });
    live.event('transaction', { ...vote(2), status: 'pending' });
    jest.advanceTimersByTime(10_000);
    expect(rankingReads).toEqual([]);
    live.stop();
  });
});
