import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import type { ApiEnvelope, Transaction } from '../domain/entities';
import { readPagedList, type PagedList } from '../domain/paged-list';
import type { TransactionStatus } from '../domain/transaction-status';
import type { SessionState } from '../app/session-slice';
import { apiUrl } from './api-url';
import { baseApi, refreshSession } from './base-api';

/** A service code and a day (`YYYY-MM-DD`); the service code is optional for managers. */
export interface TransactionFilter {
  name?: string;
  date?: string;
}

export interface TransactionsQuery extends TransactionFilter {
  page: number;
  limit?: number;
}

export interface SearchQuery {
  phoneNumber: string;
  page: number;
  limit?: number;
}

type Paged = ApiEnvelope<PagedList<Transaction>>;
const toPage = (response: Paged) => readPagedList(response.results);
const compact = (filter: TransactionFilter) => ({ ...(filter.name ? { name: filter.name } : {}), ...(filter.date ? { date: filter.date } : {}) });

export const transactionsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getTransactions: build.query<PagedList<Transaction>, TransactionsQuery>({
      query: ({ page, limit = 50, ...filter }) => ({ url: '/v1/transactions', method: 'POST', params: { page, limit }, body: compact(filter) }),
      transformResponse: toPage,
      providesTags: (result) => [
        { type: 'Transaction', id: 'LIST' },
        ...(result?.docs ?? []).map((t) => ({ type: 'Transaction' as const, id: t._id })),
      ],
    }),
    getFailedTransactions: build.query<PagedList<Transaction>, TransactionsQuery>({
      query: ({ page, limit = 50, ...filter }) => ({ url: '/v1/transactions/to/give/attention', params: { page, limit, ...compact(filter) } }),
      transformResponse: toPage,
      providesTags: (result) => [
        { type: 'FailedTransaction', id: 'LIST' },
        ...(result?.docs ?? []).map((t) => ({ type: 'FailedTransaction' as const, id: t._id })),
      ],
    }),
    searchTransactions: build.query<PagedList<Transaction>, SearchQuery>({
      query: ({ phoneNumber, page, limit = 50 }) => ({ url: '/v1/transactions/search', method: 'POST', params: { page, limit }, body: { phoneNumber } }),
      transformResponse: toPage,
      providesTags: (result) => (result?.docs ?? []).map((t) => ({ type: 'Transaction' as const, id: t._id })),
    }),
    resolveTransaction: build.mutation<Transaction, string>({
      query: (id) => ({ url: `/v1/transactions/to/give/attention/${id}`, method: 'POST', body: { isResolved: true } }),
      transformResponse: (response: ApiEnvelope<Transaction>) => response.results,
      // Only a resolve the server accepted changes what the lists show.
      invalidatesTags: (_result, error, id) =>
        error ? [] : [{ type: 'Transaction', id }, { type: 'FailedTransaction', id }, { type: 'Dashboard', id: 'SUMMARY' }],
    }),
  }),
});

export const {
  useGetTransactionsQuery,
  useGetFailedTransactionsQuery,
  useSearchTransactionsQuery,
  useResolveTransactionMutation,
} = transactionsApi;

export interface CsvFile {
  blob: Blob;
  fileName: string;
}

type SessionAccess = Pick<BaseQueryApi, 'dispatch' | 'getState'>;

/**
 * The CSV export of a whole filtered set (`GET /v1/transactions/export`). A file is not kept in
 * the store, so this is a plain fetch with the bearer token, refreshing once on a 401 like every call.
 */
export async function fetchTransactionsCsv(filter: TransactionFilter & { status?: TransactionStatus }, session: SessionAccess): Promise<CsvFile> {
  const params = new URLSearchParams({ ...compact(filter), ...(filter.status ? { status: filter.status } : {}) });
  const send = () => {
    const token = (session.getState() as { session: SessionState }).session.accessToken;
    return fetch(apiUrl(`/v1/transactions/export?${params}`), { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  };
  let response = await send();
  if (response.status === 401 && (await refreshSession(session)).ok) response = await send();
  if (!response.ok) throw new Error(`Export answered ${response.status}`);
  const fileName = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'transactions.csv';
  return { blob: await response.blob(), fileName };
}
