import type { ApiEnvelope, User } from '../domain/entities';
import { baseApi } from './base-api';

export interface UpdateProfileRequest {
  userName: string;
  email?: string;
  myPassword: string;
  password?: string;
}

export const profileApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getProfile: build.query<User, void>({
      query: () => '/v1/auth/profile',
      transformResponse: (response: ApiEnvelope<User>) => response.results,
      providesTags: ['Profile'],
    }),
    updateProfile: build.mutation<User, UpdateProfileRequest>({
      query: (body) => ({ url: '/v1/users/update/profile', method: 'PATCH', body }),
      transformResponse: (response: ApiEnvelope<User>) => response.results,
      invalidatesTags: ['Profile', { type: 'User', id: 'LIST' }],
    }),
  }),
});

export const { useGetProfileQuery, useUpdateProfileMutation } = profileApi;
