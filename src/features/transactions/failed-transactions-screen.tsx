import Typography from '@mui/material/Typography';
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
import { formatDay } from '../../domain/format';

/** SPEC §2 Failed transactions: the calls to follow up, resolved row by row, by keyboard or several at once. */
export default function FailedTransactionsScreen() {
  const view = useServiceCodeDayView();
  const list = usePagedGrid({ filters: view.filters, pageSize: 50 });
  const { name, date } = list.filters;
  const query = useGetFailedTransactionsQuery({ ...list.args, name: name || undefined });
  const live = useLiveList({ view: { name, date, failedOnly: true }, page: list.page, query, setPage: list.setPage });
  const day = formatDay(date);
  useLoadToast(query, `Failed transactions for ${day}`);
  const [resolveTransaction] = useResolveTransactionMutation();
  const onResolve = useResolve(resolveTransaction);
  const listColumns = useTransactionColumns('failed', { day: date, onResolve });
  const { columns, drawer, showDetails } = useTransactionDetails(listColumns);
  const grid = list.gridProps(query);
  const queue = useResolveQueue({ enabled: true, rows: grid.rows, resolveOne: onResolve, showDetails, columns });
  return (
    <>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {`Failed transactions for ${day} `}
        <TotalCount total={grid.rowCount} />
      </Typography>
      <FailedTransactionsLegend />
      <ServiceCodeDayFilters value={list.filters} onChange={list.setFilters} canChooseCode={view.canChooseCode} onRefresh={() => query.refetch()} refreshing={query.isFetching}>
        {queue.toolbar}
      </ServiceCodeDayFilters>
      <NewCallsChip {...live} />
      <PagedGrid label="Failed transactions" columns={queue.columns} card={TRANSACTION_CARD} gridKey="failed-transactions" {...grid} {...queue.gridProps} />
      {queue.pieces}
      {drawer}
    </>
  );
}
