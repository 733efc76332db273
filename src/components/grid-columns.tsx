import Button from '@mui/material/Button';
import type { GridColDef, GridValidRowModel } from '@mui/x-data-grid';
import { formatDateTime } from '../domain/format';

/** The 'Created_at' column of the list screens: the row's createdAt in the service time zone. */
export function createdAtColumn<T extends GridValidRowModel>(headerName = 'Created_at', width = 200): GridColDef<T> {
  return { field: 'createdAt', headerName, width, valueFormatter: (value: string) => formatDateTime(value) };
}

export interface EditColumnOptions<T> {
  /** What the button is for, read out as `Edit ${label(row)}`. */
  label: (row: T) => string;
  onEdit: (row: T) => void;
  disabled?: (row: T) => boolean;
  field?: string;
  headerName?: string;
  width?: number;
  variant?: 'text' | 'outlined' | 'contained';
}

/** The column with a small 'Edit' button per row that opens the screen's edit dialog. */
export function editColumn<T extends GridValidRowModel>({
  label,
  onEdit,
  disabled,
  field = 'edit',
  headerName = 'Edit',
  width = 90,
  variant,
}: EditColumnOptions<T>): GridColDef<T> {
  return {
    field,
    headerName,
    width,
    sortable: false,
    renderCell: ({ row }) => (
      <Button size="small" variant={variant} aria-label={`Edit ${label(row)}`} disabled={disabled?.(row)} onClick={() => onEdit(row)}>
        Edit
      </Button>
    ),
  };
}
