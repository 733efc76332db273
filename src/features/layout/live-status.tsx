import { useEffect, useState } from 'react';
import { useStore } from 'react-redux';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import CloudOffIcon from '@mui/icons-material/CloudOff';
import { refreshAfterUnauthorized } from '../../api/base-api';
import { liveCacheUpdater } from '../../api/live-cache';
import { openLiveStream, type LiveConnectionState } from '../../api/live-stream';
import { visuallyHidden } from '../../components/visually-hidden';
import { useAppDispatch, useAppSelector } from '../../state/hooks';
import type { RootState } from '../../state/store';

/** Runs `work` once the page's load event has passed (at once, next task, when it already has). */
function afterPageLoad(work: () => void): () => void {
  if (document.readyState === 'complete') {
    const timer = setTimeout(work, 0);
    return () => clearTimeout(timer);
  }
  window.addEventListener('load', work, { once: true });
  return () => window.removeEventListener('load', work);
}

/**
 * Follows the live stream while someone is signed in, so the lists, the dashboard and the rankings
 * move by themselves; says so in the top bar while the stream is down. Nothing shows
 * while the first connection opens.
 */
export function LiveStatus() {
  const dispatch = useAppDispatch();
  const store = useStore<RootState>();
  const signedIn = useAppSelector((state) => Boolean(state.session.accessToken));
  const [state, setState] = useState<LiveConnectionState>('connecting');
  const theme = useTheme();
  const mobile = useMediaQuery(theme.breakpoints.down('sm'));

  useEffect(() => {
    if (!signedIn) return undefined;
    const cache = liveCacheUpdater({ dispatch, getState: store.getState });
    let close = () => {};
    const follow = () => {
      close = openLiveStream({
        token: () => store.getState().session.accessToken,
        renew: async (sentWith) => (await refreshAfterUnauthorized({ dispatch, getState: store.getState }, sentWith)).ok,
        onEvent: (name, data) => cache.event(name, data),
        onOpen: (reconnected) => {
          if (reconnected) cache.caughtUp();
        },
        onState: setState,
      });
    };
    // The stream holds one of the browser's few connections to the origin (HTTP/1.1): opened once
    // the page has loaded, it never holds back the screen's own code and data on a first visit.
    const cancelWait = afterPageLoad(follow);
    return () => {
      cancelWait();
      close();
      cache.stop();
      setState('connecting');
    };
  }, [signedIn, dispatch, store]);

  const offline = signedIn && state === 'offline';
  return (
    // Present from the start, so the change is announced when it comes.
    <Box role="status" data-live={state} sx={{ display: 'flex', alignItems: 'center' }}>
      {offline && (
        <Chip
          size="small"
          icon={<CloudOffIcon />}
          label={
            <>
              Offline
              <Box component="span" sx={mobile ? visuallyHidden : undefined}>
                {' — reconnecting'}
              </Box>
            </>
          }
          title="Live updates are paused until the connection is back; Refresh still reads the latest."
          // Dark text on a light amber reads on the bar's blue and on its dark-mode grey (white on amber would not).
          sx={{ bgcolor: 'warning.light', color: 'common.black', '& .MuiChip-icon': { color: 'inherit' } }}
        />
      )}
    </Box>
  );
}
