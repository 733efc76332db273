import { Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import Backdrop from '@mui/material/Backdrop';
import CircularProgress from '@mui/material/CircularProgress';
import { PageFallback } from '../components/page-fallback';

/** SPEC §9: every route entry shows the loading overlay for 1000 ms. */
export const ROUTE_OVERLAY_MS = 1000;

/** Keyed by the path, so each route entry mounts a fresh overlay that starts open. */
function RouteLoadingOverlay() {
  const [open, setOpen] = useState(true);
  useEffect(() => {
    const timer = setTimeout(() => setOpen(false), ROUTE_OVERLAY_MS);
    return () => clearTimeout(timer);
  }, []);
  return (
    <Backdrop open={open} sx={{ zIndex: (theme) => theme.zIndex.drawer + 2, color: '#fff' }} data-testid="route-overlay">
      <CircularProgress color="inherit" aria-label="Loading" />
    </Backdrop>
  );
}

/** Wraps every route: scroll to top on path change (SPEC §2), overlay, lazy-screen fallback. */
export function RootLayout() {
  const { pathname } = useLocation();
  useEffect(() => {
    // jsdom has no scrolling; browsers do.
    if (typeof window.scrollTo === 'function' && !navigator.userAgent.includes('jsdom')) window.scrollTo(0, 0);
  }, [pathname]);
  return (
    <>
      <RouteLoadingOverlay key={pathname} />
      <Suspense fallback={<PageFallback />}>
        <Outlet />
      </Suspense>
    </>
  );
}
