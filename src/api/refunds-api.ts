import type { ApiEnvelope } from '../domain/entities';
import { readPagedList, type PagedList } from '../domain/paged-list';
import type { Refund, RefundReason, RefundState } from '../domain/refunds';
import { baseApi, listTags } from './base-api';
import { csvFileOf, type CsvFile } from './csv-file';

export interface RefundsQuery {
  page: number;
  limit?: number;
  /** One state; every one (awaiting approval first, then in flight, then done) when left out. */
  state?: RefundState;
}

export interface RefundRequest {
  transactionId: string;
  amount?: number;
  reason: RefundReason;
  note?: string;
}

/** What a refund step answers: the server's words and the refund as it is now. */
export interface RefundAnswer {
  message: string;
  refund: Refund;
}

const answer = (response: ApiEnvelope<Refund>): RefundAnswer => ({ message: response.message, refund: response.results });

/** A refund step changes the queue, the refund, and its call's timeline and refunded amount. */
const changed = (refund: Refund | undefined) => [
  { type: 'Refund' as const, id: 'LIST' },
  ...(refund ? [{ type: 'Refund' as const, id: refund._id }, { type: 'Transaction' as const, id: refund.transactionId }] : []),
];

/** Refunds: customer care and managers request and read them, a manager other than the requester decides. */
export const refundsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getRefunds: build.query<PagedList<Refund>, RefundsQuery>({
      query: ({ page, limit, state }) => ({ url: '/v1/refunds', params: { page, ...(limit ? { limit } : {}), ...(state ? { state } : {}) } }),
      transformResponse: (response: ApiEnvelope<PagedList<Refund>>) => readPagedList(response.results),
      providesTags: listTags('Refund'),
    }),
    getCallRefunds: build.query<PagedList<Refund>, string>({
      query: (transactionId) => `/v1/transactions/${transactionId}/refunds`,
      transformResponse: (response: ApiEnvelope<PagedList<Refund>>) => readPagedList(response.results),
      providesTags: (result, _error, transactionId) => [...listTags('Refund')(result), { type: 'Transaction', id: transactionId }],
    }),
    requestRefund: build.mutation<RefundAnswer, RefundRequest>({
      query: ({ transactionId, ...body }) => ({ url: `/v1/transactions/${transactionId}/refunds`, method: 'POST', body }),
      transformResponse: answer,
      invalidatesTags: (result, error) => (error ? [] : changed(result?.refund)),
    }),
    /** The queue as CSV, of one state or all (a mutation: a download, not a cached read). */
    exportRefundsCsv: build.mutation<CsvFile, { state?: RefundState }>({
      query: ({ state }) => ({ url: '/v1/refunds/export', params: state ? { state } : {}, responseHandler: 'text' }),
      transformResponse: (csv: string, meta, { state }) => csvFileOf(csv, meta, `refunds-${state ?? 'all'}.csv`),
    }),
    approveRefund: build.mutation<RefundAnswer, string>({
      query: (id) => ({ url: `/v1/refunds/${id}/approve`, method: 'POST', body: {} }),
      transformResponse: answer,
      invalidatesTags: (result, error) => (error ? [{ type: 'Refund', id: 'LIST' }] : changed(result?.refund)),
    }),
    rejectRefund: build.mutation<RefundAnswer, { id: string; reason: string }>({
      query: ({ id, reason }) => ({ url: `/v1/refunds/${id}/reject`, method: 'POST', body: { reason } }),
      transformResponse: answer,
      invalidatesTags: (result, error) => (error ? [{ type: 'Refund', id: 'LIST' }] : changed(result?.refund)),
    }),
  }),
});

export const { useGetRefundsQuery, useGetCallRefundsQuery, useRequestRefundMutation, useApproveRefundMutation, useRejectRefundMutation, useExportRefundsCsvMutation } = refundsApi;
