import type { CategoryLevel } from '../domain/category-levels';
import type { ApiEnvelope, Category } from '../domain/entities';
import { readPagedList, type PagedList } from '../domain/paged-list';
import { baseApi, listTags } from './base-api';

export interface CategoriesQuery {
  page: number;
  limit?: number;
}

/** The category form as sent: the agent's id and one price per level (null when left empty). */
export type CategoryRequest = {
  name: string;
  description?: string | null;
  user: string;
} & Partial<Record<CategoryLevel, number | null>>;

export const categoriesApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** Also the category dropdown of other forms: getCategories({ page: 1, limit: 100 }). */
    getCategories: build.query<PagedList<Category>, CategoriesQuery>({
      query: ({ page, limit }) => ({ url: '/v1/category', params: limit ? { page, limit } : { page } }),
      transformResponse: (response: ApiEnvelope<PagedList<Category>>) => readPagedList(response.results),
      providesTags: listTags('Category'),
    }),
    createCategory: build.mutation<Category, CategoryRequest>({
      query: (body) => ({ url: '/v1/category', method: 'POST', body }),
      transformResponse: (response: ApiEnvelope<Category>) => response.results,
      invalidatesTags: [{ type: 'Category', id: 'LIST' }],
    }),
    updateCategory: build.mutation<Category, CategoryRequest & { id: string }>({
      query: ({ id, ...body }) => ({ url: `/v1/category/${id}`, method: 'PATCH', body }),
      transformResponse: (response: ApiEnvelope<Category>) => response.results,
      // Service codes and contents show the category's name and agent too.
      invalidatesTags: (_result, _error, { id }) => [
        { type: 'Category', id },
        { type: 'ServiceCode', id: 'LIST' },
        { type: 'Content', id: 'LIST' },
      ],
    }),
  }),
});

export const { useGetCategoriesQuery, useCreateCategoryMutation, useUpdateCategoryMutation } = categoriesApi;
