import { useMemo } from 'react';
import type { GridColDef } from '@mui/x-data-grid';
import type { Transaction } from '../../domain/entities';
import { formatDateTime } from '../../domain/format';
import { categoryName } from '../../domain/transaction-csv';
import { DATE_TIME_MIN_WIDTH, DateTimeText } from '../grid-columns';
import { CopyTicketButton, ResolveButton, ResolvedCell, StatusChip } from './transaction-cells';

export type TransactionListKind = 'transactions' | 'failed' | 'search';

/** What a row is about: a category on the regular lists, the voted team on the campaign ones. */
export type TransactionSubject = 'category' | 'team';

export interface TransactionColumnOptions {
  subject?: TransactionSubject;
  onResolve?: (id: string) => void;
}

/** A campaign vote's team; a game reads 'teamName2 vs teamName' as on the ranking's votes (SPEC §2). */
export function teamText(t: Pick<Transaction, 'teamName' | 'teamName2'>): string {
  const team = t.teamName ?? '';
  return t.teamName2 ? `${t.teamName2} vs ${team}` : team;
}

const noResolve = () => undefined;

type Column = GridColDef<Transaction>;
const text = (field: string, headerName: string, valueGetter: (row: Transaction) => string, flex = 1, minWidth = 100): Column => ({
  field,
  headerName,
  flex,
  minWidth,
  sortable: false,
  valueGetter: (_value, row) => valueGetter(row),
});
/** A time column that breaks between date and time when narrow, so the lists fit 1280 px. */
const time = (field: string, headerName: string, valueGetter: (row: Transaction) => string): Column => ({
  ...text(field, headerName, valueGetter, 1.2, DATE_TIME_MIN_WIDTH),
  renderCell: ({ value }) => <DateTimeText text={String(value ?? '')} />,
});

/**
 * The columns of the transaction lists (SPEC §2), regular and campaign, one builder so that they
 * cannot drift: transactions and failed end with Resolved and Action, search has Copy and Message.
 * With `subject: 'team'` the lists show Team where the regular ones show Category, and the
 * campaign transactions list is Date/Time, Service code, From, Team, Status, Network.
 */
export function useTransactionColumns(
  kind: TransactionListKind,
  { subject = 'category', onResolve = noResolve }: TransactionColumnOptions = {},
): Column[] {
  return useMemo(() => {
    const search = kind === 'search';
    const campaign = subject === 'team';
    const callTime = time('createdAt', search ? 'Call time' : 'Call Time', (t) => formatDateTime(t.createdAt));
    const responseTime = time('callbackTime', search ? 'Response time' : 'Response Time', (t) => formatDateTime(t.callbackTime));
    const code = text('name', 'Service code', (t) => t.name, 1, 96);
    const from = text('phoneNumber', 'From', (t) => t.phoneNumber, 1, 110);
    // A game ('Saudi Arabia vs Argentina') wraps onto two lines rather than being cut.
    const category = campaign ? text('teamName', 'Team', teamText, 1.2, 104) : text('category', 'Category', categoryName, 1, 96);
    const status: Column = { field: 'status', headerName: 'Status', width: 95, sortable: false, renderCell: ({ row }) => <StatusChip transaction={row} /> };
    const network = text('network', 'Network', (t) => t.network, 0.6, 72);
    if (search) {
      const copy: Column = { field: 'copy', headerName: 'Copy', width: 84, sortable: false, renderCell: ({ row }) => <CopyTicketButton message={row.ticket?.message} /> };
      const message = text('messageStatuses', 'Message', (t) => t.messageStatuses ?? '', 1, 84);
      return [callTime, responseTime, code, from, copy, category, status, message, network];
    }
    if (campaign && kind === 'transactions') return [time('createdAt', 'Date/Time', (t) => formatDateTime(t.createdAt)), code, from, category, status, network];
    const resolved: Column = {
      ...text('isResolved', 'Resolved', (t) => (t.isResolved ? 'Yes' : 'No'), 0.5, 80),
      renderCell: ({ row }) => <ResolvedCell transaction={row} />,
    };
    const action: Column = {
      field: 'action',
      headerName: 'Action',
      width: 105,
      sortable: false,
      renderCell: ({ row }) => <ResolveButton transaction={row} onResolve={onResolve} />,
    };
    // SPEC §2: the regular failed list has no Category; the campaign one shows Team.
    const middle = kind === 'failed' && !campaign ? [code, from] : [code, from, category];
    return [callTime, responseTime, ...middle, status, network, resolved, action];
  }, [kind, subject, onResolve]);
}
