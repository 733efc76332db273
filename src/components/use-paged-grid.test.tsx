import { act, renderHook } from '@testing-library/react';
import { toPagedList } from '../domain/paged-list';
import { usePagedGrid } from './use-paged-grid';

describe('usePagedGrid', () => {
  it('goes back to page 1 on any filter change and passes page and filters to the query', () => {
    const { result } = renderHook(() => usePagedGrid({ filters: { name: '*217*1#', date: '2026-01-01' }, pageSize: 50 }));
    act(() => result.current.setPage(3));
    expect(result.current.args).toEqual({ name: '*217*1#', date: '2026-01-01', page: 3, limit: 50 });
    act(() => result.current.setFilters({ date: '2026-01-02' }));
    expect(result.current.args).toEqual({ name: '*217*1#', date: '2026-01-02', page: 1, limit: 50 });
  });

  it("keeps the previous answer's count while the next page loads and empties the list on failure", () => {
    const { result } = renderHook(() => usePagedGrid({ filters: {}, pageSize: 2 }));
    const previous = toPagedList([{ _id: 'a' }, { _id: 'b' }], 1, 2, 7);
    const loading = result.current.gridProps({ data: previous, isFetching: true });
    expect(loading).toMatchObject({ rowCount: 7, loading: true, rows: previous.docs, page: 1, pageSize: 2 });
    expect(result.current.gridProps({ data: previous, isFetching: false, isError: true })).toMatchObject({ rows: [], rowCount: 0 });
  });
});
