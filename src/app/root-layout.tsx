import { Suspense, useEffect, useState } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import Backdrop from '@mui/material/Backdrop';
import CircularProgress from '@mui/material/CircularProgress';
import { routeOverlayMs } from '../components/motion';
import { PageFallback } from '../components/page-fallback';

/** Keyed by the path, so each route entry mounts a fresh overlay that starts open (for SPEC's 1000 ms; not at all when the tests set 0). */
function RouteLoadingOverlay() {
  const [ms] = useState(routeOverlayMs);
  const [open, setOpen] = useState(ms > 0);
  useEffect(() => {
    if (ms <= 0) return undefined;
    const timer = setTimeout(() => setOpen(false), ms);
    return () => clearTimeout(timer);
  }, [ms]);
  return (
    <Backdrop open={open} sx={{ zIndex: (theme) => theme.zIndex.drawer + 2, color: '#fff' }} data-testid="route-overlay">
      {/* Only while open: a closed Backdrop stays mounted, and a hidden spinner would still be named 'Loading'. */}
      {open ? <CircularProgress color="inherit" aria-label="Loading" /> : null}
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
