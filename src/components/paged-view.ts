import type { GridColDef, GridColumnVisibilityModel, GridRowId, GridValidRowModel } from '@mui/x-data-grid';

/**
 * A row as either view draws it: the DataGrid's row, a card. PagedGrid hides its pagination until
 * one is drawn; the browser tests find a list's rows by it.
 */
export const DRAWN_ROW_SELECTOR = '[role="row"][data-id], li[data-id]';

/** The DataGrid's rows in Compact density, as the other dense grids: 20 calls on a 900 px screen. */
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

/**
 * Checkbox selection of some of a page's rows (the Failed queue's Resolve selected). The ids are
 * the selected rows' own, never a 'select all but' model; a row that is not selectable shows no
 * checkbox on a card and a disabled one in the grid.
 */
export interface RowSelection<R extends GridValidRowModel> {
  ids: readonly GridRowId[];
  onChange: (ids: GridRowId[]) => void;
  isSelectable: (row: R) => boolean;
  /** A card's checkbox name, e.g. 'Select the call from 256…'. */
  label: (row: R) => string;
}

/** The class of the row the keyboard is on (a card's or a grid row's), which also carries aria-current. */
export const FOCUSED_ROW_CLASS = 'row-keyboard-focus';

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
  /** The row the keyboard is on: outlined and marked aria-current (the Failed queue's j/k). */
  focusedRowId?: GridRowId | null;
  selection?: RowSelection<R>;
}
