import { useMemo } from 'react';
import Box from '@mui/material/Box';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { GridColDef } from '@mui/x-data-grid';
import { votePick } from '../../domain/campaigns';
import type { Transaction } from '../../domain/entities';
import { PHONE_QUERY } from '../../domain/first-visit';
import { formatDateTime, formatTimeOnDay, todayInServiceZone } from '../../domain/format';
import { categoryName } from '../../domain/transaction-csv';
import { shortMessageStatus } from '../../domain/transaction-events';
import { transactionStatus } from '../../domain/transaction-status';
import { amountColumn } from '../amount-cell';
import { DATE_TIME_MIN_WIDTH, DateTimeText } from '../grid-columns';
import type { CardLayout } from '../paged-view';
import { useAppSelector } from '../../state/hooks';
import { selectSessionUser } from '../../state/session-slice';
import { RefundCellButton } from './refund-dialog';
import { CopyTicketButton, ResolveButton, ResolvedCell, StatusChip } from './transaction-cells';
import { CustomerLink } from './customer-link';
import { VoteText, voteContext } from './vote-text';

export type TransactionListKind = 'transactions' | 'failed' | 'search';

/** What a row is about: a category on the regular lists, the voted team on the campaign ones. */
export type TransactionSubject = 'category' | 'team';

export interface TransactionColumnOptions {
  subject?: TransactionSubject;
  /** The one day the list shows (its heading names it): its times show the time alone. */
  day?: string;
  /** A row's Resolve button, which resolves at once (SPEC §4). */
  onResolve?: (request: { id: string }) => void;
  /** A processed row's Refund button opens the list's dialog; without it no row offers one. */
  onRefund?: (call: Transaction) => void;
}

/** A call's phone card (about 120 px high): who called, then its status and buttons. */
export const TRANSACTION_CARD: CardLayout = { title: 'phoneNumber', aside: ['status', 'copy', 'action', 'details'] };

const noResolve = () => undefined;

/**
 * Screens wide enough for the regular lists' lower-value columns beside Amount: below them
 * Transactions leaves out Network (the number's prefix says it, Details names it) and Search
 * leaves out Network and Response time, so that every list fits 1280 px without scrolling
 * sideways and Search's dates stay on one line at 1440 px. A phone's cards show them all.
 */
export const NETWORK_ROOM_QUERY = '(min-width:1400px)';
export const SEARCH_ROOM_QUERY = '(min-width:1600px)';

type Column = GridColDef<Transaction>;

/**
 * A column's width: `width` for values of one size (a time, a code, a phone number), or a share
 * of the room left (`flex`) never under `min` for those that vary (a date, a category, a game).
 * At 1440 px the shares hold every value on one line (Compact); the mins make the lists
 * fit 1280 px, where a date or a game may take two lines. The one-size columns take a
 * tenth of a share per 100 px, so that a list without a varying column still fills its width.
 */
type Width = { width: number } | { flex: number; min: number };
const sized = (width: Width) => ('width' in width ? { flex: width.width / 1000, minWidth: width.width } : { flex: width.flex, minWidth: width.min });

const text = (field: string, headerName: string, valueGetter: (row: Transaction) => string, width: Width): Column => ({
  field,
  headerName,
  ...sized(width),
  sortable: false,
  valueGetter: (_value, row) => valueGetter(row),
});
const dateTimeCell: Column['renderCell'] = ({ value }) => <DateTimeText text={String(value ?? '')} />;
/** A date-and-time column ('25 November 2026 06:33 am'), which breaks before the time when narrow. */
const dateTime = (field: string, headerName: string, valueGetter: (row: Transaction) => string): Column => ({
  ...text(field, headerName, valueGetter, { flex: 2, min: DATE_TIME_MIN_WIDTH }),
  renderCell: dateTimeCell,
});
/**
 * A column of times of one day ('06:33 am'), as wide as its header. A reply after midnight
 * ('27 Nov 12:13 am') stays on one line, its end cut short if it must, whole in the title: a dense
 * row stays one line, and the list still fits 1280 px.
 */
