import type { ApiEnvelope, ServiceCode } from '../domain/entities';
import { readPagedList, type PagedList } from '../domain/paged-list';
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
    createServiceCode: build.mutation<ServiceCode, ServiceCodeRequest>({
      query: (body) => ({ url: '/v1/short-code', method: 'POST', body }),
      transformResponse: (response: ApiEnvelope<ServiceCode>) => response.results,
      invalidatesTags: [{ type: 'ServiceCode', id: 'LIST' }],
    }),
    updateServiceCode: build.mutation<ServiceCode, ServiceCodeRequest & { id: string }>({
      query: ({ id, ...body }) => ({ url: `/v1/short-code/${id}`, method: 'PATCH', body }),
      transformResponse: (response: ApiEnvelope<ServiceCode>) => response.results,
      invalidatesTags: (_result, _error, { id }) => [{ type: 'ServiceCode', id }],
    }),
  }),
});

export const { useGetServiceCodesQuery, useCreateServiceCodeMutation, useUpdateServiceCodeMutation } = serviceCodesApi;
