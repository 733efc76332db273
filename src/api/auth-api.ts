import type { ApiEnvelope } from '../domain/entities';
import { baseApi } from './base-api';
import type { LoginRequest, LoginResults } from './login-request';

export type { LoginRequest, LoginResults };

export interface ForgotPasswordRequest {
  email: string;
  redirectUrl: string;
}

export interface ResetPasswordRequest {
  token: string;
  password: string;
}

export const authApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    login: build.mutation<LoginResults, LoginRequest>({
      query: (body) => ({ url: '/v1/auth/login', method: 'POST', body }),
      transformResponse: (response: ApiEnvelope<LoginResults>) => response.results,
    }),
    /** Ours (issue 2): revokes the refresh token; the SPA clears storage whatever it answers. */
    logout: build.mutation<void, { token: string }>({
      query: (body) => ({ url: '/v1/auth/logout', method: 'POST', body }),
    }),
    forgotPassword: build.mutation<ApiEnvelope<null>, ForgotPasswordRequest>({
      query: (body) => ({ url: '/v1/auth/forgot-password', method: 'POST', body }),
    }),
    resetPassword: build.mutation<ApiEnvelope<null>, ResetPasswordRequest>({
      query: ({ token, password }) => ({
        url: `/v1/auth/reset-forgot-password/${encodeURIComponent(token)}`,
        method: 'POST',
        body: { password },
      }),
    }),
  }),
});

export const { useLoginMutation, useLogoutMutation, useForgotPasswordMutation, useResetPasswordMutation } = authApi;
