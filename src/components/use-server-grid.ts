import { useRef } from 'react';
import type { PagedList } from '../domain/paged-list';

/** What an RTK Query list hook gives the grid (data stays the last page while the next loads). */
export interface PagedQueryResult<T> {
  data?: PagedList<T>;
  isFetching: boolean;
  isError?: boolean;
}

export interface ServerGridProps<T> {
  rows: T[];
  rowCount: number;
  loading: boolean;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
}

/**
 * Turns a paged query into PagedGrid props: `const grid = useServerGrid(query, page, setPage)`
 * then `<PagedGrid columns={columns} {...grid} />`. The row count is kept while a page loads
 * so the footer does not jump (as refine's useDataGrid does); a failed load empties the list.
 */
export function useServerGrid<T>(
  query: PagedQueryResult<T>,
  page: number,
  onPageChange: (page: number) => void,
  defaultPageSize = 10,
): ServerGridProps<T> {
  const lastCount = useRef(0);
  const lastPageSize = useRef(defaultPageSize);
  if (query.data && !query.isFetching) {
    lastCount.current = query.data.total;
    lastPageSize.current = query.data.limit || defaultPageSize;
  }
  if (query.isError && !query.isFetching) lastCount.current = 0;
  return {
    rows: query.isError ? [] : (query.data?.docs ?? []),
    rowCount: lastCount.current,
    loading: query.isFetching,
    page,
    pageSize: lastPageSize.current,
    onPageChange,
  };
}
