import { useMemo } from 'react';
import type { GridColDef } from '@mui/x-data-grid';
import type { Transaction } from '../../domain/entities';
import { formatDateTime } from '../../domain/format';
import { categoryName } from '../../domain/transaction-columns';
import { isResolvedRow } from '../../domain/transaction-status';
import { CopyTicketButton, ResolveButton, StatusChip } from './transaction-cells';

export type TransactionListKind = 'transactions' | 'failed' | 'search';

type Column = GridColDef<Transaction>;
const text = (field: string, headerName: string, valueGetter: (row: Transaction) => string, flex = 1, minWidth = 110): Column => ({
  field,
  headerName,
  flex,
  minWidth,
  sortable: false,
  valueGetter: (_value, row) => valueGetter(row),
});

/**
 * The columns of the three transaction lists (SPEC §2), one builder so that they cannot drift:
 * transactions and failed end with Resolved and Action, search has Copy and Message.
 */
export function useTransactionColumns(kind: TransactionListKind, resolvedIds: readonly string[], onResolve: (id: string) => void): Column[] {
  return useMemo(() => {
    const search = kind === 'search';
    const callTime = text('createdAt', search ? 'Call time' : 'Call Time', (t) => formatDateTime(t.createdAt), 1.4, 200);
    const responseTime = text('callbackTime', search ? 'Response time' : 'Response Time', (t) => formatDateTime(t.callbackTime), 1.4, 200);
    const code = text('name', 'Service code', (t) => t.name);
    const from = text('phoneNumber', 'From', (t) => t.phoneNumber);
    const category = text('category', 'Category', categoryName);
    const status: Column = { field: 'status', headerName: 'Status', width: 110, sortable: false, renderCell: ({ row }) => <StatusChip transaction={row} /> };
    const network = text('network', 'Network', (t) => t.network, 0.8);
    if (search) {
      const copy: Column = { field: 'copy', headerName: 'Copy', width: 100, sortable: false, renderCell: ({ row }) => <CopyTicketButton message={row.ticket?.message} /> };
      const message = text('messageStatuses', 'Message', (t) => t.messageStatuses ?? '');
      return [callTime, responseTime, code, from, copy, category, status, message, network];
    }
    const resolved = text('isResolved', 'Resolved', (t) => (isResolvedRow(t, resolvedIds) ? 'Yes' : 'No'), 0.7);
    const action: Column = {
      field: 'action',
      headerName: 'Action',
      width: 120,
      sortable: false,
      renderCell: ({ row }) => <ResolveButton resolved={isResolvedRow(row, resolvedIds)} onResolve={() => onResolve(row._id)} />,
    };
    const middle = kind === 'failed' ? [code, from] : [code, from, category];
    return [callTime, responseTime, ...middle, status, network, resolved, action];
  }, [kind, resolvedIds, onResolve]);
}
