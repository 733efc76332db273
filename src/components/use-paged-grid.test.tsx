import type { ReactNode } from 'react';
import { act, renderHook } from '@testing-library/react';
import { MemoryRouter, useLocation, useNavigate } from 'react-router-dom';
import { dayFilter, serviceCodeFilter } from '../domain/list-view';
import { toPagedList } from '../domain/paged-list';
import { usePagedGrid } from './use-paged-grid';
import { EDIT_BURST_MS } from './use-url-filters';

const inRouter = (url: string) =>
  function Router({ children }: { children: ReactNode }) {
    return <MemoryRouter initialEntries={[url]}>{children}</MemoryRouter>;
  };

/** The hook with the router's location and a navigate, to go Back. */
function renderList(url = '/transactions') {
  return renderHook(
    () => ({
      list: usePagedGrid({ filters: { name: serviceCodeFilter('*217*1#'), date: dayFilter('2026-01-01') }, pageSize: 50 }),
      location: useLocation(),
      navigate: useNavigate(),
    }),
    { wrapper: inRouter(url) },
  );
}

describe('usePagedGrid', () => {
  it('goes back to page 1 on any filter change and passes page and filters to the query', () => {
    const { result } = renderList();
    act(() => result.current.list.setPage(3));
    expect(result.current.list.args).toEqual({ name: '*217*1#', date: '2026-01-01', page: 3, limit: 50 });
    act(() => result.current.list.setFilters({ date: '2026-01-02' }));
    expect(result.current.list.args).toEqual({ name: '*217*1#', date: '2026-01-02', page: 1, limit: 50 });
  });

  it('reads the view from the URL, writes each change to it, and Back walks through the views', () => {
    const { result } = renderList('/transactions?name=*217*5%23&date=2026-02-03&page=2');
    expect(result.current.list.args).toEqual({ name: '*217*5#', date: '2026-02-03', page: 2, limit: 50 });
    act(() => result.current.list.setFilters({ date: '2026-02-04' }));
    // The default day is left out; the manager's code stays, a colleague's default would differ.
    expect(new URLSearchParams(result.current.location.search).toString()).toBe(new URLSearchParams({ name: '*217*5#', date: '2026-02-04' }).toString());
    act(() => result.current.list.setPage(2));
    expect(result.current.location.search).toContain('page=2');
    act(() => result.current.navigate(-1));
    expect(result.current.list.args).toMatchObject({ date: '2026-02-04', page: 1 });
    act(() => result.current.navigate(-1));
    expect(result.current.list.args).toMatchObject({ date: '2026-02-03', page: 2 });
  });

  it('leaves the URL plain until the view changes, and falls back to defaults on garbage', () => {
    const { result } = renderList('/transactions?name=DROP%20TABLE&date=2026-02-30&page=-4&other=kept');
    expect(result.current.list.args).toEqual({ name: '*217*1#', date: '2026-01-01', page: 1, limit: 50 });
    act(() => result.current.list.setPage(2));
    expect(Object.fromEntries(new URLSearchParams(result.current.location.search))).toEqual({ name: '*217*1#', page: '2', other: 'kept' });
  });

  it('makes quick changes of the same filter one history entry, so typing does not make Back noisy', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    try {
      const { result } = renderList();
      act(() => result.current.list.setFilters({ date: '2026-03-01' }));
      act(() => result.current.list.setFilters({ date: '2026-03-11' })); // the next keystroke
      jest.setSystemTime(1_000_000 + EDIT_BURST_MS + 1);
      act(() => result.current.list.setFilters({ date: '2026-03-12' })); // a new edit
      act(() => result.current.navigate(-1));
      expect(result.current.list.filters.date).toBe('2026-03-11');
      act(() => result.current.navigate(-1));
      expect(result.current.list.filters.date).toBe('2026-01-01');
    } finally {
      jest.useRealTimers();
    }
  });

  it('builds a change on one the router has not shown yet, so neither is lost', () => {
    const { result } = renderList();
    act(() => {
      result.current.list.setFilters({ name: '' });
      result.current.list.setFilters({ date: '2026-04-01' });
    });
    expect(result.current.list.filters).toEqual({ name: '', date: '2026-04-01' });
    act(() => result.current.navigate(-1));
    expect(result.current.list.filters).toEqual({ name: '', date: '2026-01-01' });
    act(() => result.current.list.setPage(2));
    expect(result.current.list.args).toEqual({ name: '', date: '2026-01-01', page: 2, limit: 50 });
  });

  it("keeps the previous answer's count while the next page loads and empties the list on failure", () => {
    const { result } = renderHook(() => usePagedGrid({ filters: {}, pageSize: 2 }), { wrapper: inRouter('/') });
    const previous = toPagedList([{ _id: 'a' }, { _id: 'b' }], 1, 2, 7);
    const loading = result.current.gridProps({ data: previous, isFetching: true });
    expect(loading).toMatchObject({ rowCount: 7, loading: true, rows: previous.docs, page: 1, pageSize: 2 });
    expect(result.current.gridProps({ data: previous, isFetching: false, isError: true })).toMatchObject({ rows: [], rowCount: 0 });
  });

  it('keeps two lists of one screen apart by prefix', () => {
    const { result } = renderHook(
      () => ({ a: usePagedGrid({ filters: {}, prefix: 'a' }), b: usePagedGrid({ filters: {}, prefix: 'b' }), location: useLocation() }),
      { wrapper: inRouter('/x?b.page=3') },
    );
    expect([result.current.a.page, result.current.b.page]).toEqual([1, 3]);
    act(() => result.current.a.setPage(2));
    expect(Object.fromEntries(new URLSearchParams(result.current.location.search))).toEqual({ 'a.page': '2', 'b.page': '3' });
  });
});
