import { act, screen } from '@testing-library/react';
import { createRoot } from 'react-dom/client';
import { loginViaApi } from '../testing/render-app';
import { TEST_ADMIN } from '../testing/test-admin';
import { bootApp } from './boot';
import { hasStoredSession, SESSION_PERSIST_KEY, storageItem } from '../state/persisted-storage';

// The screen it lands on loads its code here, not inside the render: on a busy machine, loading it
// there took longer than the 'Logged in' toast's 5 s, which run meanwhile.
beforeAll(() => import('../features/transactions/transactions-screen'));

describe('bootApp after the sign-in page shown before the app', () => {
  it("keeps the new session over an emptied stored one, says 'Logged in' and goes home", async () => {
    localStorage.clear();
    // What a logout leaves behind: redux-persist writes the emptied session back.
    const emptied = { accessToken: 'null', refreshToken: 'null', user: 'null', _persist: '{"version":-1,"rehydrated":true}' };
    localStorage.setItem(storageItem(SESSION_PERSIST_KEY), JSON.stringify(emptied));
    window.history.replaceState(null, '', '/');
    const session = await loginViaApi(TEST_ADMIN);

    const container = document.body.appendChild(document.createElement('div'));
    const root = createRoot(container);
    await act(() => bootApp(root, session));
    // Stored before the app moves on, so a reload of the page it lands on stays signed in.
    expect(hasStoredSession()).toBe(true);

    expect(await screen.findByText('Logged in')).toBeInTheDocument();
    expect(await screen.findByText(`Username: ${TEST_ADMIN.userName}`)).toBeInTheDocument();
    expect(window.location.pathname).toBe('/transactions');
    act(() => root.unmount());
    container.remove();
  });
});
