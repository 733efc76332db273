import { screen } from '@testing-library/react';
import { renderApp, uniqueName } from '../../testing/render-app';
import { TEST_ADMIN } from '../../testing/test-admin';

describe('Sign in', () => {
  let fetchSpy: jest.SpyInstance;
  beforeEach(() => {
    // A spy, not a mock: it only counts calls that reach the real API.
    fetchSpy = jest.spyOn(globalThis, 'fetch');
  });
  afterEach(() => fetchSpy.mockRestore());

  const loginCalls = () =>
    fetchSpy.mock.calls.filter(([input]) => String(input instanceof Request ? input.url : input).includes('/v1/auth/login')).length;

  it('shows both messages and sends nothing when the fields are empty', async () => {
    const { user } = await renderApp();
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Please provide your username')).toBeInTheDocument();
    expect(screen.getByText('Please provide your password')).toBeInTheDocument();
    expect(loginCalls()).toBe(0);
  });

  it("says 'Incorrect username or password' for a wrong password", async () => {
    const { user, store } = await renderApp();
    await user.type(await screen.findByLabelText('Username'), uniqueName('nobody'));
    await user.type(screen.getByLabelText('Password'), 'wrong-password-1');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Incorrect username or password')).toBeInTheDocument();
    expect(store.getState().session.accessToken).toBeNull();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
  });

  it('shows the password on request', async () => {
    const { user } = await renderApp();
    const password = await screen.findByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('checkbox', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
  });

  it("signs in, says 'Logged in' and lands on the transactions", async () => {
    const { user, store, pathname } = await renderApp();
    await user.type(await screen.findByLabelText('Username'), TEST_ADMIN.userName);
    await user.type(screen.getByLabelText('Password'), TEST_ADMIN.password);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Logged in')).toBeInTheDocument();
    expect(await screen.findByText(`Username: ${TEST_ADMIN.userName}`)).toBeInTheDocument();
    expect(pathname()).toBe('/transactions');
    expect(store.getState().session.user?.role).toBe('admin');
  });
});
