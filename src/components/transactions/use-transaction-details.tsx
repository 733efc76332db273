import { useCallback, useMemo, useState } from 'react';
import InfoOutlined from '@mui/icons-material/InfoOutlined';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
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
      // Icons named by their tooltips and labels, so the lists keep every column in view at 1280 px.
      width: canResend ? 96 : 72,
      sortable: false,
      renderCell: ({ row }) => (
        <Stack direction="row" spacing={0.5} sx={{ height: '100%', alignItems: 'center' }}>
          <Tooltip title="Details">
            <IconButton size="small" color="primary" onClick={() => setShown(row)} aria-label={`Details of the call from ${row.phoneNumber}`}>
              <InfoOutlined fontSize="small" />
            </IconButton>
          </Tooltip>
          {canResend && canResendTicket(row) && <ResendTicketButton compact transactionId={row._id} onResent={(next) => setShown((open) => (open?._id === next._id ? next : open))} />}
        </Stack>
      ),
    };
    return [...columns, details];
  }, [columns, canResend]);

  const drawer = <TransactionDetailsDrawer transaction={shown} onClose={close} canResend={canResend} onResent={setShown} />;
  return { columns: withDetails, drawer };
}
