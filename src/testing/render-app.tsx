import { CacheProvider } from '@emotion/react';
import { render, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation, type Location } from 'react-router-dom';
import { persistStore, type Persistor } from 'redux-persist';
import { apiUrl } from '../api/api-url';
import type { LoginResults } from '../api/login-request';
import { AppProviders, AppRoutes } from '../app/app';
import { signedIn } from '../state/session-slice';
import { setupStore, type AppStore } from '../state/store';
import { jsdomEmotionCache } from './jsdom-styles';
import { TEST_ADMIN } from './test-admin';

/** One cache per test file, as the app has one: rules written once stay in the document. */
const emotionCache = jsdomEmotionCache();

export interface Credentials {
  userName: string;
  password: string;
}

export interface RenderAppOptions {
  /** Where the memory router starts, e.g. '/users' or '/transactions?page=2'. Defaults to '/' (sign in). */
  url?: string;
  /** Signs this person in over the real API before rendering, e.g. TEST_ADMIN or createAgentViaApi(). */
  user?: Credentials;
}

/**
 * Renders the whole app as a person meets it: a fresh store (never shared between tests), the
 * real route table in a memory router, and the real API started by jest's global setup. Resolves
 * once the route overlay has ended and the screen's first loads have answered.
 *
 *   const { user, store } = await renderApp({ url: '/users', user: TEST_ADMIN });
 *   await user.click(await screen.findByRole('tab', { name: 'Create new account' }));
 *   const dialog = await screen.findByRole('dialog');
 *   await user.type(within(dialog).getByLabelText('Username'), 'x');
 *
 * Returns the store, `pathname()` (the router's current path), `query()` (its query as an object), `user` (a userEvent instance, not the credentials) and
 * Testing Library's render result. Screens load lazily: use findBy* for the first query.
 * Create your own data with unique names (uniqueName()); the API is shared by all web test files.
 */
export async function renderApp({ url = '/', user }: RenderAppOptions = {}) {
  localStorage.clear();
  const store = setupStore();
  const persistor = persistStore(store);
  await rehydrated(persistor);
  if (user) store.dispatch(signedIn(await sessionFor(user)));
  let current: Location | null = null;
  const utils = render(
    <CacheProvider value={emotionCache}>
      <AppProviders store={store} persistor={persistor}>
        <MemoryRouter initialEntries={[url]}>
          <AppRoutes />
          <LocationProbe onLocation={(location) => (current = location)} />
        </MemoryRouter>
      </AppProviders>
    </CacheProvider>,
  );
  await firstLoadEnded(store);
  /** The router's current path, e.g. expect(pathname()).toBe('/transactions'). */
  const pathname = () => current?.pathname ?? url;
  /** The router's current query as an object, e.g. expect(query()).toEqual({ page: '2' }) (a list's view). */
  const query = () => Object.fromEntries(new URLSearchParams(current?.search ?? url.split('?')[1] ?? ''));
  return { store, pathname, query, user: userEvent.setup({ delay: null }), ...utils };
}

function LocationProbe({ onLocation }: { onLocation: (location: Location) => void }) {
  onLocation(useLocation());
  return null;
}

/** How long the screen must stay loaded (no lazy code, no query on its way) to count as settled. */
const SETTLED_MS = 100;

/**
 * The first load has ended: no lazy screen or form still loading its code (PageFallback's
 * spinner) and no query on its way, for SETTLED_MS in a row, so that a query a screen starts
 * right after its code arrived is waited for too. The route overlay is off under test
 * (setup-web.ts), so nothing else is waited for.
 */
async function firstLoadEnded(store: AppStore): Promise<void> {
  let quietSince: number | undefined;
  // Longer than a query's wait: a file's first screen loads its lazy code, slow on a busy machine.
  await waitFor(() => {
    const loadingCode = document.querySelector('[aria-label="Loading"]') !== null;
    const querying = Object.values(store.getState().api.queries).some((query) => query?.status === 'pending');
    if (loadingCode || querying) {
      quietSince = undefined;
      throw new Error('The first load has not ended');
    }
    quietSince ??= Date.now();
    if (Date.now() - quietSince < SETTLED_MS) throw new Error('The first load may not have ended yet');
  }, { timeout: 30_000 });
}

function rehydrated(persistor: Persistor): Promise<void> {
  return new Promise((resolve) => {
    if (persistor.getState().bootstrapped) return resolve();
    const unsubscribe = persistor.subscribe(() => {
      if (persistor.getState().bootstrapped) {
        unsubscribe();
        resolve();
      }
    });
  });
}

/**
 * Sessions of this test file, one per person: signing in costs an argon2 hash on the server, and
 * access tokens live 15 minutes, longer than any file. Each test still gets a fresh store.
 */
const sessions = new Map<string, Promise<LoginResults>>();

/** A signed-in session of the person, made once per test file (tests of sign-in itself use loginViaApi). */
export function sessionFor(credentials: Credentials): Promise<LoginResults> {
  const key = JSON.stringify([credentials.userName, credentials.password]);
  let session = sessions.get(key);
  if (!session) {
    session = loginViaApi(credentials);
    // A failed sign-in is not kept: the next test asks again.
    session.catch(() => sessions.delete(key));
    sessions.set(key, session);
  }
  return session;
}

/** A name no other test (or test file) uses: prefix plus time and randomness. */
export function uniqueName(prefix = 'user'): string {
  return `${prefix}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

async function postJson<T>(path: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(apiUrl(path), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { results: T; message: string };
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${json.message}`);
  return json.results;
}

/** Signs in over plain HTTP (no store): tokens and the login user. */
export function loginViaApi(credentials: Credentials = TEST_ADMIN): Promise<LoginResults> {
  return postJson<LoginResults>('/v1/auth/login', credentials);
}

export interface TestAgent extends Credentials {
  id: string;
}

/** Creates a fresh agent as the test admin over the real API; sign in with it via renderApp({ user }). */
export async function createAgentViaApi(prefix = 'agent'): Promise<TestAgent> {
  const admin = await sessionFor(TEST_ADMIN);
  const credentials = { userName: uniqueName(prefix), password: 'agent-password-1' };
  const created = await postJson<{ _id: string }>('/v1/auth/create/other', { ...credentials, role: 'agent' }, admin.accessToken);
  return { id: created._id, ...credentials };
}
