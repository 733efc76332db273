import { useMemo } from 'react';
import Typography from '@mui/material/Typography';
import { useGetTransactionsQuery, useResolveTransactionMutation } from '../../api/transactions-api';
import { NewCallsChip } from '../../components/live/new-calls-chip';
import { useLiveList } from '../../components/live/use-live-list';
import { PagedGrid } from '../../components/paged-grid';
import { ExportCsvButton } from '../../components/transactions/export-csv-button';
import { chosenRange, daysArgs, daysHeading, RANGE_FILTERS } from '../../components/transactions/day-range';
import { useRowRefund } from '../../components/transactions/refund-dialog';
import { ServiceCodeDayFilters, useServiceCodeDayView } from '../../components/transactions/service-code-day-filters';
import { TotalCount } from '../../components/transactions/total-count';
import { TRANSACTION_CARD, useTransactionColumns } from '../../components/transactions/transaction-columns';
import { useTransactionDetails } from '../../components/transactions/use-transaction-details';
import { useResolve } from '../../components/transactions/use-resolve';
import { usePagedGrid } from '../../components/use-paged-grid';
import { useLoadToast } from '../../components/use-load-toast';

/** SPEC §2 Transactions: one service code's calls of one day, 50 per page, with Resolve and Refund. */
export default function TransactionsScreen() {
  const view = useServiceCodeDayView();
  const filters = useMemo(() => ({ ...view.filters, ...RANGE_FILTERS }), [view.filters]);
  const list = usePagedGrid({ filters, pageSize: 50 });
  const { name, date, dateFrom, dateTo } = list.filters;
  const range = chosenRange({ dateFrom, dateTo });
  const query = useGetTransactionsQuery({ ...list.args, name: name || undefined, ...daysArgs(date, { dateFrom, dateTo }) });
  // A range ending today takes today's new calls, as the day does.
  const live = useLiveList({ view: { name, date: range?.dateTo ?? date }, page: list.page, query, setPage: list.setPage });
  const days = daysHeading(date, { dateFrom, dateTo });
  useLoadToast(query, `Transactions ${days}`);
  const [resolveTransaction] = useResolveTransactionMutation();
  const onResolve = useResolve(resolveTransaction);
  const refund = useRowRefund();
  const listColumns = useTransactionColumns('transactions', { day: range ? undefined : date, onResolve, onRefund: refund.onRefund });
  const { columns, drawer } = useTransactionDetails(listColumns);
  const grid = list.gridProps(query);
  return (
    <>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {`Transactions ${days} `}
        <TotalCount total={grid.rowCount} />
      </Typography>
      <ServiceCodeDayFilters
        value={list.filters}
        onChange={list.setFilters}
        canChooseCode={view.canChooseCode}
        onRefresh={() => query.refetch()}
        refreshing={query.isFetching}
        range={{ value: { dateFrom, dateTo }, onChange: list.setFilters }}
      >
        <ExportCsvButton filter={{ name: name || undefined, ...daysArgs(date, { dateFrom, dateTo }) }} />
      </ServiceCodeDayFilters>
      <NewCallsChip {...live} />
      <PagedGrid label="Transactions" columns={columns} card={TRANSACTION_CARD} gridKey="transactions" {...grid} />
      {drawer}
      {refund.dialog}
    </>
  );
}
