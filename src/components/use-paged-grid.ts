import type { PagedList } from '../domain/paged-list';
import type { ViewFilters } from '../domain/list-view';
import { useUrlFilters } from './use-url-filters';

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
  /** The list's filters: each one's default and what the URL may say of it (src/domain/list-view.ts). */
  filters: ViewFilters<F>;
  pageSize?: number;
  /** Query keys under `${prefix}.`, for a second list on one screen. */
  prefix?: string;
}

/**
 * The one owner of a server-paged list's page and filters (after refine's useDataGrid, smaller):
 *
 *   const list = usePagedGrid({ filters: { name: serviceCodeFilter(''), date: dayFilter(today) }, pageSize: 50 });
 *   const query = useGetThingsQuery(list.args);
 *   <PagedGrid columns={columns} {...list.gridProps(query)} />
 *
 * Page and filters live in the URL query (useUrlFilters): reload, a copied link, Back and Forward
 * give the same view. Any filter change goes back to page 1. The row count comes from RTK Query's
 * `data`, which keeps the previous answer while the next page loads, so the footer does not jump;
 * a failed load empties the list.
 */
export function usePagedGrid<F extends object>({ filters: rules, pageSize = 10, prefix }: PagedGridOptions<F>) {
  const { filters, page, setFilters, setPage } = useUrlFilters({ filters: rules, prefix });
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
