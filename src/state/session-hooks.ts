import { useCallback, useEffect } from 'react';
import { useStore } from 'react-redux';
import { useNavigate } from 'react-router-dom';
import { useSnackbar } from 'notistack';
import { endSession, refreshSession } from '../api/base-api';
import { useLogoutMutation } from '../api/auth-api';
import { isTokenExpired } from '../domain/token';
import { useAppDispatch, useAppSelector } from './hooks';
import { isAuthenticated } from './session-slice';
import type { RootState } from './store';

/** SPEC §4 and §9: how often a signed-in app checks its access token. */
export const TOKEN_CHECK_INTERVAL_MS = 300_000;

/** SPEC §4: authenticated while a non-expired access token is stored. */
export function useIsAuthenticated(): boolean {
  return useAppSelector((state) => isAuthenticated(state.session));
}

/** Forget the session and everything stored locally (SPEC §2 and §4). */
export function useClearSession(): () => void {
  const dispatch = useAppDispatch();
  return useCallback(() => endSession(dispatch), [dispatch]);
}

/**
 * SPEC §4: while signed in, every 5 minutes refresh an expired token; when a refresh fails the
 * check stops and storage is cleared (refreshSession does that). A token that would expire
 * before the next check counts as expired, so a quiet session never lapses between checks.
 */
export function useTokenCheck(intervalMs = TOKEN_CHECK_INTERVAL_MS): void {
  const store = useStore<RootState>();
  useEffect(() => {
    const timer = setInterval(async () => {
      const { accessToken } = store.getState().session;
      if (!isTokenExpired(accessToken, Date.now() + intervalMs)) return;
      const outcome = await refreshSession({ dispatch: store.dispatch, getState: store.getState });
      if (!outcome.ok) clearInterval(timer);
    }, intervalMs);
    return () => clearInterval(timer);
  }, [store, intervalMs]);
}

/** SPEC §4: Logout revokes the refresh token, then whatever the answer: toast, clear, go to '/'. */
export function useLogout(): () => Promise<void> {
  const store = useStore<RootState>();
  const navigate = useNavigate();
  const { enqueueSnackbar } = useSnackbar();
  const [logout] = useLogoutMutation();
  return useCallback(async () => {
    const token = store.getState().session.refreshToken;
    try {
      if (token) await logout({ token }).unwrap();
    } catch {
      // The session ends locally even when the server cannot be told.
    }
    enqueueSnackbar('Logged out', { variant: 'info' });
    endSession(store.dispatch);
    navigate('/', { replace: true });
  }, [store, logout, enqueueSnackbar, navigate]);
}

/** Where a person lands after signing in (SPEC §2: isAfcon users go to the Afcon area). */
export function homePathFor(user: { isAfcon?: boolean; twoFactorSetupRequired?: boolean } | null | undefined): string {
  if (user?.twoFactorSetupRequired) return '/account';
  return user?.isAfcon ? '/afcon/2024/transactions' : '/transactions';
}
