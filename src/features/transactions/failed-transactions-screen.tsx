import { useMemo } from 'react';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import CancelIcon from '@mui/icons-material/Cancel';
import { useGetFailedTransactionsQuery, useResolveTransactionMutation } from '../../api/transactions-api';
import { NewCallsChip } from '../../components/live/new-calls-chip';
import { useLiveList } from '../../components/live/use-live-list';
import { PagedGrid } from '../../components/paged-grid';
import { FailedTransactionsLegend } from '../../components/transactions/list-legends';
import { ServiceCodeDayFilters, useServiceCodeDayView } from '../../components/transactions/service-code-day-filters';
import { TotalCount } from '../../components/transactions/total-count';
import { TRANSACTION_CARD, useTransactionColumns } from '../../components/transactions/transaction-columns';
import { useTransactionDetails } from '../../components/transactions/use-transaction-details';
import { useResolve } from '../../components/transactions/use-resolve';
import { useResolveQueue } from '../../components/transactions/use-resolve-queue';
import { usePagedGrid } from '../../components/use-paged-grid';
import { useLoadToast } from '../../components/use-load-toast';
import { formatDateTime, formatDay } from '../../domain/format';
import { instantFilter } from '../../domain/list-view';

/** 'from 26 Nov 2026, 10:20 to 10:40', or open-ended while the incident is open. */
function windowText(since: string, until: string): string {
  if (since && until) return `from ${formatDateTime(since)} to ${formatDateTime(until)}`;
  return since ? `since ${formatDateTime(since)}` : `up to ${formatDateTime(until)}`;
}

/** SPEC §2 Failed transactions: the calls to follow up, resolved row by row, by keyboard or several at once. */
export default function FailedTransactionsScreen() {
  const view = useServiceCodeDayView();
  // An incident links here with the window of the calls it counted: it stands in for the day until cleared.
  const filters = useMemo(() => ({ ...view.filters, since: instantFilter(), until: instantFilter() }), [view.filters]);
  const list = usePagedGrid({ filters, pageSize: 50 });
  const { name, date, since, until } = list.filters;
  const windowed = Boolean(since || until);
  const query = useGetFailedTransactionsQuery({ page: list.page, limit: list.pageSize, name: name || undefined, ...(windowed ? { since: since || undefined, until: until || undefined } : { date }) });
  const live = useLiveList({ view: { name, date, failedOnly: true }, page: list.page, query, setPage: list.setPage });
  const day = windowed ? windowText(since, until) : formatDay(date);
  useLoadToast(query, `Failed transactions ${windowed ? '' : 'for '}${day}`);
  const [resolveTransaction] = useResolveTransactionMutation();
  const onResolve = useResolve(resolveTransaction);
  const listColumns = useTransactionColumns('failed', { day: date, onResolve });
  const { columns, drawer, showDetails } = useTransactionDetails(listColumns);
  const grid = list.gridProps(query);
  const queue = useResolveQueue({ enabled: true, rows: grid.rows, resolveOne: onResolve, showDetails, columns });
  return (
    <>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {`Failed transactions ${windowed ? '' : 'for '}${day} `}
        <TotalCount total={grid.rowCount} />
      </Typography>
      <FailedTransactionsLegend />
      {windowed && (
        <Chip
          label={`Calls created ${day}`}
          onDelete={() => list.setFilters({ since: '', until: '' })}
          deleteIcon={<CancelIcon aria-label="Show the whole day" />}
          variant="outlined"
          color="primary"
          sx={{ mb: 1.5, maxWidth: '100%' }}
        />
      )}
      <ServiceCodeDayFilters
        value={list.filters}
        // Choosing a day leaves the window: the list is the day's again.
        onChange={(next) => list.setFilters(next.date ? { ...next, since: '', until: '' } : next)}
        canChooseCode={view.canChooseCode}
        onRefresh={() => query.refetch()}
        refreshing={query.isFetching}
      >
        {queue.toolbar}
      </ServiceCodeDayFilters>
      <NewCallsChip {...live} />
      <PagedGrid label="Failed transactions" columns={queue.columns} card={TRANSACTION_CARD} gridKey="failed-transactions" {...grid} {...queue.gridProps} />
      {queue.pieces}
      {drawer}
    </>
  );
}
