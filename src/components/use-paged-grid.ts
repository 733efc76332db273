import { useCallback, useState } from 'react';
import type { PagedList } from '../domain/paged-list';

/** What an RTK Query list hook gives the grid: `data` stays the last answer while the next loads. */
export interface PagedQueryResult<T> {
  data?: PagedList<T>;
  isFetching: boolean;
  isError?: boolean;
}

/** The props a screen spreads on PagedGrid. */
export interface PagedGridState<T> {
  rows: T[];
  rowCount: number;
  loading: boolean;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
}

export interface PagedGridOptions<F> {
  /** The list's filters at first render (read once). */
  filters: F;
  pageSize?: number;
}

/**
 * The one owner of a server-paged list's page and filters (after refine's useDataGrid, smaller):
 *
 *   const list = usePagedGrid({ filters: { name: '' }, pageSize: 50 });
 *   const query = useGetThingsQuery(list.args);
 *   <PagedGrid columns={columns} {...list.gridProps(query)} />
 *
 * Any filter change goes back to page 1. The row count comes from RTK Query's `data`, which keeps
 * the previous answer while the next page loads, so the footer does not jump; a failed load empties the list.
 */
export function usePagedGrid<F extends object>({ filters: initialFilters, pageSize = 10 }: PagedGridOptions<F>) {
  const [{ page, filters }, setState] = useState(() => ({ page: 1, filters: initialFilters }));
  const setPage = useCallback((next: number) => setState((current) => ({ ...current, page: next })), []);
  const setFilters = useCallback((next: Partial<F>) => setState((current) => ({ page: 1, filters: { ...current.filters, ...next } })), []);
  const gridProps = <T>(query: PagedQueryResult<T>): PagedGridState<T> => ({
    rows: query.isError ? [] : (query.data?.docs ?? []),
    rowCount: query.isError ? 0 : (query.data?.total ?? 0),
    loading: query.isFetching,
    page,
    pageSize,
    onPageChange: setPage,
  });
  return { page, pageSize, filters, setPage, setFilters, args: { ...filters, page, limit: pageSize }, gridProps };
}
