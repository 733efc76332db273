import { useCallback, useMemo, useState } from 'react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import type { GridColDef } from '@mui/x-data-grid';
import type { Transaction } from '../../domain/entities';
import { canResendTicket } from '../../domain/transaction-events';
import { mayResendTickets } from '../../domain/transaction-timeline';
import { useAppSelector } from '../../state/hooks';
import { selectSessionUser } from '../../state/session-slice';
import { ResendTicketButton } from './resend-ticket-button';
import { TransactionDetailsDrawer } from './transaction-details-drawer';

/**
 * 'Details' on every row of a transaction list (issue 10), and 'Resend ticket' on the rows whose
 * ticket SMS failed for those who may resend: adds the column to a list's columns and answers the
 * drawer the screen renders beside its grid.
 */
export function useTransactionDetails(columns: GridColDef<Transaction>[]) {
  const canResend = mayResendTickets(useAppSelector(selectSessionUser));
  const [shown, setShown] = useState<Transaction | null>(null);
  const close = useCallback(() => setShown(null), []);

  const withDetails = useMemo<GridColDef<Transaction>[]>(() => {
    const details: GridColDef<Transaction> = {
      field: 'details',
      headerName: 'Details',
      width: canResend ? 230 : 100,
      sortable: false,
      renderCell: ({ row }) => (
        <Stack direction="row" spacing={1} sx={{ height: '100%', alignItems: 'center' }}>
          <Button size="small" variant="outlined" onClick={() => setShown(row)} aria-label={`Details of the call from ${row.phoneNumber}`}>
            Details
          </Button>
          {canResend && canResendTicket(row) && <ResendTicketButton transactionId={row._id} onResent={(next) => setShown((open) => (open?._id === next._id ? next : open))} />}
        </Stack>
      ),
    };
    return [...columns, details];
  }, [columns, canResend]);

  const drawer = <TransactionDetailsDrawer transaction={shown} onClose={close} canResend={canResend} onResent={setShown} />;
  return { columns: withDetails, drawer };
}
