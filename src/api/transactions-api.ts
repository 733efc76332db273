import type { ApiEnvelope, Transaction } from '../domain/entities';
import { readPagedList, type PagedList } from '../domain/paged-list';
import type { BulkResolveOutcome, ResolveReason } from '../domain/resolution';
import type { TransactionStatus } from '../domain/transaction-status';
import { baseApi, listTags } from './base-api';
import { csvFileOf, type CsvFile } from './csv-file';
import { patchCallInCachedLists, resolveInCachedLists } from './resolve-in-cache';

/** A service code and a day (`YYYY-MM-DD`); the service code is optional for managers. */
export interface TransactionFilter {
  name?: string;
  date?: string;
  /** A range instead of the day, both ends included, at most 31 days apart. */
  dateFrom?: string;
  dateTo?: string;
}

export interface TransactionsQuery extends TransactionFilter {
  page: number;
  limit?: number;
}

/** The Failed list may be narrowed to the calls created within a window of instants (an incident's). */
export interface FailedTransactionsQuery extends TransactionsQuery {
  since?: string;
  until?: string;
}

/** A CSV export: the whole filtered set; `path` targets another list's export (a campaign's). */
export interface CsvExportQuery extends TransactionFilter {
  status?: TransactionStatus;
  path?: string;
}

/** Why a call was resolved: both optional, as the server takes them. */
export interface Resolution {
  reason?: ResolveReason;
  note?: string;
}

/** Resolve one failed call. */
export interface ResolveRequest extends Resolution {
  id: string;
}

/** Resolve selected: the ids with one reason and note for all; `path` targets a campaign's bulk call. */
export interface BulkResolveRequest extends Resolution {
  ids: string[];
  path?: string;
}

/** What a bulk resolve did with one id. */
export interface BulkResolveResult {
  _id: string;
  outcome: BulkResolveOutcome;
}

/** The body of a resolve: SPEC's `{ isResolved: true }`, with the reason and a note when given. */
export const resolveBody = ({ reason, note }: Resolution) => ({ isResolved: true, ...(reason ? { reason } : {}), ...(note ? { note } : {}) });

/** Every list that may hold a call, and the dashboard's counts: read again after a bulk resolve. */
const CALL_LISTS = ['Transaction', 'FailedTransaction', 'CampaignTransaction'] as const;

export interface SearchQuery {
  phoneNumber: string;
  page: number;
  limit?: number;
  /** A range of days (at most 31); every day without. */
  dateFrom?: string;
  dateTo?: string;
}

type Paged = ApiEnvelope<PagedList<Transaction>>;
const toPage = (response: Paged) => readPagedList(response.results);
const compact = (filter: TransactionFilter) => ({
  ...(filter.name ? { name: filter.name } : {}),
  ...(filter.dateFrom && filter.dateTo ? { dateFrom: filter.dateFrom, dateTo: filter.dateTo } : filter.date ? { date: filter.date } : {}),
});

export const transactionsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getTransactions: build.query<PagedList<Transaction>, TransactionsQuery>({
      query: ({ page, limit = 50, ...filter }) => ({ url: '/v1/transactions', method: 'POST', params: { page, limit }, body: compact(filter) }),
      transformResponse: toPage,
      providesTags: listTags('Transaction'),
    }),
    getFailedTransactions: build.query<PagedList<Transaction>, FailedTransactionsQuery>({
      query: ({ page, limit = 50, since, until, ...filter }) => ({
        url: '/v1/transactions/to/give/attention',
        params: { page, limit, ...compact(filter), ...(since ? { since } : {}), ...(until ? { until } : {}) },
      }),
      transformResponse: toPage,
      providesTags: listTags('FailedTransaction'),
    }),
    searchTransactions: build.query<PagedList<Transaction>, SearchQuery>({
      query: ({ phoneNumber, page, limit = 50, dateFrom, dateTo }) => ({
        url: '/v1/transactions/search',
        method: 'POST',
        params: { page, limit },
        body: { phoneNumber, ...(dateFrom && dateTo ? { dateFrom, dateTo } : {}) },
      }),
      transformResponse: toPage,
      providesTags: listTags('Transaction', { list: false }),
    }),
    resolveTransaction: build.mutation<Transaction, ResolveRequest>({
      query: ({ id, ...resolution }) => ({ url: `/v1/transactions/to/give/attention/${id}`, method: 'POST', body: resolveBody(resolution) }),
      transformResponse: (response: ApiEnvelope<Transaction>) => response.results,
      onQueryStarted: ({ id }, lifecycle) => resolveInCachedLists(id, lifecycle),
      // What the server accepted is read again: the lists, the call's timeline, the dashboard.
      invalidatesTags: (_result, error, { id }) =>
        error ? [] : [{ type: 'Transaction', id }, { type: 'FailedTransaction', id }, { type: 'Dashboard', id: 'SUMMARY' }],
    }),
    // No optimistic rows: only the server knows whether the undo is still possible; the rows then show what it answered.
    undoResolve: build.mutation<Transaction, { id: string }>({
      query: ({ id }) => ({ url: `/v1/transactions/to/give/attention/${id}/undo`, method: 'POST' }),
      transformResponse: (response: ApiEnvelope<Transaction>) => response.results,
      onQueryStarted: async ({ id }, { dispatch, getState, queryFulfilled }) => {
        try {
          const { data: answered } = await queryFulfilled;
          patchCallInCachedLists(id, (row) => Object.assign(row, answered), { dispatch, getState });
        } catch {
          // Refused: the rows still show the resolve, which stands.
        }
      },
      invalidatesTags: (_result, error, { id }) =>
        error ? [] : [...CALL_LISTS.map((type) => ({ type, id })), { type: 'Dashboard' as const, id: 'SUMMARY' }],
    }),
    // No optimistic rows: the server alone knows which of the ids it could resolve; the lists are read again.
    resolveTransactions: build.mutation<BulkResolveResult[], BulkResolveRequest>({
      query: ({ path = '/v1/transactions/to/give/attention/bulk', ids, ...resolution }) => {
        const { isResolved: _always, ...why } = resolveBody(resolution);
        return { url: path, method: 'POST', body: { ids, ...why } };
      },
      transformResponse: (response: ApiEnvelope<BulkResolveResult[]>) => response.results,
      invalidatesTags: (_result, error, { ids }) =>
        error ? [] : [...ids.flatMap((id) => CALL_LISTS.map((type) => ({ type, id }))), { type: 'Dashboard' as const, id: 'SUMMARY' }],
    }),
    // A mutation, not a query: a download is asked for each time and never cached.
    exportTransactionsCsv: build.mutation<CsvFile, CsvExportQuery>({
      query: ({ path = '/v1/transactions/export', status, ...filter }) => ({
        url: path,
        params: { ...compact(filter), ...(status ? { status } : {}) },
        responseHandler: 'text',
      }),
      transformResponse: (csv: string, meta) => csvFileOf(csv, meta, 'transactions.csv'),
    }),
  }),
});

export const {
  useGetTransactionsQuery,
  useGetFailedTransactionsQuery,
  useSearchTransactionsQuery,
  useResolveTransactionMutation,
  useResolveTransactionsMutation,
  useUndoResolveMutation,
  useExportTransactionsCsvMutation,
} = transactionsApi;
