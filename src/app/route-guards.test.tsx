import { screen, waitFor, within } from '@testing-library/react';
import { createAgentViaApi, renderApp } from '../testing/render-app';
import { TEST_ADMIN } from '../testing/test-admin';
import { apiUrl } from '../api/api-url';
import { createAfconAccountViaApi } from '../testing/afcon-account';

const mainMenu = () => screen.findByRole('navigation', { name: 'Main menu' });

describe('routing and shell', () => {
  it('sends a visitor of a private route to sign in', async () => {
    const { pathname } = await renderApp({ url: '/users' });
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(pathname()).toBe('/');
  });

  it('sends an unknown path to sign in', async () => {
    const { pathname } = await renderApp({ url: '/no/such/page' });
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(pathname()).toBe('/');
  });

  it('sends a signed-in person from a public route to the transactions', async () => {
    const { pathname } = await renderApp({ url: '/', user: TEST_ADMIN });
    await screen.findByText(`Username: ${TEST_ADMIN.userName}`);
    expect(pathname()).toBe('/transactions');
  });

  it('shows the admin menu, top bar, settings panel and footer', async () => {
    await renderApp({ url: '/dashboard', user: TEST_ADMIN });
    const menu = await mainMenu();
    for (const label of ['Transactions', 'Trans search', 'Failed transactions', 'Content', 'Sms', 'Profile', 'Users', 'Category', 'Service code']) {
      expect(within(menu).getByRole('link', { name: label })).toBeInTheDocument();
    }
    expect(screen.getByText(/^Service code: /)).toBeInTheDocument();
    expect(screen.getByRole('complementary', { name: 'Settings panel' })).toBeInTheDocument();
    expect(screen.getByText(`© ${new Date().getFullYear()} Dialdesk`)).toBeInTheDocument();
  });

  it('remembers hiding the settings panel', async () => {
    const { user, store } = await renderApp({ url: '/dashboard', user: TEST_ADMIN });
    await user.click(await screen.findByRole('button', { name: 'Hide settings' }));
    expect(screen.queryByRole('complementary', { name: 'Settings panel' })).not.toBeInTheDocument();
    expect(store.getState().ui.settingsVisible).toBe(false);
  });

  it('gives an agent the regular menu only', async () => {
    const agent = await createAgentViaApi();
    await renderApp({ url: '/transactions', user: agent });
    const menu = await mainMenu();
    expect(within(menu).getByRole('link', { name: 'Transactions' })).toBeInTheDocument();
    expect(within(menu).queryByRole('link', { name: 'Users' })).not.toBeInTheDocument();
    expect(within(menu).queryByRole('link', { name: 'Service code' })).not.toBeInTheDocument();
    expect(screen.getByText('Service code: N/A')).toBeInTheDocument();
  });

  it('sends an Afcon-only account to the Afcon transactions with the Afcon menu', async () => {
    const agent = await createAfconAccountViaApi();
    const { pathname } = await renderApp({ url: '/', user: agent });
    const menu = await mainMenu();
    expect(pathname()).toBe('/afcon/2024/transactions');
    expect(within(menu).getAllByRole('link').map((link) => link.textContent)).toEqual([
      'Afcon Transactions',
      'Failed Transactions',
      'Trans Search',
      'Ranking',
      'Incidents',
    ]);
    // Its top bar names its campaign's code, not 'N/A' (the account has no service code of its own).
    expect(await screen.findByText('Service code: *284*24#')).toBeInTheDocument();
  });

  it("logs out: 'Logged out', session and storage cleared, back to sign in", async () => {
    const agent = await createAgentViaApi();
    const { user, store, pathname } = await renderApp({ url: '/dashboard', user: agent });
    const refreshToken = store.getState().session.refreshToken;
    await user.click(await screen.findByRole('button', { name: 'Logout' }));
    expect(await screen.findByText('Logged out')).toBeInTheDocument();
    await waitFor(() => expect(pathname()).toBe('/'));
    expect(store.getState().session.accessToken).toBeNull();
    // The server revoked the refresh token.
    const refresh = await fetch(apiUrl('/v1/auth/refresh-token'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token: refreshToken }),
    });
    expect(refresh.status).toBe(401);
  });
});
