import type { ApiEnvelope, User } from '../domain/entities';
import { readPagedList, type PagedList } from '../domain/paged-list';
import type { CreatableRole } from '../domain/roles';
import { baseApi, listTags } from './base-api';

export interface UsersQuery {
  page: number;
  limit?: number;
}

export interface CreateUserRequest {
  userName: string;
  password: string;
  role: CreatableRole;
}

export interface UpdateUserRequest {
  id: string;
  userName: string;
  password?: string;
  isAfcon?: boolean;
}

/** `{ disabled }` alone: disables or enables any account but one's own. */
export interface SetUserDisabledRequest {
  id: string;
  disabled: boolean;
}

export const usersApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    /** Also the agents dropdown of other forms: getUsers({ page: 1, limit: 100 }). */
    getUsers: build.query<PagedList<User>, UsersQuery>({
      query: ({ page, limit }) => ({ url: '/v1/users', params: limit ? { page, limit } : { page } }),
      transformResponse: (response: ApiEnvelope<PagedList<User>>) => readPagedList(response.results),
      providesTags: listTags('User'),
    }),
    createUser: build.mutation<User, CreateUserRequest>({
      query: (body) => ({ url: '/v1/auth/create/other', method: 'POST', body }),
      transformResponse: (response: ApiEnvelope<User>) => response.results,
      invalidatesTags: [{ type: 'User', id: 'LIST' }],
    }),
    updateUser: build.mutation<User, UpdateUserRequest>({
      query: ({ id, ...body }) => ({ url: `/v1/users/${id}`, method: 'PATCH', body }),
      transformResponse: (response: ApiEnvelope<User>) => response.results,
      invalidatesTags: (_result, _error, { id }) => [{ type: 'User', id }],
    }),
    setUserDisabled: build.mutation<User, SetUserDisabledRequest>({
      query: ({ id, disabled }) => ({ url: `/v1/users/${id}`, method: 'PATCH', body: { disabled } }),
      transformResponse: (response: ApiEnvelope<User>) => response.results,
      invalidatesTags: (_result, _error, { id }) => [{ type: 'User', id }],
    }),
  }),
});

export const { useGetUsersQuery, useCreateUserMutation, useUpdateUserMutation, useSetUserDisabledMutation } = usersApi;
