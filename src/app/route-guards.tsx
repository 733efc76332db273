import { useEffect } from 'react';
import { Navigate, Outlet } from 'react-router-dom';
import { useAppSelector } from '../state/hooks';
import { selectSession } from '../state/session-slice';
import { homePathFor, useClearSession, useIsAuthenticated, useTokenCheck } from '../state/session-hooks';

/** SPEC §2: public routes send a signed-in person home, and drop a stale stored session. */
export function PublicRoute() {
  const authenticated = useIsAuthenticated();
  const session = useAppSelector(selectSession);
  const clearSession = useClearSession();
  const stale = !authenticated && Boolean(session.accessToken || session.refreshToken || session.user);
  useEffect(() => {
    if (stale) clearSession();
  }, [stale, clearSession]);
  if (authenticated) return <Navigate to={homePathFor(session.user)} replace />;
  return <Outlet />;
}

function SignedOut() {
  const clearSession = useClearSession();
  useEffect(() => clearSession(), [clearSession]);
  return <Navigate to="/" replace />;
}

function SignedIn() {
  useTokenCheck();
  return <Outlet />;
}

/** SPEC §2: private routes need a session; without one storage is cleared and the person goes to '/'. */
export function PrivateRoute() {
  return useIsAuthenticated() ? <SignedIn /> : <SignedOut />;
}
