import { useMemo } from 'react';
import Tooltip from '@mui/material/Tooltip';
import type { GridColDef } from '@mui/x-data-grid';
import { CellButton, CellIconButton, InfoOutlinedGlyph } from '../../components/cell-controls';
import { DATE_TIME_MIN_WIDTH, DateTimeText } from '../../components/grid-columns';
import { StatusChip } from '../../components/transactions/transaction-cells';
import { formatDateTime, formatMoney } from '../../domain/format';
import { canIssueTicket, canMarkReviewed, canRefundRow, RECONCILIATION_ACTION_LABELS, type ReconciliationRow } from '../../domain/reconciliation';
import { REFUND_STATE_LABELS } from '../../domain/refunds';

type Column = GridColDef<ReconciliationRow>;

export interface StatementRowActions {
  /** False on a voided statement: its rows show what was done, and nothing more is offered. */
  canAct: boolean;
  onIssueTicket: (row: ReconciliationRow) => void;
  /** Set for those who may request refunds: 'Refund' beside 'Issue ticket'. */
  onRefund?: (row: ReconciliationRow) => void;
  onReview: (row: ReconciliationRow) => void;
  onDetails: (row: ReconciliationRow) => void;
}

const text = (field: string, headerName: string, value: (row: ReconciliationRow) => string, flex = 1, minWidth = 90): Column => ({
  field,
  headerName,
  flex,
  minWidth,
  sortable: false,
  valueGetter: (_value, row) => value(row),
});

const money = (amount: number | null | undefined, currency?: string | null) => (amount === null || amount === undefined ? '' : `${currency ?? 'UGX'} ${formatMoney(amount)}`);

/** What was done about a row, by whom, and the review's note on the row itself (whole on hover, and read out). */
function ActionDone({ row }: { row: ReconciliationRow }) {
  if (!row.action) return null;
  const text = `${RECONCILIATION_ACTION_LABELS[row.action]}${row.actionBy ? ` · ${row.actionBy.userName}` : ''}`;
  const when = row.actionAt ? formatDateTime(row.actionAt) : '';
  const title = [row.note, when].filter(Boolean).join(' — ');
  return (
    <Tooltip title={title} describeChild>
      <span style={{ minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
        {text}
        {row.note ? `: ${row.note}` : ''}
      </span>
    </Tooltip>
  );
}

/**
 * A statement's rows: the provider's line beside the call as it is now, and the row's action
 * ('Issue ticket' and 'Refund' on a paid-no-ticket row, 'Mark reviewed' on every other exception) or what was
 * done, with the reviewer and the note.
 */
export function useStatementColumns({ canAct, onIssueTicket, onRefund, onReview, onDetails }: StatementRowActions): Column[] {
  return useMemo(
    () => [
      // A paid call the statement has no line for: its Statement cell says 'No line'.
      { ...text('line', 'Line', (row) => (row.line === null ? '—' : String(row.line)), 0.4, 56) },
      text('type', 'Type', (row) => (row.type === 'REFUND' ? 'Refund' : 'Payment'), 0.6, 80),
      text('reference', 'Reference', (row) => row.reference, 1.4, 120),
      text('amount', 'Amount', (row) => money(row.amount, row.currency), 0.8, 96),
      text('status', 'Statement', (row) => row.status ?? 'No line', 0.8, 96),
      {
        ...text('completedAt', 'Completed at', (row) => (row.completedAt ? formatDateTime(row.completedAt) : ''), 1.1, DATE_TIME_MIN_WIDTH),
        renderCell: ({ value }) => <DateTimeText text={String(value ?? '')} />,
      },
      {
        ...text('call', 'Call', (row) => (row.transaction ? '' : 'No call'), 0.7, 88),
        renderCell: ({ row }) => (row.transaction ? <StatusChip transaction={row.transaction} /> : 'No call'),
      },
      text('phoneNumber', 'From', (row) => row.transaction?.phoneNumber ?? '', 1, 110),
      text('callAmount', 'Price', (row) => money(row.transaction?.amount), 0.8, 90),
      // A REFUND row's refund, or the refund of a paid row's call: its state and amount as they are now.
      text('refund', 'Refund', (row) => (row.refund ? `${REFUND_STATE_LABELS[row.refund.state]} · ${money(row.refund.amount)}` : ''), 1, 110),
      {
        field: 'action',
        headerName: 'Action',
        minWidth: 260,
        flex: 1.3,
        sortable: false,
        renderCell: ({ row }) => (
          <div style={{ display: 'flex', gap: 4, height: '100%', alignItems: 'center', minWidth: 0 }}>
            {canAct && canIssueTicket(row) && (
              <CellButton variant="contained" color="warning" onClick={() => onIssueTicket(row)}>
                Issue ticket
              </CellButton>
            )}
            {canAct && onRefund && canRefundRow(row) && (
              <CellButton variant="outlined" onClick={() => onRefund(row)} aria-label={`Refund the call of reference ${row.reference}`}>
                Refund
              </CellButton>
            )}
            {/* A paid-no-ticket row offers its ticket here; it is reviewed by selecting it. */}
            {canAct && canMarkReviewed(row) && !canIssueTicket(row) && (
              <CellButton variant="outlined" onClick={() => onReview(row)}>
                Mark reviewed
              </CellButton>
            )}
            <ActionDone row={row} />
            {row.transaction && (
              <CellIconButton onClick={() => onDetails(row)} aria-label={`Details of the call of reference ${row.reference}`} title="Details">
                <InfoOutlinedGlyph />
              </CellIconButton>
            )}
          </div>
        ),
      },
    ],
    [canAct, onIssueTicket, onRefund, onReview, onDetails],
  );
}
