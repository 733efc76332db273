import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { TOAST_STACK_CLASS } from '../../components/toast-stack';
import { renderApp, uniqueName } from '../../testing/render-app';
import { TEST_ADMIN } from '../../testing/test-admin';
import { StandaloneSignIn } from './sign-in-page';

/** Where a toast stands and how it is drawn: its stack's rule and its own colours and type. */
function toastLook(text: string) {
  const toast = screen.getAllByRole('alert').find((alert) => alert.textContent === text);
  if (!toast) throw new Error(`no toast '${text}'`);
  const stack = toast.closest<HTMLElement>(`.${TOAST_STACK_CLASS}`);
  const pick = (element: Element, names: string[]) => Object.fromEntries(names.map((name) => [name, getComputedStyle(element).getPropertyValue(name)]));
  return {
    stack: stack && pick(stack, ['position', 'top', 'right', 'left', 'z-index', 'align-items']),
    toast: pick(toast, ['background-color', 'color', 'font-size', 'border-radius', 'padding-left', 'cursor']),
    timeBar: toast.querySelector('[role="progressbar"]') !== null,
    close: toast.querySelector('button[aria-label="Close"]') !== null,
  };
}

async function typeWrongPassword(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText('Username'), uniqueName('nobody'));
  await user.type(screen.getByLabelText('Password'), 'wrong-password-1');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  await screen.findByText('Incorrect username or password');
}

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

  it("shows its toasts as the page before the app loads does: one stack rule, one toast", async () => {
    const standalone = render(<StandaloneSignIn onSignedIn={() => Promise.resolve()} />);
    await typeWrongPassword(userEvent.setup({ delay: null }));
    const before = toastLook('Incorrect username or password');
    standalone.unmount();

    const { user } = await renderApp();
    await typeWrongPassword(user);
    await waitFor(() => expect(toastLook('Incorrect username or password')).toEqual(before));
    expect(before.stack).toMatchObject({ position: 'fixed', top: '56px' });
    expect(before.toast['background-color']).not.toBe('');
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
