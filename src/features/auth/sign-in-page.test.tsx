import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LoginResults } from '../../api/login-request';
import { hasStoredSession, storageItem, SESSION_PERSIST_KEY } from '../../state/persisted-storage';
import { uniqueName } from '../../testing/render-app';
import { TEST_ADMIN } from '../../testing/test-admin';
import { StandaloneSignIn } from './sign-in-page';

/** The sign-in page of a first visit, before the app loads (no store, no router), against the real API. */
describe('Sign in before the app loads', () => {
  let fetchSpy: jest.SpyInstance;
  beforeEach(() => {
    fetchSpy = jest.spyOn(globalThis, 'fetch');
  });
  afterEach(() => fetchSpy.mockRestore());

  const setup = () => {
    const onSignedIn = jest.fn<Promise<void>, [LoginResults]>(() => Promise.resolve());
    render(<StandaloneSignIn onSignedIn={onSignedIn} />);
    return { onSignedIn, user: userEvent.setup({ delay: null }) };
  };

  it('shows both messages and sends nothing when the fields are empty', async () => {
    const { user, onSignedIn } = setup();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Please provide your username')).toBeInTheDocument();
    expect(screen.getByText('Please provide your password')).toBeInTheDocument();
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(onSignedIn).not.toHaveBeenCalled();
  });

  it('shows the password on request and links to the other public pages', async () => {
    const { user } = setup();
    const password = screen.getByLabelText('Password');
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('checkbox', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/examples/sign-up');
  });

  it("says 'Incorrect username or password' for a wrong password", async () => {
    const { user, onSignedIn } = setup();
    await user.type(screen.getByLabelText('Username'), uniqueName('nobody'));
    await user.type(screen.getByLabelText('Password'), 'wrong-password-1');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Incorrect username or password')).toBeInTheDocument();
    expect(onSignedIn).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled());
  });

  it("says 'Something wrong happened during the request' when no answer comes", async () => {
    fetchSpy.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const { user, onSignedIn } = setup();
    await user.type(screen.getByLabelText('Username'), 'someone');
    await user.type(screen.getByLabelText('Password'), 'some-password-1');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Something wrong happened during the request')).toBeInTheDocument();
    expect(onSignedIn).not.toHaveBeenCalled();
  });

  it("signs in, says 'Logged in' and hands the session over", async () => {
    const { user, onSignedIn } = setup();
    await user.type(screen.getByLabelText('Username'), `  ${TEST_ADMIN.userName} `);
    await user.type(screen.getByLabelText('Password'), TEST_ADMIN.password);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Logged in')).toBeInTheDocument();
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledTimes(1));
    const [results] = onSignedIn.mock.calls[0];
    expect(results.user.role).toBe('admin');
    expect(results.accessToken).toEqual(expect.any(String));
  });
});

describe('hasStoredSession', () => {
  afterEach(() => localStorage.clear());
  const store = (session: Record<string, unknown>) =>
    localStorage.setItem(
      storageItem(SESSION_PERSIST_KEY),
      JSON.stringify(Object.fromEntries(Object.entries(session).map(([key, value]) => [key, JSON.stringify(value)]))),
    );

  it('is false without the key or with an emptied session', () => {
    expect(hasStoredSession()).toBe(false);
    store({ accessToken: null, refreshToken: null, user: null, _persist: { version: -1, rehydrated: true } });
    expect(hasStoredSession()).toBe(false);
  });

  it('is true with stored tokens, and when storage cannot be read', () => {
    store({ accessToken: 'a.b.c', refreshToken: 'r', user: { role: 'admin' } });
    expect(hasStoredSession()).toBe(true);
    localStorage.setItem(storageItem(SESSION_PERSIST_KEY), '{not json');
    expect(hasStoredSession()).toBe(true);
  });
});
