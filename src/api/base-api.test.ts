import { REFRESHED_TOKENS_ITEM } from '../state/persisted-storage';
import { signedIn } from '../state/session-slice';
import { setupStore } from '../state/store';
import { loginViaApi } from '../testing/render-app';
import { refreshSession } from './base-api';
import { profileApi } from './profile-api';
import { usersApi } from './users-api';

/** An access token the server refuses (bad signature, exp in the past), as a stale one would be. */
function expiredLookingToken(): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 'x', exp: Math.floor(Date.now() / 1000) - 60 })}.c2lnbmF0dXJl`;
}

/** The session's own access token with a broken signature: refused by the server, still naming its session. */
const brokenSignature = (token: string) => `${token.slice(0, -4)}${token.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;

const profileChange = { userName: 'admin', myPassword: 'admin-password-1' };

function refreshCalls(spy: jest.SpyInstance): number {
  return spy.mock.calls.filter(([input]) => String(input instanceof Request ? input.url : input).includes('/v1/auth/refresh-token'))
    .length;
}

type Tab = {
  store: ReturnType<typeof setupStore>;
  getProfile: typeof profileApi.endpoints.getProfile.initiate;
  close: () => void;
};

/** A browser tab: its own copy of the SPA's modules (its own refresh mutex and token listener), signed in to `login`. */
async function openTab(login: Awaited<ReturnType<typeof loginViaApi>>): Promise<Tab> {
  let tab: Tab | undefined;
  await jest.isolateModulesAsync(async () => {
    const [store, session, profile, handover] = await Promise.all([
      import('../state/store'),
      import('../state/session-slice'),
      import('./profile-api'),
      import('./token-handover'),
    ]);
    const tabStore = store.setupStore();
    tabStore.dispatch(session.signedIn({ ...login, accessToken: brokenSignature(login.accessToken) }));
    tab = { store: tabStore, getProfile: profile.profileApi.endpoints.getProfile.initiate, close: handover.listenForHandedOverTokens() };
  });
  if (!tab) throw new Error('the tab did not open');
  return tab;
}

/** The browser's Web Locks as its tabs share them: one holder of a name at a time, and query() in step with the grants. */
function sharedWebLocks() {
  const turns = new Map<string, Promise<unknown>>();
  const held = new Set<string>();
  const request = (name: string, work: () => Promise<unknown>) => {
    const turn = (turns.get(name) ?? Promise.resolve()).then(async () => {
      held.add(name);
      try {
        return await work();
      } finally {
        held.delete(name);
      }
    });
    turns.set(name, turn.catch(() => undefined));
    return turn;
  };
  return { request, query: async () => ({ held: [...held].map((name) => ({ name, mode: 'exclusive' })), pending: [] }) };
}

describe('re-auth base query', () => {
  let fetchSpy: jest.SpyInstance;
  beforeEach(() => {
    localStorage.clear();
    // A spy, not a mock: every call still reaches the real API.
    fetchSpy = jest.spyOn(globalThis, 'fetch');
  });
  afterEach(() => fetchSpy.mockRestore());

  it('refreshes once for three concurrent 401s and replays each call', async () => {
    const login = await loginViaApi();
    const store = setupStore();
    const stale = expiredLookingToken();
    store.dispatch(signedIn({ ...login, accessToken: stale }));

    const results = await Promise.all([
      store.dispatch(profileApi.endpoints.getProfile.initiate()),
      store.dispatch(usersApi.endpoints.getUsers.initiate({ page: 1 })),
      store.dispatch(usersApi.endpoints.getUsers.initiate({ page: 1, limit: 100 })),
    ]);

    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
    expect(results[0].data?.userName).toBe('admin');
    expect(refreshCalls(fetchSpy)).toBe(1);
    const session = store.getState().session;
    expect(session.accessToken).not.toBe(stale);
    expect(session.refreshToken).not.toBe(login.refreshToken);
    expect(session.user?.userName).toBe('admin');
  });

  it('refreshes once for two tabs of one session, which both go on with the same new pair', async () => {
    const login = await loginViaApi();
    const tabs = [setupStore(), setupStore()];
    for (const tab of tabs) tab.dispatch(signedIn({ ...login, accessToken: brokenSignature(login.accessToken) }));

    const results = await Promise.all(tabs.map((tab) => tab.dispatch(profileApi.endpoints.getProfile.initiate())));

    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(refreshCalls(fetchSpy)).toBe(1);
    const [first, second] = tabs.map((tab) => tab.getState().session);
    expect(second.refreshToken).toBe(first.refreshToken);
    expect(second.accessToken).toBe(first.accessToken);
    expect(JSON.parse(localStorage.getItem(REFRESHED_TOKENS_ITEM) ?? '{}')).toEqual({ accessToken: first.accessToken, refreshToken: first.refreshToken });
    // The second tab's next refresh uses the live token: the session was not revoked.
    expect(await refreshSession(tabs[1])).toEqual({ ok: true });
    expect(refreshCalls(fetchSpy)).toBe(2);
  });

  it("hands the new pair to the other tab even when its localStorage does not show it yet", async () => {
    // Chromium carries one tab's localStorage write to another later: here the other tab never sees it.
    const setItem = Storage.prototype.setItem;
    const hidden = jest.spyOn(Storage.prototype, 'setItem').mockImplementation(function (this: Storage, key, value) {
      if (key !== REFRESHED_TOKENS_ITEM) setItem.call(this, key, value);
    });
    Object.defineProperty(navigator, 'locks', { value: sharedWebLocks(), configurable: true });
    const login = await loginViaApi();
    const tabs = [await openTab(login), await openTab(login)];
    try {
      const results = await Promise.all(tabs.map((tab) => tab.store.dispatch(tab.getProfile())));

      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
      expect(refreshCalls(fetchSpy)).toBe(1);
      const [first, second] = tabs.map((tab) => tab.store.getState().session);
      expect(second).toEqual(first);
      expect(first.refreshToken).not.toBe(login.refreshToken);
    } finally {
      for (const tab of tabs) tab.close();
      Reflect.deleteProperty(navigator, 'locks');
      hidden.mockRestore();
    }
  });

  it('refreshes under the Web Lock where the browser has one, and never takes another session\'s tokens', async () => {
    const request = jest.fn((_name: string, work: () => Promise<unknown>) => work());
    Object.defineProperty(navigator, 'locks', { value: { request }, configurable: true });
    try {
      const [mine, other] = [await loginViaApi(), await loginViaApi()];
      localStorage.setItem(REFRESHED_TOKENS_ITEM, JSON.stringify({ accessToken: other.accessToken, refreshToken: other.refreshToken }));
      const store = setupStore();
      store.dispatch(signedIn({ ...mine, accessToken: brokenSignature(mine.accessToken) }));
      expect(await refreshSession(store)).toEqual({ ok: true });
      expect(request).toHaveBeenCalledWith('dialdesk-token-refresh', expect.any(Function));
      expect(refreshCalls(fetchSpy)).toBe(1);
      expect(store.getState().session.refreshToken).not.toBe(other.refreshToken);
    } finally {
      Reflect.deleteProperty(navigator, 'locks');
    }
  });

  it('ends the session and clears storage when the refresh fails', async () => {
    const login = await loginViaApi();
    const store = setupStore();
    store.dispatch(signedIn({ ...login, accessToken: expiredLookingToken(), refreshToken: 'not-a-refresh-token' }));
    localStorage.setItem('marker', 'kept until logout');

    // A mutation: its outcome does not live in the API cache, which logging out drops.
    const result = await store.dispatch(profileApi.endpoints.updateProfile.initiate(profileChange));

    expect(result.error).toMatchObject({ status: 401, data: { message: 'Invalid refresh response' } });
    expect(refreshCalls(fetchSpy)).toBe(1);
    expect(store.getState().session).toEqual({ accessToken: null, refreshToken: null, user: null });
    expect(localStorage.getItem('marker')).toBeNull();
  });

  it("answers 'No refresh token available' without asking the server", async () => {
    const login = await loginViaApi();
    const store = setupStore();
    store.dispatch(signedIn({ user: login.user, accessToken: expiredLookingToken(), refreshToken: '' }));

    const result = await store.dispatch(profileApi.endpoints.updateProfile.initiate(profileChange));

    expect(result.error).toMatchObject({ status: 401, data: { message: 'No refresh token available' } });
    expect(refreshCalls(fetchSpy)).toBe(0);
    expect(store.getState().session.accessToken).toBeNull();
  });
});
