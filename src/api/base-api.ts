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
import { handOverTokens, tokensHandedOver } from './token-handover';

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

/** One refresh at a time in this tab: concurrent 401s wait for the refresh already under way. */
const refreshMutex = new Mutex();
/** The Web Lock the browser's tabs refresh under, so they refresh once between them. */
const REFRESH_LOCK = 'dialdesk-token-refresh';

/** Runs a refresh alone: in this tab (the mutex) and, where Web Locks exist, in every tab of the browser. */
async function refreshingAlone<T>(work: () => Promise<T>): Promise<T> {
  const release = await refreshMutex.acquire();
  try {
    const locks = globalThis.navigator?.locks;
    return locks ? await locks.request(REFRESH_LOCK, work) : await work();
  } finally {
    release();
  }
}

export type RefreshOutcome = { ok: true } | { ok: false; error: string };

interface RefreshAnswer {
  status?: unknown;
  accessToken?: unknown;
  refreshToken?: unknown;
}

/** SPEC §7: trade the refresh token for new tokens, unless another tab just did; callers run it alone. */
async function refreshTokens(api: BaseQueryApi): Promise<RefreshOutcome> {
  const session = sessionOf(api.getState);
  const refreshToken = session.refreshToken;
  if (!refreshToken) return { ok: false, error: 'No refresh token available' };
  const taken = await tokensHandedOver(session);
  if (taken) {
    api.dispatch(tokensRefreshed(taken));
    return { ok: true };
  }
  const result = await rawBaseQuery(
    { url: '/v1/auth/refresh-token', method: 'POST', body: { token: refreshToken } },
    api,
    {},
  );
  const answer = result.data as RefreshAnswer | undefined;
  if (!answer?.status || typeof answer.accessToken !== 'string') return { ok: false, error: 'Invalid refresh response' };
  const tokens = { accessToken: answer.accessToken, refreshToken: typeof answer.refreshToken === 'string' ? answer.refreshToken : refreshToken };
  api.dispatch(tokensRefreshed(tokens));
  await handOverTokens(refreshToken, tokens);
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

/** Refresh now, alone (used by the 5-minute token check); logs out on failure. */
export async function refreshSession(api: Pick<BaseQueryApi, 'dispatch' | 'getState'>): Promise<RefreshOutcome> {
  return refreshingAlone(async () => {
    const outcome = await refreshTokens(api as BaseQueryApi);
    if (!outcome.ok) endSession(api.dispatch);
    return outcome;
  });
}

/**
 * After a 401 to a call sent with `sentWith`: refresh, unless someone refreshed meanwhile (then the
 * current token is the one to retry with); a failed refresh ends the session. Also used by the live stream.
 */
export async function refreshAfterUnauthorized(api: Pick<BaseQueryApi, 'dispatch' | 'getState'>, sentWith: string): Promise<RefreshOutcome> {
  return refreshingAlone(async (): Promise<RefreshOutcome> => {
    const current = sessionOf(api.getState).accessToken;
    if (!current) return { ok: false, error: 'No refresh token available' };
    if (current !== sentWith) return { ok: true };
    const refreshed = await refreshTokens(api as BaseQueryApi);
    if (!refreshed.ok) endSession(api.dispatch);
    return refreshed;
  });
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

  const outcome = await refreshAfterUnauthorized(api, sentWith);
  if (!outcome.ok) {
    return { error: { status: 401, data: { status: false, message: outcome.error, errors: [] } }, meta: result.meta };
  }
  return rawBaseQuery(args, api, extra);
};

const TAG_TYPES = ['User', 'Profile', 'Category', 'ServiceCode', 'Content', 'Sms', 'Transaction', 'FailedTransaction', 'Dashboard', 'Campaign', 'Ranking', 'CampaignTransaction', 'ReconciliationStatement', 'Incident', 'ServiceCodeToday', 'Refund'] as const;

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