const timeOfDay = (field: string, headerName: string, valueGetter: (row: Transaction) => string): Column => ({
  ...text(field, headerName, valueGetter, { width: headerName.length > 10 ? 108 : 86 }),
  renderCell: ({ value }) => (
    <Box component="span" title={String(value ?? '')} sx={{ whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}>
      {String(value ?? '')}
    </Box>
  ),
});

/** The day a call was made, in the service zone. */
const dayOf = (t: Transaction) => todayInServiceZone(new Date(t.createdAt));

/**
 * Category, or a vote's pick with, muted beside it, its game on the campaign's own lists and its
 * campaign on the others. Header 'Team' on the campaign lists, 'Category or Team' on
 * the search (SPEC §2).
 */
function subjectColumn(kind: TransactionListKind, campaign: boolean, minWidth?: number): Column {
  const headerName = campaign ? 'Team' : kind === 'search' ? 'Category or Team' : 'Category';
  const withCampaign = !campaign;
  const width = { flex: 1.8, min: minWidth ?? (campaign ? 120 : 124) };
  return {
    ...text(campaign ? 'teamName' : 'category', headerName, (t) => {
      const vote = votePick(t);
      return vote ? [vote.pick, voteContext(vote, withCampaign)].filter(Boolean).join(' ') : categoryName(t);
    }, width),
    renderCell: ({ row, value }) => {
      const vote = votePick(row);
      return vote ? <VoteText vote={vote} withCampaign={withCampaign} /> : String(value ?? '');
    },
  };
}

/**
 * The columns of the transaction lists (SPEC §2), regular and campaign, one builder so that they
 * cannot drift: transactions and failed end with Resolved and Action, search has Copy and Message.
 * With `subject: 'team'` the lists show Team where the regular ones show Category, and the
 * campaign transactions list is Date/Time, Service code, From, Team, Status, Network. A list of
 * one day shows its times alone; the search shows a reply's time alone when it came the call's day.
 */
export function useTransactionColumns(
  kind: TransactionListKind,
  { subject = 'category', day, onResolve = noResolve, onRefund }: TransactionColumnOptions = {},
): Column[] {
  // The customer page reads every code in the person's scope; the Afcon-only account has none.
  const user = useAppSelector(selectSessionUser);
  const linkCustomers = Boolean(user && !user.isAfcon);
  const phone = useMediaQuery(PHONE_QUERY, { noSsr: true });
  const networkRoom = useMediaQuery(NETWORK_ROOM_QUERY, { noSsr: true }) || phone;
  const searchRoom = useMediaQuery(SEARCH_ROOM_QUERY, { noSsr: true }) || phone;
  return useMemo(() => {
    const search = kind === 'search';
    const campaign = subject === 'team';
    const time = day ? timeOfDay : dateTime;
    const timeText = (iso: string | null | undefined) => (day ? formatTimeOnDay(iso, day) : formatDateTime(iso));
    const callTime = time('createdAt', search ? 'Call time' : 'Call Time', (t) => timeText(t.createdAt));
    // Over many days a reply shows its time alone when it came the call's day, as the search does:
    // a whole date twice in a row leaves no room for Amount at 1280 px.
    const responseTime = search
      ? timeOfDay('callbackTime', 'Response time', (t) => formatTimeOnDay(t.callbackTime, dayOf(t)))
      : day
        ? time('callbackTime', 'Response Time', (t) => timeText(t.callbackTime))
        : timeOfDay('callbackTime', 'Response Time', (t) => formatTimeOnDay(t.callbackTime, dayOf(t)));
    const code = text('name', 'Service code', (t) => t.name, { width: 96 });
    const from: Column = {
      ...text('phoneNumber', 'From', (t) => t.phoneNumber, { width: 110 }),
      ...(linkCustomers ? { renderCell: ({ row }) => <CustomerLink phoneNumber={row.phoneNumber} /> } : {}),
    };
    // Over many days the dates may wrap the rows anyway, so a category may too: Amount keeps its room at 1280 px.
    const category = subjectColumn(kind, campaign, day ? undefined : 116);
    const status: Column = { field: 'status', headerName: 'Status', width: 95, sortable: false, renderCell: ({ row }) => <StatusChip transaction={row} /> };
    const network = text('network', 'Network', (t) => t.network, { width: 68 });
    // The amount and, one click away, the payment reference: one narrow column for both, on the
    // regular lists (the campaign ones keep SPEC §2's columns).
    const money = campaign ? [] : [amountColumn<Transaction>()];
    // A failed call is resolved, a processed one refunded: one column serves both, so the grid stays as wide.
    const refundOrResolve = (row: Transaction) =>
      onRefund && transactionStatus(row) === 'processed' ? <RefundCellButton transaction={row} onRefund={onRefund} /> : <ResolveButton transaction={row} onResolve={onResolve} />;
    if (search) {
      // As wide as its button's longer word, 'Copied', on one line: a broken 'TICKE/T' doubles the row's height.
      const copy: Column = { field: 'copy', headerName: 'Copy', width: 92, sortable: false, renderCell: ({ row }) => <CopyTicketButton message={row.ticket?.message} /> };
      const message: Column = {
        ...text('messageStatuses', 'Message', (t) => t.messageStatuses ?? '', { flex: 1.1, min: 72 }),
        renderCell: ({ row }) => <span title={row.messageStatuses ?? undefined}>{shortMessageStatus(row.messageStatuses)}</span>,
      };
      // Refund on processed rows, beside Details (useTransactionDetails puts its icons in this column).
      const action: Column | null = onRefund
        ? {
            field: 'action',
            headerName: 'Action',
            width: 84,
            sortable: false,
            renderCell: ({ row }) => (transactionStatus(row) === 'processed' ? <RefundCellButton transaction={row} onRefund={onRefund} /> : null),
          }
        : null;
      const roomy = campaign || searchRoom;
      return [callTime, ...(roomy ? [responseTime] : []), code, from, copy, category, ...money, status, message, ...(roomy ? [network] : []), ...(action ? [action] : [])];
    }
    if (campaign && kind === 'transactions') return [time('createdAt', 'Date/Time', (t) => timeText(t.createdAt)), code, from, category, status, network];
    const resolved: Column = {
      ...text('isResolved', 'Resolved', (t) => (t.isResolved ? 'Yes' : 'No'), { width: 80 }),
      renderCell: ({ row }) => <ResolvedCell transaction={row} />,
    };
    const action: Column = {
      field: 'action',
      headerName: 'Action',
      width: 105,
      sortable: false,
      renderCell: ({ row }) => refundOrResolve(row),
    };
    // SPEC §2: the regular failed list has no Category; the campaign one shows Team.
    const middle = kind === 'failed' && !campaign ? [code, from] : [code, from, category];
    // The regular Failed list has no Category, so it keeps Network at 1280 px.
    const withNetwork = campaign || kind === 'failed' || networkRoom;
    return [callTime, responseTime, ...middle, ...money, status, ...(withNetwork ? [network] : []), resolved, action];
  }, [kind, subject, day, onResolve, onRefund, linkCustomers, networkRoom, searchRoom]);
}
