import type { DashboardSummary } from '../domain/dashboard-summary';
import type { ApiEnvelope } from '../domain/entities';
import { baseApi } from './base-api';

export interface SummaryQuery {
  name?: string;
  date?: string;
}

export const dashboardApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getDashboardSummary: build.query<DashboardSummary, SummaryQuery>({
      query: ({ name, date }) => ({ url: '/v1/dashboard/summary', params: { ...(name ? { name } : {}), ...(date ? { date } : {}) } }),
      transformResponse: (response: ApiEnvelope<DashboardSummary>) => response.results,
      providesTags: [{ type: 'Dashboard', id: 'SUMMARY' }],
    }),
  }),
});

export const { useGetDashboardSummaryQuery } = dashboardApi;
