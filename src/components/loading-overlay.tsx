import { useEffect, useState } from 'react';
import Backdrop from '@mui/material/Backdrop';
import CircularProgress from '@mui/material/CircularProgress';
import { routeOverlayMs } from './motion';

/**
 * SPEC §9's loading overlay, for 1000 ms from its mount (not at all when the tests set 0). The
 * private shell mounts it once, after sign-in or a reload: a sidebar click shows the list's own
 * loading row instead (DESIGN §5).
 */
export function LoadingOverlay() {
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
