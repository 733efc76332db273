import Box from '@mui/material/Box';
import { alpha, type Theme } from '@mui/material/styles';
import {
  DataGrid,
  GridRow,
  type GridColumnVisibilityModel,
  type GridRowClassNameParams,
  type GridRowId,
  type GridRowProps,
  type GridRowSelectionModel,
  type GridValidRowModel,
} from '@mui/x-data-grid';
import { columnVisibilitySet, densitySet, selectDensity } from '../state/ui-slice';
import { useAppDispatch, useAppSelector } from '../state/hooks';
import { apiPageToGridPage } from '../domain/paged-list';
import { ListSpinner } from './list-spinner';
import { COMPACT_ROW_HEIGHT, FOCUSED_ROW_CLASS, type PagedViewProps, type RowSelection } from './paged-view';

const autoRowHeight = () => 'auto' as const;
const compactRowEstimate = () => COMPACT_ROW_HEIGHT;
/** The header's height before the density factor (0.7): 32 px in Compact. */
const COMPACT_HEADER_HEIGHT = 46;

/**
 * Cells: a long value wraps and its row grows, rather than being cut to 'RESO…', so every column
 * reads at 1280 px. In Compact a row of one-line cells is 28 px, its controls shrunk to fit; the
 * columns are sized so that at 1440 px no cell of the calls' lists wraps.
 */
const CELLS = {
  '& .MuiDataGrid-cell': { display: 'flex', alignItems: 'center', whiteSpace: 'normal', py: 0.5, lineHeight: 1.4, overflowWrap: 'anywhere' },
  // A button's word is never broken ('TICKE/T').
  '& .cell-button': { whiteSpace: 'nowrap', overflowWrap: 'normal' },
  // The keyboard's row (the Failed queue): a bar and an outline in the primary colour, on a tint
  // that stays apart from a selected row's, readable in both colour modes.
  [`& .${FOCUSED_ROW_CLASS}`]: {
    outline: '2px solid',
    outlineColor: 'primary.main',
    outlineOffset: '-2px',
    boxShadow: (theme: Theme) => `inset 6px 0 0 ${theme.palette.primary.main}`,
    bgcolor: (theme: Theme) => alpha(theme.palette.primary.main, theme.palette.mode === 'dark' ? 0.2 : 0.1),
  },
  '&.MuiDataGrid-root--densityCompact': {
    '& .MuiDataGrid-cell': { py: 0, minHeight: COMPACT_ROW_HEIGHT, lineHeight: '20px' },
    '& .cell-button': { py: 0, lineHeight: '20px' },
    '& .cell-icon-button': { p: 0.25 },
    '& .cell-chip': { height: 20 },
    // The selection's checkboxes fit the 28 px row, as the other controls do.
    '& .MuiDataGrid-cellCheckbox .MuiCheckbox-root, & .MuiDataGrid-columnHeaderCheckbox .MuiCheckbox-root': { p: 0.25 },
    '& .MuiDataGrid-cellCheckbox .MuiSvgIcon-root, & .MuiDataGrid-columnHeaderCheckbox .MuiSvgIcon-root': { fontSize: 20 },
  },
} as const;

/**
 * The grid's spinner while a page loads. Hidden from assistive technology, which hears aria-busy
 * on the grid's box instead (the grid drops it): a progressbar inside a grid is a child the grid role does not allow, and
 * MUI's own overlay has no name (axe: aria-required-children, aria-progressbar-name).
 */
function LoadingOverlay() {
  return <ListSpinner hidden sx={{ height: '100%' }} />;
}

/** A grid row that says it is the keyboard's row (aria-current), which the class alone cannot. */
function MarkedRow({ focusedRowId, ...props }: GridRowProps & { focusedRowId?: GridRowId | null }) {
  return <GridRow {...props} aria-current={focusedRowId !== undefined && focusedRowId !== null && props.rowId === focusedRowId ? 'true' : undefined} />;
}

/** The grid's model as the selected rows' ids: 'all but' (the header's checkbox) is turned into the rows it means. */
function selectedIds<R extends GridValidRowModel>(model: GridRowSelectionModel, rows: R[], getRowId: (row: R) => GridRowId, selection: RowSelection<R>): GridRowId[] {
  const selectable = rows.filter(selection.isSelectable).map(getRowId);
  return model.type === 'include' ? selectable.filter((id) => model.ids.has(id)) : selectable.filter((id) => !model.ids.has(id));
}

/**
 * PagedGrid's desktop view: MUI's DataGrid, server-paged, its own footer hidden (PagedGrid draws
 * 'Showing n out of total entries'). A module of its own, loaded only where it is shown: a phone
 * gets the cards (paged-cards.tsx) and never downloads the grid.
 */
export default function PagedDataGrid<R extends GridValidRowModel>(view: PagedViewProps<R>) {
  const { columns, rows, rowCount, loading, page, pageSize, getRowId, gridKey, columnVisibilityModel, label, focusedRowId, selection } = view;
  const dispatch = useAppDispatch();
  const density = useAppSelector(selectDensity);
  const onColumnVisibilityModelChange = (model: GridColumnVisibilityModel) => {
    if (gridKey) dispatch(columnVisibilitySet({ gridKey, model }));
  };
  const focusable = focusedRowId !== undefined;
  const rowClassName = (params: GridRowClassNameParams<R>) => (params.id === focusedRowId ? FOCUSED_ROW_CLASS : '');
  const selecting = selection
    ? {
        checkboxSelection: true,
        // A little narrower than MUI's 50 px: with it the campaign Failed lists still fit at 1280 px, Action
        // included (each of their columns is at its minimum there).
        checkboxColDef: { width: 42, minWidth: 42 },
        rowSelectionModel: { type: 'include', ids: new Set(selection.ids) } satisfies GridRowSelectionModel,
        onRowSelectionModelChange: (model: GridRowSelectionModel) => selection.onChange(selectedIds(model, rows, getRowId, selection)),
        isRowSelectable: ({ row }: { row: R }) => selection.isSelectable(row),
      }
    : {};
  return (
    <Box aria-busy={loading}>
      <DataGrid<R>
        aria-label={label}
        rows={rows}
        columns={columns}
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
        getRowHeight={autoRowHeight}
        {...(density === 'compact' ? { getEstimatedRowHeight: compactRowEstimate, columnHeaderHeight: COMPACT_HEADER_HEIGHT } : {})}
        sx={CELLS}
        slots={{ loadingOverlay: LoadingOverlay, ...(focusable ? { row: MarkedRow } : {}) }}
        {...(focusable ? { getRowClassName: rowClassName, slotProps: { row: { focusedRowId } as Partial<GridRowProps> } } : {})}
        {...selecting}
        autoHeight
        // Pages are small (at most 100 rows); rendering them all also lets jsdom tests see every row.
        disableVirtualization
        disableRowSelectionOnClick
        disableColumnSorting
        // The API filters through each screen's own fields; the column menu offers only what works.
        disableColumnFilter
        hideFooter
      />
    </Box>
  );
}
