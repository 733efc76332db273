import { screen } from '@testing-library/react';
import { createAgentViaApi, renderApp } from './render-app';
import { TEST_ADMIN } from './test-admin';

describe('renderApp', () => {
  it('renders the sign-in page for a visitor', async () => {
    await renderApp();
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('signs the admin in over the real API before rendering a private route', async () => {
    const { store } = await renderApp({ url: '/settings', user: TEST_ADMIN });
    expect(store.getState().session.user?.userName).toBe(TEST_ADMIN.userName);
    expect(await screen.findByRole('heading', { name: 'Settings', level: 1 })).toBeInTheDocument();
  });

  it('creates an agent that can sign in', async () => {
    const agent = await createAgentViaApi();
    const { store } = await renderApp({ url: '/dashboard', user: agent });
    expect(store.getState().session.user?.role).toBe('agent');
  });
});
