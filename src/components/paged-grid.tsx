import { useMemo } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  DataGrid,
  type GridColDef,
  type GridColumnVisibilityModel,
  type GridRowId,
  type GridValidRowModel,
} from '@mui/x-data-grid';
import { columnVisibilitySet, densitySet, selectColumnVisibility, selectDensity } from '../state/ui-slice';
import { useAppDispatch, useAppSelector } from '../state/hooks';
import { apiPageToGridPage, rowNumber } from '../domain/paged-list';
import { pageCount, showingText, stepPage } from '../domain/grid-paging';

export interface PagedGridProps<R extends GridValidRowModel> {
  columns: GridColDef<R>[];
  rows: R[];
  /** Total entries on the server; keep it stable while loading (usePagedGrid does). */
  rowCount: number;
  loading: boolean;
  /** The API's 1-based page. */
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  /** Defaults to row._id. */
  getRowId?: (row: R) => GridRowId;
  /** Persists column visibility under this key in the ui slice. */
  gridKey?: string;
  /** Header of the row-number column; null hides it. Defaults to '#'. */
  numberHeader?: string | null;
  /** Accessible name of the grid. */
  label?: string;
}

const autoRowHeight = () => 'auto' as const;

const defaultRowId = (row: GridValidRowModel): GridRowId => row._id as GridRowId;

/**
 * The one server-paged list of the product (SPEC §2 and §9): spinner while loading, 'No records'
 * when empty, our own footer 'Showing n out of total entries' with Previous/Next.
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
}: PagedGridProps<R>) {
  const dispatch = useAppDispatch();
  const density = useAppSelector(selectDensity);
  const columnVisibilityModel = useAppSelector((state) => selectColumnVisibility(state, gridKey));
  const pages = pageCount(rowCount, pageSize);

  const allColumns = useMemo<GridColDef<R>[]>(() => {
    if (numberHeader === null) return columns;
    const indexById = new Map(rows.map((row, index) => [getRowId(row), index]));
    const numberColumn: GridColDef<R> = {
      field: '__number',
      headerName: numberHeader,
      width: 44,
      sortable: false,
      filterable: false,
      disableColumnMenu: true,
      valueGetter: (_value, row) => rowNumber(indexById.get(getRowId(row)) ?? 0, page, pageSize),
    };
    return [numberColumn, ...columns];
  }, [columns, rows, getRowId, numberHeader, page, pageSize]);

  const onColumnVisibilityModelChange = (model: GridColumnVisibilityModel) => {
    if (gridKey) dispatch(columnVisibilitySet({ gridKey, model }));
  };

  return (
    <Box>
      <DataGrid<R>
        aria-label={label}
        rows={rows}
        columns={allColumns}
        getRowId={getRowId}
        loading={loading}
        rowCount={rowCount}
        paginationMode="server"
        sortingMode="server"
        paginationModel={{ page: apiPageToGridPage(page), pageSize }}
        pageSizeOptions={[pageSize]}
        density={density}
        onDensityChange={(next) => dispatch(densitySet(next))}
        {...(gridKey ? { columnVisibilityModel: columnVisibilityModel ?? {}, onColumnVisibilityModelChange } : {})}
        localeText={{ noRowsLabel: 'No records' }}
        // A long value wraps and its row grows, rather than being cut to 'RESO…' (issue 11: every column readable at 1280 px).
        getRowHeight={autoRowHeight}
        sx={{ '& .MuiDataGrid-cell': { whiteSpace: 'normal', display: 'flex', alignItems: 'center', py: 0.5, lineHeight: 1.4, overflowWrap: 'anywhere' } }}
        slotProps={{ loadingOverlay: { variant: 'circular-progress', noRowsVariant: 'circular-progress' } }}
        autoHeight
        // Pages are small (at most 100 rows); rendering them all also lets jsdom tests see every row.
        disableVirtualization
        disableRowSelectionOnClick
        disableColumnSorting
        // The API filters through each screen's own fields; the column menu offers only what works.
        disableColumnFilter
        hideFooter
      />
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
