import { act, screen, within } from '@testing-library/react';
import { createAfconAccountViaApi } from '../../testing/afcon-account';
import { createAgentViaApi, renderApp } from '../../testing/render-app';
import { TEST_ADMIN } from '../../testing/test-admin';

const requestUrl = (input: RequestInfo | URL) => String(input instanceof Request ? input.url : input);

describe('the private shell', () => {
  let fetchSpy: jest.SpyInstance;
  beforeEach(() => {
    // A spy, not a mock: it only lists what reaches the real API.
    fetchSpy = jest.spyOn(globalThis, 'fetch');
  });
  afterEach(() => fetchSpy.mockRestore());
  const calls = (path: string) => fetchSpy.mock.calls.filter(([input]) => new URL(requestUrl(input)).pathname.startsWith(path));

  it('tells an agent typing /users it has no access, with the way back, and asks the API nothing', async () => {
    const agent = await createAgentViaApi();
    const { user, pathname } = await renderApp({ url: '/users', user: agent });
    expect(await screen.findByRole('heading', { name: 'You do not have access to this page' })).toBeInTheDocument();
    expect(calls('/v1/users')).toHaveLength(0);
    expect(screen.queryByText('Unexpected error')).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Go to Transactions' }));
    expect(await screen.findByRole('heading', { name: /^Transactions for/ })).toBeInTheDocument();
    expect(pathname()).toBe('/transactions');
  });

  it('sends the Afcon-only account back to its own first screen', async () => {
    const afcon = await createAfconAccountViaApi();
    await renderApp({ url: '/transactions', user: afcon });
    expect(await screen.findByRole('heading', { name: 'You do not have access to this page' })).toBeInTheDocument();
    expect(calls('/v1/transactions')).toHaveLength(0);
    expect(screen.getByRole('link', { name: 'Go to Afcon Transactions' })).toHaveAttribute('href', '/afcon/2024/transactions');
  });

  describe('with the loading overlay on (SPEC §9, 1000 ms; off in the other tests)', () => {
    const motion = globalThis.__DIALDESK_MOTION__;
    beforeEach(() => {
      globalThis.__DIALDESK_MOTION__ = { ...motion, routeOverlayMs: 300 };
    });
    afterEach(() => {
      globalThis.__DIALDESK_MOTION__ = motion;
    });
    const overlaySpinner = () => within(screen.getByTestId('route-overlay')).queryByRole('progressbar', { name: 'Loading' });

    it('shows it when the shell mounts, not on a sidebar click (DESIGN §5)', async () => {
      // renderApp waits for the overlay's spinner to go: it was there.
      const { user } = await renderApp({ url: '/contents', user: TEST_ADMIN });
      expect(overlaySpinner()).toBeNull();
      const menu = screen.getByRole('navigation', { name: 'Main menu' });
      for (const link of ['Sms', 'Users']) {
        await user.click(within(menu).getByRole('link', { name: link }));
        expect(overlaySpinner()).toBeNull();
        await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
        expect(overlaySpinner()).toBeNull();
      }
    });
  });
});
