import { useMemo } from 'react';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import CancelIcon from '@mui/icons-material/Cancel';
import { useGetFailedTransactionsQuery, useResolveTransactionMutation } from '../../api/transactions-api';
import { NewCallsChip } from '../../components/live/new-calls-chip';
import { useLiveList } from '../../components/live/use-live-list';
import { PagedGrid } from '../../components/paged-grid';
import { FailedTransactionsLegend } from '../../components/transactions/list-legends';
import { chosenRange, daysArgs, daysHeading, RANGE_FILTERS } from '../../components/transactions/day-range';
import { ServiceCodeDayFilters, useServiceCodeDayView } from '../../components/transactions/service-code-day-filters';
import { TotalCount } from '../../components/transactions/total-count';
import { TRANSACTION_CARD, useTransactionColumns } from '../../components/transactions/transaction-columns';
import { useTransactionDetails } from '../../components/transactions/use-transaction-details';
import { useResolve } from '../../components/transactions/use-resolve';
import { useResolveQueue } from '../../components/transactions/use-resolve-queue';
import { usePagedGrid } from '../../components/use-paged-grid';
import { useLoadToast } from '../../components/use-load-toast';
import { formatDateTime } from '../../domain/format';
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
  const filters = useMemo(() => ({ ...view.filters, ...RANGE_FILTERS, since: instantFilter(), until: instantFilter() }), [view.filters]);
  const list = usePagedGrid({ filters, pageSize: 50 });
  const { name, date, dateFrom, dateTo, since, until } = list.filters;
  const windowed = Boolean(since || until);
  const range = windowed ? undefined : chosenRange({ dateFrom, dateTo });
  const query = useGetFailedTransactionsQuery({
    page: list.page,
    limit: list.pageSize,
    name: name || undefined,
    ...(windowed ? { since: since || undefined, until: until || undefined } : daysArgs(date, { dateFrom, dateTo })),
  });
  // A range ending today takes today's new failures, as the day does.
  const live = useLiveList({ view: { name, date: range?.dateTo ?? date, failedOnly: true }, page: list.page, query, setPage: list.setPage });
  const days = windowed ? windowText(since, until) : daysHeading(date, { dateFrom, dateTo });
  useLoadToast(query, `Failed transactions ${days}`);
  const [resolveTransaction] = useResolveTransactionMutation();
  const onResolve = useResolve(resolveTransaction);
  const listColumns = useTransactionColumns('failed', { day: range ? undefined : date, onResolve });
  const { columns, drawer, showDetails } = useTransactionDetails(listColumns);
  const grid = list.gridProps(query);
  const queue = useResolveQueue({ enabled: true, rows: grid.rows, resolveOne: onResolve, showDetails, columns });
  return (
    <>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {`Failed transactions ${days} `}
        <TotalCount total={grid.rowCount} />
      </Typography>
      <FailedTransactionsLegend />
      {windowed && (
        <Chip
          label={`Calls created ${days}`}
          onDelete={() => list.setFilters({ since: '', until: '' })}
          deleteIcon={<CancelIcon aria-label="Show the whole day" />}
          variant="outlined"
          color="primary"
          sx={{ mb: 1.5, maxWidth: '100%' }}
        />
      )}
      <ServiceCodeDayFilters
        value={list.filters}
        // Choosing a day or a range leaves the window: the list is the days' again.
        onChange={(next) => list.setFilters(next.date ? { ...next, since: '', until: '' } : next)}
        canChooseCode={view.canChooseCode}
        onRefresh={() => query.refetch()}
        refreshing={query.isFetching}
        range={{ value: { dateFrom, dateTo }, onChange: (next) => list.setFilters({ ...next, since: '', until: '' }) }}
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
