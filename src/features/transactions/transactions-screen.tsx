import Typography from '@mui/material/Typography';
import { useGetTransactionsQuery } from '../../api/transactions-api';
import { PagedGrid } from '../../components/paged-grid';
import { ServiceCodeDayFilters, useServiceCodeDay } from '../../components/service-code-day-filters';
import { useServerGrid } from '../../components/use-server-grid';
import { formatDay } from '../../domain/format';
import { ExportCsvButton } from './export-csv-button';
import { useTransactionColumns } from './transaction-columns';
import { useLoadToasts, useResolve } from './use-transaction-list';

/** SPEC §2 Transactions: one service code's calls of one day, 50 per page, with Resolve. */
export default function TransactionsScreen() {
  const { filter, change, page, setPage, canChooseCode } = useServiceCodeDay();
  const query = useGetTransactionsQuery({ page, limit: 50, name: filter.name || undefined, date: filter.date });
  const day = formatDay(filter.date);
  useLoadToasts(query, `Transactions for ${day}`);
  const { resolvedIds, onResolve } = useResolve();
  const columns = useTransactionColumns('transactions', resolvedIds, onResolve);
  const grid = useServerGrid(query, page, setPage, 50);
  return (
    <>
      {/* One text node: the count arriving must not move the text after it (a layout shift). */}
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {`Transactions for ${day} ( ${grid.rowCount} )`}
      </Typography>
      <ServiceCodeDayFilters value={filter} onChange={change} canChooseCode={canChooseCode} onRefresh={() => query.refetch()} refreshing={query.isFetching}>
        <ExportCsvButton filter={{ name: filter.name || undefined, date: filter.date }} />
      </ServiceCodeDayFilters>
      <PagedGrid label="Transactions" columns={columns} gridKey="transactions" {...grid} />
    </>
  );
}
