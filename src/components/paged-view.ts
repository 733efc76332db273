import type { GridColDef, GridColumnVisibilityModel, GridRowId, GridValidRowModel } from '@mui/x-data-grid';

/** What PagedGrid hands the view it shows: the DataGrid on wide screens, cards on a phone. */
export interface PagedViewProps<R extends GridValidRowModel> {
  /** The screen's columns, led by the row-number column when there is one. */
  columns: GridColDef<R>[];
  rows: R[];
  rowCount: number;
  loading: boolean;
  page: number;
  pageSize: number;
  getRowId: (row: R) => GridRowId;
  gridKey?: string;
  columnVisibilityModel?: GridColumnVisibilityModel;
  label?: string;
}
