import type { CategoryLevel } from '../domain/category-levels';
import type { ApiEnvelope, Content } from '../domain/entities';
import { readPagedList, type PagedList } from '../domain/paged-list';
import { baseApi, listTags } from './base-api';

/** SPEC §7 payload of a content (ticket). */
export interface ContentRequest {
  name?: string | null;
  description?: string | null;
  category: string;
  categoryLevel: CategoryLevel;
  message: string;
  active?: boolean;
}

export const contentsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getContents: build.query<PagedList<Content>, { page: number }>({
      query: ({ page }) => ({ url: '/v1/ticket', params: { page } }),
      transformResponse: (response: ApiEnvelope<PagedList<Content>>) => readPagedList(response.results),
      providesTags: listTags('Content'),
    }),
    createContent: build.mutation<Content, ContentRequest>({
      query: (body) => ({ url: '/v1/ticket', method: 'POST', body }),
      transformResponse: (response: ApiEnvelope<Content>) => response.results,
      invalidatesTags: [{ type: 'Content', id: 'LIST' }],
    }),
    updateContent: build.mutation<Content, ContentRequest & { id: string }>({
      query: ({ id, ...body }) => ({ url: `/v1/ticket/${id}`, method: 'PATCH', body }),
      transformResponse: (response: ApiEnvelope<Content>) => response.results,
      // Activating one content deactivates another row of the list, so the whole list reloads.
      invalidatesTags: [{ type: 'Content', id: 'LIST' }],
    }),
  }),
});

export const { useGetContentsQuery, useCreateContentMutation, useUpdateContentMutation } = contentsApi;
