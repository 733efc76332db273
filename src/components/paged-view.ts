import type { GridColDef, GridColumnVisibilityModel, GridRowId, GridValidRowModel } from '@mui/x-data-grid';

/**
 * A row as either view draws it: the DataGrid's row, a card. PagedGrid hides its pagination until
 * one is drawn; the browser tests find a list's rows by it.
 */
export const DRAWN_ROW_SELECTOR = '[role="row"][data-id], li[data-id]';

/** The DataGrid's rows in Compact density, as the other dense grids (issue 24: 20 calls on a 900 px screen). */
export const COMPACT_ROW_HEIGHT = 28;

/** The field of PagedGrid's row-number column ('#'). */
export const ROW_NUMBER_FIELD = '__number';

/**
 * How a phone card lays a row out when it is given one (the calls' lists): the `title` column's
 * value first, bold, with the `aside` columns (a status, buttons) at the end of that line, their
 * headers left to screen readers; the other columns follow as 'header value' pairs that flow
 * several to a line. Without one, a card is one 'header: value' line per column.
 */
export interface CardLayout {
  title: string;
  aside: readonly string[];
}

/** What PagedGrid hands the view it shows: the DataGrid on wide screens, cards on a phone. */
export interface PagedViewProps<R extends GridValidRowModel> {
  /** The screen's columns (in a view, led by the row-number column when there is one). */
  columns: GridColDef<R>[];
  rows: R[];
  /** Total entries on the server; keep it stable while loading (usePagedGrid does). */
  rowCount: number;
  loading: boolean;
  /** The API's 1-based page. */
  page: number;
  pageSize: number;
  getRowId: (row: R) => GridRowId;
  /** Persists column visibility under this key in the ui slice. */
  gridKey?: string;
  columnVisibilityModel?: GridColumnVisibilityModel;
  /** Accessible name of the list. */
  label?: string;
  /** The phone card's layout; the grid ignores it. */
  card?: CardLayout;
}
