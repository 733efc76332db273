import type { ApiEnvelope } from '../domain/entities';
import { baseApi } from './base-api';

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
    /** Not in SPEC: revokes the refresh token; the SPA clears storage whatever it answers. */
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

export const { useLogoutMutation, useForgotPasswordMutation, useResetPasswordMutation } = authApi;
