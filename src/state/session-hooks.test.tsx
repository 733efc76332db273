import { render, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { loginViaApi } from '../testing/render-app';
import { useTokenCheck } from './session-hooks';
import { signedIn } from './session-slice';
import { setupStore } from './store';

/** An access token that counts as expired (exp in the past). */
function expiredLookingToken(): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256' })}.${part({ exp: Math.floor(Date.now() / 1000) - 5 })}.c2ln`;
}

function TokenCheck({ intervalMs }: { intervalMs: number }) {
  useTokenCheck(intervalMs);
  return null;
}

describe('periodic token check', () => {
  beforeEach(() => localStorage.clear());

  it('refreshes an expired access token', async () => {
    const login = await loginViaApi();
    const store = setupStore();
    const stale = expiredLookingToken();
    store.dispatch(signedIn({ ...login, accessToken: stale }));
    const { unmount } = render(
      <Provider store={store}>
        <TokenCheck intervalMs={50} />
      </Provider>,
    );
    await waitFor(() => expect(store.getState().session.accessToken).not.toBe(stale), { timeout: 5000 });
    expect(store.getState().session.refreshToken).not.toBe(login.refreshToken);
    unmount();
  });

  it('stops and clears the session when the refresh fails', async () => {
    const login = await loginViaApi();
    const store = setupStore();
    store.dispatch(signedIn({ ...login, accessToken: expiredLookingToken(), refreshToken: 'revoked-or-unknown' }));
    localStorage.setItem('marker', 'x');
    const { unmount } = render(
      <Provider store={store}>
        <TokenCheck intervalMs={50} />
      </Provider>,
    );
    await waitFor(() => expect(store.getState().session.user).toBeNull(), { timeout: 5000 });
    expect(localStorage.getItem('marker')).toBeNull();
    unmount();
  });
});
