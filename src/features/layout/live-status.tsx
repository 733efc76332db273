import { useEffect, useState } from 'react';
import { useStore } from 'react-redux';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import useMediaQuery from '@mui/material/useMediaQuery';
import { useTheme } from '@mui/material/styles';
import CloudOffIcon from '@mui/icons-material/CloudOff';
import { refreshAfterUnauthorized } from '../../api/base-api';
import { liveCacheUpdater } from '../../api/live-cache';
import { followedLiveCodes, liveCodesCover, livePath, livePathFor, onLivePathChange } from '../../api/live-follow';
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

/** How long the followed codes must hold still before the stream is opened again for them. */
const REFOLLOW_MS = 300;

/**
 * Follows the live stream while someone is signed in, so the lists, the dashboard and the rankings
 * move by themselves (issue 23); says so in the top bar while the stream is down. Nothing shows
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
    interface Followed {
      close: () => void;
      codes: string[] | undefined;
      opened: boolean;
    }
    /** The newest stream, and the older ones still open until it is. */
    let current: Followed | undefined;
    const retiring = new Set<Followed>();
    const follow = () => {
      const previous = current;
      if (previous) retiring.add(previous);
      const older = [...retiring];
      const codes = followedLiveCodes();
      // An older stream stays open until the new one is: when it was open and carried every code the
      // new one does, nothing was missed in between (a screen narrowing 'everything' to its code reads
      // nothing again); otherwise (a switch to another code) what is shown is read again.
      const missedNothing = previous !== undefined && previous.opened && liveCodesCover(previous.codes, codes);
      const stream: Followed = { codes, opened: false, close: () => {} };
      stream.close = openLiveStream({
        path: () => livePathFor(codes),
        token: () => store.getState().session.accessToken,
        renew: async (sentWith) => (await refreshAfterUnauthorized({ dispatch, getState: store.getState }, sentWith)).ok,
        onEvent: (name, data) => cache.event(name, data),
        onOpen: (reconnected) => {
          stream.opened = true;
          if (reconnected) return cache.caughtUp();
          if (older.length === 0) return undefined;
          for (const old of older) {
            old.close();
            retiring.delete(old);
          }
          if (!missedNothing) cache.caughtUp();
          return undefined;
        },
        onState: setState,
      });
      current = stream;
    };
    const close = () => {
      for (const stream of [...retiring, ...(current ? [current] : [])]) stream.close();
      retiring.clear();
      current = undefined;
    };
    // The screens now follow other codes: a stream is opened for them once they settle (a code
    // switch unmounts one list and mounts the next within a render or two).
    let refollowTimer: ReturnType<typeof setTimeout> | undefined;
    const stopWatching = onLivePathChange(() => {
      if (!current) return;
      clearTimeout(refollowTimer);
      refollowTimer = setTimeout(() => {
        if (!current || livePathFor(current.codes) === livePath()) return;
        follow();
      }, REFOLLOW_MS);
    });
    // The stream holds one of the browser's few connections to the origin (HTTP/1.1): opened once
    // the page has loaded, it never holds back the screen's own code and data on a first visit.
    const cancelWait = afterPageLoad(follow);
    return () => {
      cancelWait();
      stopWatching();
      clearTimeout(refollowTimer);
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
