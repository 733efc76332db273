import { useEffect, useMemo, useRef } from 'react';
import { useLocation, useParams, useSearchParams } from 'react-router-dom';
import Alert from '@mui/material/Alert';
import Typography from '@mui/material/Typography';
import { useGetCustomerCallsQuery, useGetCustomerQuery } from '../../api/customers-api';
import { FigureCards, type Figure } from '../../components/figure-cards';
import { PagedGrid } from '../../components/paged-grid';
import type { CardLayout } from '../../components/paged-view';
import { TotalCount } from '../../components/transactions/total-count';
import { useTransactionColumns } from '../../components/transactions/transaction-columns';
import { useTransactionDetails } from '../../components/transactions/use-transaction-details';
import { usePagedGrid } from '../../components/use-paged-grid';
import { useLoadToast } from '../../components/use-load-toast';
import type { CustomerSummary } from '../../domain/customers';
import type { Transaction } from '../../domain/entities';
import { formatDateTime, formatMoney } from '../../domain/format';
import { isCustomerNumber, normalizePhoneNumber } from '../../domain/phone';

/** A call's card on a phone: when it was, then its status and buttons; the number is the page's. */
const CALL_CARD: CardLayout = { title: 'createdAt', aside: ['status', 'copy', 'details'] };

const NO_FILTERS = {};

function figuresOf(summary: CustomerSummary | undefined): Figure[] {
  const count = (value: number | undefined) => formatMoney(value ?? 0);
  return [
    { label: 'First seen', value: summary?.firstSeenAt ? formatDateTime(summary.firstSeenAt) : 'N/A' },
    { label: 'Last seen', value: summary?.lastSeenAt ? formatDateTime(summary.lastSeenAt) : 'N/A' },
    { label: 'Calls', value: count(summary?.calls) },
    { label: 'Processed', value: count(summary?.processed), color: 'success.main' },
    { label: 'Failed', value: count(summary?.failed), color: 'error.main' },
    { label: 'Spent', value: `UGX ${count(summary?.spent)}` },
    { label: 'Refunded', value: `UGX ${count(summary?.refunded)}` },
    { label: 'Votes', value: count(summary?.votes) },
    { label: 'SMS', value: count(summary?.sms) },
  ];
}

/**
 * One customer: what support needs to answer 'what happened to my money': the number's figures,
 * then every call in the person's scope, newest first, each with its timeline one click away.
 * `?call=` opens one call's Details (the top bar's search lands here with it).
 */
export default function CustomerScreen() {
  const { phone = '' } = useParams();
  const valid = isCustomerNumber(phone);
  const phoneNumber = valid ? normalizePhoneNumber(phone) : phone;
  const summary = useGetCustomerQuery(phoneNumber, { skip: !valid });
  const list = usePagedGrid({ filters: NO_FILTERS, pageSize: 20 });
  const calls = useGetCustomerCallsQuery({ phoneNumber, page: list.page, limit: list.pageSize }, { skip: !valid });
  useLoadToast(calls, `Calls of ${phoneNumber}`);
  const searchColumns = useTransactionColumns('search');
  // The page is the number's: its own column would repeat it on every row.
  const listColumns = useMemo(() => searchColumns.filter((column) => column.field !== 'phoneNumber'), [searchColumns]);
  const { columns, drawer, showDetails } = useTransactionDetails(listColumns);
  useOpenCall(calls.data?.docs, showDetails);
  const grid = list.gridProps(calls);

  if (!valid) {
    return (
      <>
        <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
          Customer
        </Typography>
        <Alert severity="warning">This is not a phone number.</Alert>
      </>
    );
  }
  return (
    <>
      <Typography variant="h5" component="h1" sx={{ mb: 2, overflowWrap: 'anywhere' }}>
        {`Customer ${phoneNumber} `}
        <TotalCount total={summary.data?.calls ?? 0} />
      </Typography>
      <FigureCards label="Customer figures" figures={figuresOf(summary.data)} />
      {summary.data && summary.data.calls === 0 && (
        <Alert severity="info" sx={{ mb: 2 }}>
          No call from this number in the service codes you read.
        </Alert>
      )}
      <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
        Calls
      </Typography>
      <PagedGrid label="Calls of this customer" columns={columns} card={CALL_CARD} gridKey="customer-calls" {...grid} />
      {drawer}
    </>
  );
}

/** Opens `?call=`'s Details once: the call the top bar's search handed over, or the same call among the page's rows. */
function useOpenCall(rows: Transaction[] | undefined, showDetails: (row: Transaction) => void) {
  const [params] = useSearchParams();
  const location = useLocation();
  const callId = params.get('call');
  const opened = useRef<string | null>(null);
  const handed = (location.state as { transaction?: Transaction } | null)?.transaction;
  useEffect(() => {
    if (!callId || opened.current === callId) return;
    const call = handed?._id === callId ? handed : rows?.find((row) => row._id === callId);
    if (!call) return;
    opened.current = callId;
    showDetails(call);
  }, [callId, handed, rows, showDetails]);
}
