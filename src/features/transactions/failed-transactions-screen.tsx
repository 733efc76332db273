import { useMemo } from 'react';
import Typography from '@mui/material/Typography';
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

/** SPEC §2 Failed transactions: the calls to follow up, resolved row by row, by keyboard or several at once. */
export default function FailedTransactionsScreen() {
  const view = useServiceCodeDayView();
  const filters = useMemo(() => ({ ...view.filters, ...RANGE_FILTERS }), [view.filters]);
  const list = usePagedGrid({ filters, pageSize: 50 });
  const { name, date, dateFrom, dateTo } = list.filters;
  const range = chosenRange({ dateFrom, dateTo });
  const query = useGetFailedTransactionsQuery({ ...list.args, name: name || undefined, ...daysArgs(date, { dateFrom, dateTo }) });
  // A range ending today takes today's new failures, as the day does.
  const live = useLiveList({ view: { name, date: range?.dateTo ?? date, failedOnly: true }, page: list.page, query, setPage: list.setPage });
  const days = daysHeading(date, { dateFrom, dateTo });
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
      <ServiceCodeDayFilters
        value={list.filters}
        onChange={list.setFilters}
        canChooseCode={view.canChooseCode}
        onRefresh={() => query.refetch()}
        refreshing={query.isFetching}
        range={{ value: { dateFrom, dateTo }, onChange: list.setFilters }}
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
