import Alert from '@mui/material/Alert';
import Typography from '@mui/material/Typography';
import { useGetFailedTransactionsQuery } from '../../api/transactions-api';
import { PagedGrid } from '../../components/paged-grid';
import { ServiceCodeDayFilters, useServiceCodeDay } from '../../components/service-code-day-filters';
import { useServerGrid } from '../../components/use-server-grid';
import { formatDay } from '../../domain/format';
import { useTransactionColumns } from './transaction-columns';
import { useLoadToasts, useResolve } from './use-transaction-list';

/** SPEC §2 Failed transactions: the calls to follow up, resolved row by row. */
export default function FailedTransactionsScreen() {
  const { filter, change, page, setPage, canChooseCode } = useServiceCodeDay();
  const query = useGetFailedTransactionsQuery({ page, limit: 50, name: filter.name || undefined, date: filter.date });
  const day = formatDay(filter.date);
  useLoadToasts(query, `Failed transactions for ${day}`);
  const { resolvedIds, onResolve } = useResolve();
  const columns = useTransactionColumns('failed', resolvedIds, onResolve);
  const grid = useServerGrid(query, page, setPage, 50);
  return (
    <>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {`Failed transactions for ${day} ( ${grid.rowCount} )`}
      </Typography>
      <Alert severity="info" sx={{ mb: 2 }}>
        Clients with failed transactions are engaged to help them succeed. Resolved <strong>Yes</strong> means the client was engaged and
        helped; <strong>No</strong> means the client is still to be engaged.
      </Alert>
      <ServiceCodeDayFilters value={filter} onChange={change} canChooseCode={canChooseCode} onRefresh={() => query.refetch()} refreshing={query.isFetching} />
      <PagedGrid label="Failed transactions" columns={columns} gridKey="failed-transactions" {...grid} />
    </>
  );
}
