import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { LoginUser } from '../domain/entities';
import { isTokenExpired } from '../domain/token';

/** The signed-in session, persisted so a reload keeps the person signed in (SPEC §4). */
export interface SessionState {
  accessToken: string | null;
  refreshToken: string | null;
  user: LoginUser | null;
}

export interface Tokens {
  accessToken: string;
  refreshToken: string;
}

const initialState: SessionState = { accessToken: null, refreshToken: null, user: null };

const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    signedIn: (_state, { payload: { twoFactorSetupRequired, ...session } }: PayloadAction<Tokens & { user: LoginUser; twoFactorSetupRequired?: boolean }>) => ({
      accessToken: session.accessToken,
      refreshToken: session.refreshToken,
      // Until two-factor is on, such a user reaches only its profile (menu.ts): the server refuses the rest.
      user: twoFactorSetupRequired ? { ...session.user, twoFactorSetupRequired: true } : session.user,
    }),
    /** Two-factor sign-in is on: the rest of the console opens. */
    twoFactorEnrolled: (state) => {
      if (state.user) delete state.user.twoFactorSetupRequired;
    },
    tokensRefreshed: (state, action: PayloadAction<Tokens>) => {
      state.accessToken = action.payload.accessToken;
      state.refreshToken = action.payload.refreshToken;
    },
    /** Dispatched on logout and failed refresh; the root reducer also drops the API cache on it. */
    loggedOut: () => initialState,
  },
  selectors: {
    selectSession: (state) => state,
    selectSessionUser: (state) => state.user,
    selectAccessToken: (state) => state.accessToken,
    selectRefreshToken: (state) => state.refreshToken,
  },
});

export const { signedIn, tokensRefreshed, loggedOut, twoFactorEnrolled } = sessionSlice.actions;
export const { selectSession, selectSessionUser, selectAccessToken, selectRefreshToken } = sessionSlice.selectors;
export const sessionReducer = sessionSlice.reducer;

/** SPEC §4: authenticated means a non-expired access token exists. */
export function isAuthenticated(session: Pick<SessionState, 'accessToken'>, nowMs = Date.now()): boolean {
  return !isTokenExpired(session.accessToken, nowMs);
}

/** SPEC §2: the first service code name from the login data, or 'N/A'. */
export function sessionServiceCode(user: LoginUser | null): string {
  return user?.serviceCode?.[0]?.name ?? 'N/A';
}
