import type { ApiEnvelope, ServiceCode } from '../domain/entities';
import { readPagedList, type PagedList } from '../domain/paged-list';
import type { ServiceCodeToday } from '../domain/service-codes';
import { baseApi, listTags } from './base-api';

export interface ServiceCodeRequest {
  name: string;
  description?: string | null;
  /** The category's id. */
  category: string;
}

export const serviceCodesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getServiceCodes: build.query<PagedList<ServiceCode>, { page: number; limit?: number }>({
      query: ({ page, limit }) => ({ url: '/v1/short-code', params: limit ? { page, limit } : { page } }),
      transformResponse: (response: ApiEnvelope<PagedList<ServiceCode>>) => readPagedList(response.results),
      providesTags: listTags('ServiceCode'),
    }),
    /** Every code the caller reads, in natural order, with its category and today's calls and failed share (the switcher). */
    getServiceCodesToday: build.query<ServiceCodeToday[], void>({
      query: () => '/v1/short-code/today',
      transformResponse: (response: ApiEnvelope<ServiceCodeToday[]>) => response.results,
      providesTags: [{ type: 'ServiceCodeToday', id: 'LIST' }],
    }),
    createServiceCode: build.mutation<ServiceCode, ServiceCodeRequest>({
      query: (body) => ({ url: '/v1/short-code', method: 'POST', body }),
      transformResponse: (response: ApiEnvelope<ServiceCode>) => response.results,
      invalidatesTags: [{ type: 'ServiceCode', id: 'LIST' }, { type: 'ServiceCodeToday', id: 'LIST' }],
    }),
    updateServiceCode: build.mutation<ServiceCode, ServiceCodeRequest & { id: string }>({
      query: ({ id, ...body }) => ({ url: `/v1/short-code/${id}`, method: 'PATCH', body }),
      transformResponse: (response: ApiEnvelope<ServiceCode>) => response.results,
      invalidatesTags: (_result, _error, { id }) => [{ type: 'ServiceCode', id }, { type: 'ServiceCodeToday', id: 'LIST' }],
    }),
  }),
});

export const { useGetServiceCodesQuery, useGetServiceCodesTodayQuery, useCreateServiceCodeMutation, useUpdateServiceCodeMutation } = serviceCodesApi;
