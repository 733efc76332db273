import { useCallback, useMemo } from 'react';
import type { GridColDef } from '@mui/x-data-grid';
import Typography from '@mui/material/Typography';
import { useGetCampaignTransactionsQuery, useResolveCampaignTransactionMutation } from '../../api/campaigns-api';
import type { ResolveRequest } from '../../api/transactions-api';
import { NewCallsChip } from '../../components/live/new-calls-chip';
import { useLiveList } from '../../components/live/use-live-list';
import { amountColumn } from '../../components/amount-cell';
import { PagedGrid } from '../../components/paged-grid';
import { ExportCsvButton } from '../../components/transactions/export-csv-button';
import { FailedTransactionsLegend, SearchStatusLegend } from '../../components/transactions/list-legends';
import { PhoneNumberSearch } from '../../components/transactions/phone-number-search';
import { ServiceCodeDayFilters } from '../../components/transactions/service-code-day-filters';
import { TotalCount } from '../../components/transactions/total-count';
import { TRANSACTION_CARD, useTransactionColumns } from '../../components/transactions/transaction-columns';
import { useTransactionDetails } from '../../components/transactions/use-transaction-details';
import { useResolve } from '../../components/transactions/use-resolve';
import { useResolveQueue } from '../../components/transactions/use-resolve-queue';
import { usePagedGrid } from '../../components/use-paged-grid';
import { useLoadToast } from '../../components/use-load-toast';
import { formatDay, todayInServiceZone } from '../../domain/format';
import type { Transaction } from '../../domain/entities';
import { dayFilter, phoneNumberFilter } from '../../domain/list-view';
import type { CampaignDescriptor, CampaignScreen } from './campaign-descriptors';
import { useCampaignServiceCode } from './use-campaign';

export interface CampaignListScreenProps {
  campaign: CampaignDescriptor;
  screen: Exclude<CampaignScreen, { kind: 'ranking' }>;
}

/** What SPEC's campaign lists lack, on a keyed campaign's: Amount before Status. */
function keyedColumns(columns: GridColDef<Transaction>[], amount: boolean): GridColDef<Transaction>[] {
  if (!amount) return columns;
  const status = columns.findIndex((column) => column.field === 'status');
  return [...columns.slice(0, status), amountColumn<Transaction>(), ...columns.slice(status)];
}

/**
 * SPEC §2 campaign transactions, failed and search lists: the regular lists' pieces with Team for
 * Category, restricted to the campaign's one service code, shown fixed.
 */
export default function CampaignListScreen({ campaign, screen }: CampaignListScreenProps) {
  const search = screen.kind === 'search';
  const code = useCampaignServiceCode(campaign.key);
  const list = usePagedGrid({ filters: { date: dayFilter(todayInServiceZone()), phoneNumber: phoneNumberFilter() }, pageSize: 50 });
  const { date, phoneNumber } = list.filters;
  const day = formatDay(date);
  const body = search ? { phoneNumber } : { name: code.serviceCode, date };
  const query = useGetCampaignTransactionsQuery({ call: screen.call, ...body, page: list.page, limit: list.pageSize }, { skip: search ? !phoneNumber : !code.serviceCode });
  const live = useLiveList({ view: search || !code.serviceCode ? undefined : { name: code.serviceCode, date, failedOnly: screen.kind === 'failed' }, page: list.page, query, setPage: list.setPage });
  const isError = query.isError || code.isError;
  // As the regular lists say it: /failed's toast names failed transactions.
  const loaded = { search: 'Transactions', failed: `Failed transactions for ${day}`, transactions: `Transactions for ${day}` }[screen.kind];
  useLoadToast({ requestId: query.requestId, isFetching: query.isFetching, isError }, loaded);
  const [resolveTransaction] = useResolveCampaignTransactionMutation();
  const resolveCall = campaign.lists.resolve;
  const resolve = useCallback((request: ResolveRequest) => resolveTransaction({ ...request, call: resolveCall(request.id) }), [resolveTransaction, resolveCall]);
  const onResolve = useResolve(resolve);
  const spec = useTransactionColumns(screen.kind, { subject: 'team', day: search ? undefined : date, onResolve });
  const { listExtras } = campaign.extras;
  const listColumns = useMemo(() => keyedColumns(spec, listExtras), [spec, listExtras]);
  const { columns, drawer, showDetails } = useTransactionDetails(listColumns);
  const grid = list.gridProps({ ...query, isError });
  // The failed list is a queue, as /failed is.
  const queue = useResolveQueue({ enabled: screen.kind === 'failed', rows: grid.rows, resolveOne: onResolve, bulkPath: campaign.lists.bulkResolve, showDetails, columns });
  const exportFilter = { name: code.serviceCode, date, ...(screen.kind === 'failed' ? { status: 'failed' as const } : {}) };
  return (
    <>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {listExtras ? `${screen.title} ` : screen.title}
        {listExtras && <TotalCount total={search && !phoneNumber ? 0 : grid.rowCount} />}
      </Typography>
      {campaign.extras.dayTotalLine && !search && (
        <Typography variant="subtitle1" sx={{ mb: 2 }}>
          {`Transactions for ${day} `}
          <TotalCount total={grid.rowCount} />
        </Typography>
      )}
      {screen.kind === 'failed' && <FailedTransactionsLegend />}
      {search ? (
        <>
          <PhoneNumberSearch phoneNumber={phoneNumber} onSearch={(next) => list.setFilters({ phoneNumber: next })} onSearchAgain={() => query.refetch()} />
          <SearchStatusLegend />
        </>
      ) : (
        <ServiceCodeDayFilters
          value={{ name: code.serviceCode ?? '', date }}
          onChange={({ date: next }) => next && list.setFilters({ date: next })}
          canChooseCode={false}
          fixedCode={code.serviceCode ?? ''}
          greenCode={campaign.extras.greenServiceCode}
          onRefresh={() => query.refetch()}
          refreshing={query.isFetching || !code.serviceCode}
        >
          {queue.toolbar}
          {/* Only once the code is known: without it the export would be every code's calls. */}
          {listExtras && code.serviceCode && <ExportCsvButton filter={exportFilter} />}
        </ServiceCodeDayFilters>
      )}
      <NewCallsChip {...live} />
      <PagedGrid
        label={screen.title}
        columns={queue.columns}
        card={TRANSACTION_CARD}
        gridKey={screen.path}
        {...(search && !phoneNumber ? { ...grid, rows: [], rowCount: 0 } : grid)}
        {...queue.gridProps}
      />
      {queue.pieces}
      {drawer}
    </>
  );
}
