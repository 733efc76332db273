import { useCallback, useMemo, useState } from 'react';
import type { GridColDef } from '@mui/x-data-grid';
import type { Transaction } from '../../domain/entities';
import { canResendTicket } from '../../domain/transaction-events';
import { mayResendTickets } from '../../domain/transaction-timeline';
import { useAppSelector } from '../../state/hooks';
import { selectSessionUser } from '../../state/session-slice';
import { CellIconButton, InfoOutlinedGlyph } from '../cell-controls';
import { ResendTicketButton } from './resend-ticket-button';
import { TransactionDetailsDrawer } from './transaction-details-drawer';

// No height of its own: a height of 100% kept an auto-height row at the height it first measured.
const CELL_ROW = { display: 'flex', gap: 4, alignItems: 'center' } as const;

/**
 * 'Details' on every row of a transaction list, and 'Resend ticket' on the rows whose
 * ticket SMS failed for those who may resend: puts them in the list's Action column, or a Details
 * column of their own, and answers the drawer the screen renders beside its grid.
 */
export function useTransactionDetails(columns: GridColDef<Transaction>[]) {
  const canResend = mayResendTickets(useAppSelector(selectSessionUser));
  const [shown, setShown] = useState<Transaction | null>(null);
  const close = useCallback(() => setShown(null), []);

  const withDetails = useMemo<GridColDef<Transaction>[]>(() => {
    const detailButtons = (row: Transaction) => (
      <>
        <CellIconButton title="Details" onClick={() => setShown(row)} aria-label={`Details of the call from ${row.phoneNumber}`}>
          <InfoOutlinedGlyph />
        </CellIconButton>
        {canResend && canResendTicket(row) && <ResendTicketButton compact transactionId={row._id} onResent={(next) => setShown((open) => (open?._id === next._id ? next : open))} />}
      </>
    );
    const iconsWidth = canResend ? 60 : 32;
    // Beside Resolve in the Action column where a list has one, so every column fits 1280 px;
    // a list without Action gets a Details column of its own.
    const action = columns.find((column) => column.field === 'action');
    if (action?.renderCell) {
      const renderAction = action.renderCell;
      const merged: GridColDef<Transaction> = {
        ...action,
        width: (action.width ?? 100) + iconsWidth,
        renderCell: (params) => (
          <div style={CELL_ROW}>
            {renderAction(params)}
            {detailButtons(params.row)}
          </div>
        ),
      };
      return columns.map((column) => (column === action ? merged : column));
    }
    const details: GridColDef<Transaction> = {
      field: 'details',
      headerName: 'Details',
      // Room for the icons, and for the header's word.
      width: Math.max(iconsWidth + 20, 76),
      sortable: false,
      renderCell: ({ row }) => <div style={CELL_ROW}>{detailButtons(row)}</div>,
    };
    return [...columns, details];
  }, [columns, canResend]);

  const drawer = <TransactionDetailsDrawer transaction={shown} onClose={close} canResend={canResend} onResent={setShown} />;
  // `showDetails` opens the drawer without a click: the Failed queue's 'o' and Enter.
  return { columns: withDetails, drawer, showDetails: setShown as (row: Transaction) => void };
}
