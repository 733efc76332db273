import { StrictMode, startTransition, useEffect, useRef } from 'react';
import type { Root } from 'react-dom/client';
import { useSnackbar } from 'notistack';
import { persistStore, type Persistor } from 'redux-persist';
import type { LoginResults } from '../api/login-request';
import { App } from './app';
import { preloadScreen } from './routes';
import { signedIn } from '../state/session-slice';
import { setupStore } from '../state/store';

function rehydrated(persistor: Persistor): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!persistor.getState().bootstrapped) return false;
      unsubscribe();
      resolve();
      return true;
    };
    const unsubscribe = persistor.subscribe(check);
    check();
  });
}

/** Carries the light page's 'Logged in' over into the app's toasts, once (StrictMode runs effects twice). */
function LoggedInToast() {
  const { enqueueSnackbar } = useSnackbar();
  const shown = useRef(false);
  useEffect(() => {
    if (shown.current) return;
    shown.current = true;
    enqueueSnackbar('Logged in', { variant: 'success' });
  }, [enqueueSnackbar]);
  return null;
}

/**
 * Starts the full app (store, rehydration, router, every route) in `root`. With the session the
 * light sign-in page just got, it is stored before the first render, so the public route guard
 * sends the person home (/transactions, or the Afcon area).
 */
export async function bootApp(root: Root, session?: LoginResults): Promise<void> {
  if (!session) preloadScreen(window.location.pathname);
  const store = setupStore();
  const persistor = persistStore(store);
  if (session) {
    // After rehydration, or the (empty) stored session would overwrite the new one.
    await rehydrated(persistor);
    store.dispatch(signedIn(session));
    // Written before the first render, whose guard moves on at once: a reload of the page it
    // lands on must find the session.
    await persistor.flush();
  }
  // As a transition, React renders the app in slices of a few milliseconds and lets the browser
  // paint and answer input in between, instead of one long task (Lighthouse's blocking time).
  startTransition(() =>
    root.render(
      <StrictMode>
        <App store={store} persistor={persistor}>
          {session && <LoggedInToast />}
        </App>
      </StrictMode>,
    ),
  );
}
