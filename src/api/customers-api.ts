import type { CustomerSummary, LookupResult } from '../domain/customers';
import type { ApiEnvelope, Transaction } from '../domain/entities';
import { readPagedList, type PagedList } from '../domain/paged-list';
import type { MonthlyReportRow } from '../domain/reports';
import { baseApi, listTags } from './base-api';
import { csvFileOf, type CsvFile } from './csv-file';

export interface CustomerCallsQuery {
  phoneNumber: string;
  page: number;
  limit?: number;
}

export interface MonthlyReportQuery {
  month: string;
  name?: string;
}

const monthParams = ({ month, name }: MonthlyReportQuery) => ({ month, ...(name ? { name } : {}) });

/** A customer's page, the top bar's lookup and the monthly report. */
export const customersApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getCustomer: build.query<CustomerSummary, string>({
      query: (phoneNumber) => ({ url: `/v1/customers/${encodeURIComponent(phoneNumber)}` }),
      transformResponse: (response: ApiEnvelope<CustomerSummary>) => response.results,
      // Read again with the lists after a resolve or a live change.
      providesTags: [{ type: 'Transaction', id: 'LIST' }],
    }),
    getCustomerCalls: build.query<PagedList<Transaction>, CustomerCallsQuery>({
      query: ({ phoneNumber, page, limit = 20 }) => ({ url: `/v1/customers/${encodeURIComponent(phoneNumber)}/calls`, params: { page, limit } }),
      transformResponse: (response: ApiEnvelope<PagedList<Transaction>>) => readPagedList(response.results),
      providesTags: listTags('Transaction'),
    }),
    // A mutation: each search is asked once, when submitted, and never cached.
    lookup: build.mutation<LookupResult, string>({
      query: (q) => ({ url: '/v1/transactions/lookup', params: { q } }),
      transformResponse: (response: ApiEnvelope<LookupResult>) => response.results,
    }),
    getMonthlyReport: build.query<MonthlyReportRow[], MonthlyReportQuery>({
      query: (filter) => ({ url: '/v1/reports/monthly', params: monthParams(filter) }),
      transformResponse: (response: ApiEnvelope<MonthlyReportRow[]>) => response.results,
    }),
    exportMonthlyReportCsv: build.mutation<CsvFile, MonthlyReportQuery>({
      query: (filter) => ({ url: '/v1/reports/monthly/export', params: monthParams(filter), responseHandler: 'text' }),
      transformResponse: (csv: string, meta) => csvFileOf(csv, meta, 'report.csv'),
    }),
  }),
});

export const { useGetCustomerQuery, useGetCustomerCallsQuery, useLookupMutation, useGetMonthlyReportQuery, useExportMonthlyReportCsvMutation } = customersApi;
