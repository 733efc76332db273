import Typography from '@mui/material/Typography';
import { useSearchTransactionsQuery } from '../../api/transactions-api';
import { PagedGrid } from '../../components/paged-grid';
import { SearchStatusLegend } from '../../components/transactions/list-legends';
import { PhoneNumberSearch } from '../../components/transactions/phone-number-search';
import { useRowRefund } from '../../components/transactions/refund-dialog';
import { TRANSACTION_CARD, useTransactionColumns } from '../../components/transactions/transaction-columns';
import { useTransactionDetails } from '../../components/transactions/use-transaction-details';
import { usePagedGrid } from '../../components/use-paged-grid';
import { useLoadToast } from '../../components/use-load-toast';
import { phoneNumberFilter } from '../../domain/list-view';

/** SPEC §2 Transaction search: one caller's calls, newest first, with the ticket to copy and Refund on processed calls. */
export default function TransactionSearchScreen() {
  const list = usePagedGrid({ filters: { phoneNumber: phoneNumberFilter() }, pageSize: 50 });
  const { phoneNumber } = list.filters;
  const query = useSearchTransactionsQuery(list.args, { skip: !phoneNumber });
  useLoadToast(query, 'Transactions');
  const refund = useRowRefund();
  const listColumns = useTransactionColumns('search', { onRefund: refund.onRefund });
  const { columns, drawer } = useTransactionDetails(listColumns);
  const grid = list.gridProps(query);
  return (
    <>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        Transaction search
      </Typography>
      <PhoneNumberSearch phoneNumber={phoneNumber} onSearch={(next) => list.setFilters({ phoneNumber: next })} onSearchAgain={() => query.refetch()} />
      <SearchStatusLegend />
      <PagedGrid label="Search results" columns={columns} card={TRANSACTION_CARD} gridKey="transaction-search" {...(phoneNumber ? grid : { ...grid, rows: [], rowCount: 0 })} />
      {drawer}
      {refund.dialog}
    </>
  );
}
