import { lazy, Suspense, useMemo } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { GridColDef, GridColumnVisibilityModel, GridDensity, GridRowId, GridValidRowModel } from '@mui/x-data-grid';
import { selectColumnVisibility, selectDensity } from '../state/ui-slice';
import { useAppSelector } from '../state/hooks';
import { rowNumber } from '../domain/paged-list';
import { pageCount, showingText, stepPage } from '../domain/grid-paging';
import { PHONE_QUERY } from '../domain/first-visit';
import { defaultExport } from './lazy-import';
import { ListSpinner } from './list-spinner';
import PagedCards from './paged-cards';
import type PagedDataGridView from './paged-data-grid';
import { DRAWN_ROW_SELECTOR, ROW_NUMBER_FIELD, type PagedViewProps } from './paged-view';

type GridViewModule = { default: typeof PagedDataGridView | { default: typeof PagedDataGridView } };
let gridView: Promise<GridViewModule> | undefined;

/**
 * Starts loading the DataGrid view, once. The app shell calls it as it loads on a wide screen, so
 * the grid's code arrives while the shell renders, as it did when screens imported it directly.
 */
export function preloadPagedDataGrid(): Promise<GridViewModule> {
  gridView ??= import(/* webpackChunkName: "paged-data-grid" */ './paged-data-grid') as Promise<GridViewModule>;
  return gridView;
}

const PagedDataGrid = lazy(async () => ({ default: defaultExport(await preloadPagedDataGrid()) }));

export interface PagedGridProps<R extends GridValidRowModel> extends Omit<PagedViewProps<R>, 'getRowId' | 'columnVisibilityModel'> {
  onPageChange: (page: number) => void;
  /** Defaults to row._id. */
  getRowId?: (row: R) => GridRowId;
  /** Header of the row-number column; null hides it. Defaults to '#'. */
  numberHeader?: string | null;
  /** The columns shown until the person chooses under 'Manage columns' (kept by gridKey). */
  defaultColumnVisibility?: GridColumnVisibilityModel;
}

const defaultRowId = (row: GridValidRowModel): GridRowId => row._id as GridRowId;

/**
 * The one server-paged list of the product (SPEC §2 and §9): spinner while loading, 'No records'
 * when empty, our own footer 'Showing n out of total entries' with Previous/Next. A DataGrid on
 * a wide screen, cards on a phone (paged-cards.tsx), the same columns and cells in both.
 */
export function PagedGrid<R extends GridValidRowModel>({
  columns,
  rows,
  rowCount,
  loading,
  page,
  pageSize,
  onPageChange,
  getRowId = defaultRowId,
  gridKey,
  numberHeader = '#',
  label,
  card,
  defaultColumnVisibility,
  focusedRowId,
  selection,
}: PagedGridProps<R>) {
  const phone = useMediaQuery(PHONE_QUERY, { noSsr: true });
  const columnVisibilityModel = useAppSelector((state) => selectColumnVisibility(state, gridKey)) ?? defaultColumnVisibility;
  const pages = pageCount(rowCount, pageSize);
  // Rows are on their way while a page loads, and while the view has them but has not drawn them
  // yet (the DataGrid takes its rows in an effect, a frame after they come).
  const rowsExpected = loading || rows.length > 0;

  const allColumns = useMemo<GridColDef<R>[]>(() => {
    if (numberHeader === null) return columns;
    const indexById = new Map(rows.map((row, index) => [getRowId(row), index]));
    const numberColumn: GridColDef<R> = {
      field: ROW_NUMBER_FIELD,
      headerName: numberHeader,
      width: 44,
      sortable: false,
      filterable: false,
      disableColumnMenu: true,
      valueGetter: (_value, row) => rowNumber(indexById.get(getRowId(row)) ?? 0, page, pageSize),
    };
    return [numberColumn, ...columns];
  }, [columns, rows, getRowId, numberHeader, page, pageSize]);

  const view: PagedViewProps<R> = { columns: allColumns, rows, rowCount, loading, page, pageSize, getRowId, gridKey, columnVisibilityModel, label, card, focusedRowId, selection };
  return (
    <Box
      // The pagination is hidden while rows are expected and none is drawn: below an empty list it
      // would be on screen, and the rows arriving would push it off (a layout shift).
      sx={rowsExpected ? { [`&:not(:has(${DRAWN_ROW_SELECTOR})) > nav`]: { visibility: 'hidden' } } : undefined}
    >
      {phone ? (
        <PagedCards<R> {...view} />
      ) : (
        <Suspense fallback={<GridPlaceholder />}>
          {/* React.lazy drops the view's type parameter; the props are the same R's. */}
          <PagedDataGrid {...(view as unknown as PagedViewProps<GridValidRowModel>)} />
        </Suspense>
      )}
      <Stack
        direction="row"
        sx={{ mt: 1, alignItems: 'center', justifyContent: 'space-between' }}
        component="nav"
        aria-label="pagination"
      >
        <Typography variant="body2" color="text.secondary">
          {showingText(rows.length, rowCount)}
        </Typography>
        <Stack direction="row" spacing={1}>
          <Button size="small" variant="outlined" disabled={loading || page <= 1} onClick={() => onPageChange(stepPage(page, -1, pages))}>
            Previous
          </Button>
          <Button size="small" variant="outlined" disabled={loading || page >= pages} onClick={() => onPageChange(stepPage(page, 1, pages))}>
            Next
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}

/**
 * The DataGrid's height while it loads its first page (a header and an overlay) at each density,
 * read off the built app at 1280 px (Chromium); e2e/layout-shift.spec.ts checks the placeholder
 * against the grid that replaces it.
 */
export const EMPTY_GRID_HEIGHT: Record<GridDensity, number> = { compact: 106, standard: 162, comfortable: 208 };

/** Where the grid will be while its code arrives: the empty grid's box, with its spinner. */
function GridPlaceholder() {
  const density = useAppSelector(selectDensity);
  return <ListSpinner sx={{ height: EMPTY_GRID_HEIGHT[density], border: 1, borderColor: 'divider', borderRadius: 1 }} />;
}
