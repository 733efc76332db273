import type { GridColDef, GridColumnVisibilityModel, GridRowId, GridValidRowModel } from '@mui/x-data-grid';

/**
 * A row as either view draws it: the DataGrid's row, a card. PagedGrid hides its pagination until
 * one is drawn; the browser tests find a list's rows by it.
 */
export const DRAWN_ROW_SELECTOR = '[role="row"][data-id], li[data-id]';

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
}
