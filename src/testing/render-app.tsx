import { configure, render, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation, type Location } from 'react-router-dom';
import { persistStore, type Persistor } from 'redux-persist';
import { apiUrl } from '../api/api-url';
import { authApi, type LoginResults } from '../api/auth-api';
import { AppProviders, AppRoutes } from '../app/app';
import { ROUTE_OVERLAY_MS } from '../app/root-layout';
import { signedIn } from '../state/session-slice';
import { setupStore, type AppStore } from '../state/store';
import { TEST_ADMIN } from './test-admin';

// Lazy screens load their modules on first use under jest, which can take a few seconds.
configure({ asyncUtilTimeout: 8000 });
jest.setTimeout(60_000);

export interface Credentials {
  userName: string;
  password: string;
}

export interface RenderAppOptions {
  /** Where the memory router starts, e.g. '/users'. Defaults to '/' (sign in). */
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
 * Returns the store, `pathname()` (the router's current path), `user` (a userEvent instance, not the credentials) and
 * Testing Library's render result. Screens load lazily: use findBy* for the first query.
 * Create your own data with unique names (uniqueName()); the API is shared by all web test files.
 */
export async function renderApp({ url = '/', user }: RenderAppOptions = {}) {
  localStorage.clear();
  const store = setupStore();
  const persistor = persistStore(store);
  await rehydrated(persistor);
  if (user) await signIn(store, user);
  let current: Location | null = null;
  const utils = render(
    <AppProviders store={store} persistor={persistor}>
      <MemoryRouter initialEntries={[url]}>
        <AppRoutes />
        <LocationProbe onLocation={(location) => (current = location)} />
      </MemoryRouter>
    </AppProviders>,
  );
  await firstLoadEnded(store);
  /** The router's current path, e.g. expect(pathname()).toBe('/transactions'). */
  const pathname = () => current?.pathname ?? url;
  return { store, pathname, user: userEvent.setup({ delay: null }), ...utils };
}

function LocationProbe({ onLocation }: { onLocation: (location: Location) => void }) {
  onLocation(useLocation());
  return null;
}

/** The overlay's time, then no query still on its way (lazy screens start theirs meanwhile). */
async function firstLoadEnded(store: AppStore): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ROUTE_OVERLAY_MS));
  await waitFor(() => {
    const loading = Object.values(store.getState().api.queries).some((query) => query?.status === 'pending');
    if (loading) throw new Error('The first load has not ended');
  });
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

/** Signs in through the store's own login mutation and keeps the session, as the sign-in screen does. */
export async function signIn(store: AppStore, credentials: Credentials): Promise<LoginResults> {
  const results = await store.dispatch(authApi.endpoints.login.initiate(credentials)).unwrap();
  store.dispatch(signedIn(results));
  return results;
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
  const admin = await loginViaApi(TEST_ADMIN);
  const credentials = { userName: uniqueName(prefix), password: 'agent-password-1' };
  const created = await postJson<{ _id: string }>('/v1/auth/create/other', { ...credentials, role: 'agent' }, admin.accessToken);
  return { id: created._id, ...credentials };
}
