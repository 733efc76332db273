import Typography from '@mui/material/Typography';
import { useSearchTransactionsQuery } from '../../api/transactions-api';
import { PagedGrid } from '../../components/paged-grid';
import { chosenRange, DayRangeFields, DayRangeToggle, RANGE_FILTERS, type DayRange } from '../../components/transactions/day-range';
import { SearchStatusLegend } from '../../components/transactions/list-legends';
import { PhoneNumberSearch } from '../../components/transactions/phone-number-search';
import { useRowRefund } from '../../components/transactions/refund-dialog';
import { TRANSACTION_CARD, useTransactionColumns } from '../../components/transactions/transaction-columns';
import { useTransactionDetails } from '../../components/transactions/use-transaction-details';
import { usePagedGrid } from '../../components/use-paged-grid';
import { useLoadToast } from '../../components/use-load-toast';
import { formatDay, todayInServiceZone } from '../../domain/format';
import { phoneNumberFilter } from '../../domain/list-view';

/**
 * SPEC §2 Transaction search: one caller's calls, newest first, with the ticket to copy and Refund
 * on processed calls; of every day, or of a range of days (at most 31) chosen beside the number.
 */
export default function TransactionSearchScreen() {
  const list = usePagedGrid({ filters: { phoneNumber: phoneNumberFilter(), ...RANGE_FILTERS }, pageSize: 50 });
  const { phoneNumber, dateFrom, dateTo } = list.filters;
  const range = chosenRange({ dateFrom, dateTo });
  const query = useSearchTransactionsQuery({ phoneNumber, page: list.page, limit: list.pageSize, ...(range ?? {}) }, { skip: !phoneNumber });
  useLoadToast(query, 'Transactions');
  const refund = useRowRefund();
  const listColumns = useTransactionColumns('search', { onRefund: refund.onRefund });
  const { columns, drawer } = useTransactionDetails(listColumns);
  const grid = list.gridProps(query);
  const onRangeChange = (next: Partial<DayRange>) => list.setFilters(next);
  return (
    <>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {range ? `Transaction search from ${formatDay(range.dateFrom)} to ${formatDay(range.dateTo)}` : 'Transaction search'}
      </Typography>
      <PhoneNumberSearch phoneNumber={phoneNumber} onSearch={(next) => list.setFilters({ phoneNumber: next })} onSearchAgain={() => query.refetch()}>
        {dateFrom || dateTo ? <DayRangeFields range={{ dateFrom, dateTo }} onChange={onRangeChange} /> : null}
        {/* Every day until a range is asked for; the range opens on today, its From then moved back. */}
        <DayRangeToggle date={todayInServiceZone()} range={{ dateFrom, dateTo }} onChange={onRangeChange} />
      </PhoneNumberSearch>
      <SearchStatusLegend />
      <PagedGrid label="Search results" columns={columns} card={TRANSACTION_CARD} gridKey="transaction-search" {...(phoneNumber ? grid : { ...grid, rows: [], rowCount: 0 })} />
      {drawer}
      {refund.dialog}
    </>
  );
}
