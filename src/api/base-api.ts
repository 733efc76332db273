import {
  createApi,
  fetchBaseQuery,
  type BaseQueryApi,
  type BaseQueryFn,
  type FetchArgs,
  type FetchBaseQueryError,
  type FetchBaseQueryMeta,
} from '@reduxjs/toolkit/query/react';
import { Mutex } from 'async-mutex';
import { loggedOut, tokensRefreshed, type SessionState } from '../state/session-slice';
import { apiUrl } from './api-url';

type SessionRoot = { session: SessionState };

const sessionOf = (getState: () => unknown): SessionState => (getState() as SessionRoot).session;

type ReauthBaseQuery = BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError, object, FetchBaseQueryMeta>;

// Built per call: the web tests set the API origin after modules load.
const rawBaseQuery: ReauthBaseQuery = (args, api, extra) =>
  fetchBaseQuery({
    baseUrl: apiUrl(''),
    prepareHeaders: (headers, { getState }) => {
      const token = sessionOf(getState).accessToken;
      if (token) headers.set('Authorization', `Bearer ${token}`);
      return headers;
    },
  })(args, api, extra);

/** One refresh at a time: concurrent 401s wait for the refresh already under way. */
const refreshMutex = new Mutex();

export type RefreshOutcome = { ok: true } | { ok: false; error: string };

interface RefreshAnswer {
  status?: unknown;
  accessToken?: unknown;
  refreshToken?: unknown;
}

/** SPEC §7: trade the refresh token for new tokens; callers hold the mutex. */
async function refreshTokens(api: BaseQueryApi): Promise<RefreshOutcome> {
  const refreshToken = sessionOf(api.getState).refreshToken;
  if (!refreshToken) return { ok: false, error: 'No refresh token available' };
  const result = await rawBaseQuery(
    { url: '/v1/auth/refresh-token', method: 'POST', body: { token: refreshToken } },
    api,
    {},
  );
  const answer = result.data as RefreshAnswer | undefined;
  if (!answer?.status || typeof answer.accessToken !== 'string') return { ok: false, error: 'Invalid refresh response' };
  api.dispatch(
    tokensRefreshed({
      accessToken: answer.accessToken,
      refreshToken: typeof answer.refreshToken === 'string' ? answer.refreshToken : refreshToken,
    }),
  );
  return { ok: true };
}

/**
 * Any refresh failure ends the session: state and local storage are cleared, and the private
 * route guard, seeing no session, sends the person to '/'.
 */
export function endSession(dispatch: BaseQueryApi['dispatch']): void {
  dispatch(loggedOut());
  globalThis.localStorage?.clear();
}

/** Refresh now under the shared mutex (used by the 5-minute token check); logs out on failure. */
export async function refreshSession(api: Pick<BaseQueryApi, 'dispatch' | 'getState'>): Promise<RefreshOutcome> {
  const release = await refreshMutex.acquire();
  try {
    const outcome = await refreshTokens(api as BaseQueryApi);
    if (!outcome.ok) endSession(api.dispatch);
    return outcome;
  } finally {
    release();
  }
}

/**
 * SPEC §4: a 401 triggers one refresh and one replay. The token a call was sent with tells
 * whether someone else already refreshed meanwhile, so three concurrent 401s share one refresh.
 */
export const baseQueryWithReauth: ReauthBaseQuery = async (
  args,
  api,
  extra,
) => {
  await refreshMutex.waitForUnlock();
  const sentWith = sessionOf(api.getState).accessToken;
  const result = await rawBaseQuery(args, api, extra);
  // Calls made without a session (sign in, forgot password) answer 401 for their own reasons.
  if (result.error?.status !== 401 || !sentWith) return result;

  const release = await refreshMutex.acquire();
  let outcome: RefreshOutcome = { ok: true };
  try {
    const current = sessionOf(api.getState).accessToken;
    if (!current) outcome = { ok: false, error: 'No refresh token available' };
    else if (current === sentWith) {
      outcome = await refreshTokens(api);
      if (!outcome.ok) endSession(api.dispatch);
    }
  } finally {
    release();
  }
  if (!outcome.ok) {
    return { error: { status: 401, data: { status: false, message: outcome.error, errors: [] } }, meta: result.meta };
  }
  return rawBaseQuery(args, api, extra);
};

const TAG_TYPES = ['User', 'Profile', 'Category', 'ServiceCode', 'Content', 'Sms', 'Transaction', 'FailedTransaction', 'Dashboard', 'Campaign', 'Ranking', 'CampaignTransaction', 'ReconciliationStatement'] as const;

export type ApiTagType = (typeof TAG_TYPES)[number];

/**
 * What a paged list provides (STYLE): `{ type, id: 'LIST' }`, which a create invalidates, plus one
 * `{ type, id }` per row; `{ list: false }` for a result (a search) that no create changes.
 */
export function listTags<T extends ApiTagType>(type: T, { list = true } = {}) {
  return (result: { docs: { _id: string }[] } | undefined) => [
    ...(list ? [{ type, id: 'LIST' }] : []),
    ...(result?.docs ?? []).map((row) => ({ type, id: row._id })),
  ];
}

/** The one API of the SPA; resource files add their endpoints with injectEndpoints. */
export const baseApi = createApi({
  reducerPath: 'api',
  baseQuery: baseQueryWithReauth,
  tagTypes: TAG_TYPES,
  endpoints: () => ({}),
});
