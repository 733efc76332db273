import type { ApiEnvelope, User } from '../domain/entities';
import type { TwoFactorSetup } from '../domain/two-factor';
import { baseApi } from './base-api';

export interface EnableTwoFactorRequest {
  code: string;
}

export interface DisableTwoFactorRequest {
  password: string;
  code?: string;
  recoveryCode?: string;
}

/** Two-factor sign-in of the signed-in account (its profile), and an admin's reset of another's. */
export const twoFactorApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    setupTwoFactor: build.mutation<TwoFactorSetup, void>({
      query: () => ({ url: '/v1/auth/2fa/setup', method: 'POST', body: {} }),
      transformResponse: (response: ApiEnvelope<TwoFactorSetup>) => response.results,
    }),
    enableTwoFactor: build.mutation<string[], EnableTwoFactorRequest>({
      query: (body) => ({ url: '/v1/auth/2fa/enable', method: 'POST', body }),
      transformResponse: (response: ApiEnvelope<{ recoveryCodes: string[] }>) => response.results.recoveryCodes,
      invalidatesTags: ['Profile', { type: 'User', id: 'LIST' }],
    }),
    disableTwoFactor: build.mutation<null, DisableTwoFactorRequest>({
      query: (body) => ({ url: '/v1/auth/2fa/disable', method: 'POST', body }),
      transformResponse: () => null,
      invalidatesTags: ['Profile', { type: 'User', id: 'LIST' }],
    }),
    resetUserTwoFactor: build.mutation<User, { id: string }>({
      query: ({ id }) => ({ url: `/v1/users/${id}/2fa/reset`, method: 'POST', body: {} }),
      transformResponse: (response: ApiEnvelope<User>) => response.results,
      invalidatesTags: (_result, _error, { id }) => [{ type: 'User', id }],
    }),
  }),
});

export const { useSetupTwoFactorMutation, useEnableTwoFactorMutation, useDisableTwoFactorMutation, useResetUserTwoFactorMutation } = twoFactorApi;
