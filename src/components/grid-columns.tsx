import Tooltip from '@mui/material/Tooltip';
import type { GridColDef, GridValidRowModel } from '@mui/x-data-grid';
import { formatDateTime } from '../domain/format';
import { CellButton } from './cell-controls';

/**
 * A formatted date and time ('23 November 2026 10:15 am') that breaks, when its column is narrow,
 * before the time (kept whole), so a grid fits 1280 px without cutting either; in a phone's
 * narrower columns the date breaks too.
 */
export function DateTimeText({ text }: { text: string }) {
  const match = /^(.*) (\d\d:\d\d [ap]m)$/.exec(text);
  if (!match) return <span>{text}</span>;
  return (
    <span>
      {match[1]} <span style={{ whiteSpace: 'nowrap' }}>{match[2]}</span>
    </span>
  );
}

/** Cells of a grid whose rows grow to show wrapped text whole (see PagedGrid's `wrapCells`). */
export const DATE_TIME_MIN_WIDTH = 124;

/** The 'Created_at' column of the list screens: the row's createdAt in the service time zone. */
export function createdAtColumn<T extends GridValidRowModel>(headerName = 'Created_at', width = DATE_TIME_MIN_WIDTH): GridColDef<T> {
  return {
    field: 'createdAt',
    headerName,
    minWidth: width,
    flex: 1,
    valueFormatter: (value: string) => formatDateTime(value),
    renderCell: ({ formattedValue }) => <DateTimeText text={String(formattedValue ?? '')} />,
  };
}

export interface EditColumnOptions<T> {
  /** What the button is for, read out as `Edit ${label(row)}`. */
  label: (row: T) => string;
  onEdit: (row: T) => void;
  /** Why a row cannot be edited (its button is then disabled and says so on hover and focus), or null. */
  disabledReason?: (row: T) => string | null;
  field?: string;
  headerName?: string;
  width?: number;
  variant?: 'text' | 'outlined' | 'contained';
}

/** The column with a small 'Edit' button per row that opens the screen's edit dialog. */
export function editColumn<T extends GridValidRowModel>({
  label,
  onEdit,
  disabledReason,
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
    renderCell: ({ row }) => {
      const reason = disabledReason?.(row);
      const button = (
        <CellButton variant={variant} aria-label={`Edit ${label(row)}`} disabled={Boolean(reason)} onClick={() => onEdit(row)}>
          Edit
        </CellButton>
      );
      return reason ? (
        <Tooltip title={reason} describeChild>
          {button}
        </Tooltip>
      ) : (
        button
      );
    },
  };
}
