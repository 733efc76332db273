import { StrictMode, startTransition } from 'react';
import type { Root } from 'react-dom/client';
import type { Persistor } from 'redux-persist';
import type { LoginResults } from '../api/login-request';
import { moduleExports } from '../components/lazy-import';
import { preloadScreen } from './screen-loaders';
import { yieldToMain } from './yield-to-main';

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

/**
 * Starts the full app (store, rehydration, router, every route) in `root`. With the session the
 * sign-in page just got, it is stored before the first render, so the public route guard
 * sends the person home (/transactions, or the Afcon area).
 */
export async function bootApp(root: Root, session?: LoginResults): Promise<void> {
  if (!session) preloadScreen(window.location.pathname);
  // The app's code is evaluated in three tasks (the store; the route table and shell; the
  // providers) rather than one: on a slow phone each blocks the page for about 100 ms instead of
  // 400 ms at once. The modules are in this chunk already (eager).
  const { setupStore } = moduleExports(await import(/* webpackMode: "eager" */ '../state/store'), 'setupStore');
  const { persistStore } = moduleExports(await import(/* webpackMode: "eager" */ 'redux-persist'), 'persistStore');
  const { signedIn } = moduleExports(await import(/* webpackMode: "eager" */ '../state/session-slice'), 'signedIn');
  const store = setupStore();
  const persistor = persistStore(store);
  await yieldToMain();
  await import(/* webpackMode: "eager" */ './routes');
  await yieldToMain();
  const { App, LoggedInToast } = moduleExports(await import(/* webpackMode: "eager" */ './app'), 'App');
  await yieldToMain();
  // Rendered once rehydrated, so AppProviders needs no PersistGate (see there).
  await rehydrated(persistor);
  if (session) {
    // After rehydration, or the (empty) stored session would overwrite the new one.
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
