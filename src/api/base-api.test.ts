import { signedIn } from '../state/session-slice';
import { setupStore } from '../state/store';
import { loginViaApi } from '../testing/render-app';
import { profileApi } from './profile-api';
import { usersApi } from './users-api';

/** An access token the server refuses (bad signature, exp in the past), as a stale one would be. */
function expiredLookingToken(): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 'x', exp: Math.floor(Date.now() / 1000) - 60 })}.c2lnbmF0dXJl`;
}

const profileChange = { userName: 'admin', myPassword: 'admin-password-1' };

function refreshCalls(spy: jest.SpyInstance): number {
  return spy.mock.calls.filter(([input]) => String(input instanceof Request ? input.url : input).includes('/v1/auth/refresh-token'))
    .length;
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
