import { Suspense, useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { PageFallback } from '../components/page-fallback';

/** Wraps every route: scroll to top on path change (SPEC §2), lazy-screen fallback. */
export function RootLayout() {
  const { pathname } = useLocation();
  useEffect(() => {
    // jsdom has no scrolling; browsers do.
    if (typeof window.scrollTo === 'function' && !navigator.userAgent.includes('jsdom')) window.scrollTo(0, 0);
  }, [pathname]);
  return (
    <Suspense fallback={<PageFallback />}>
      <Outlet />
    </Suspense>
  );
}
