import { screen, waitFor, within } from '@testing-library/react';
import { renderApp, uniqueName } from '../../testing/render-app';

describe('Sign up, forgot and reset password', () => {
  it('validates sign up and explains that an administrator creates accounts', async () => {
    const { user } = await renderApp({ url: '/examples/sign-up' });
    const form = await screen.findByRole('form', { name: 'Create an account' });
    await user.click(within(form).getByRole('button', { name: 'Sign up' }));
    expect(await within(form).findByText('Invalid email')).toBeInTheDocument();

    await user.type(within(form).getByLabelText('Email'), 'new.person@example.com');
    await user.type(within(form).getByLabelText('Password'), 'password-123');
    await user.type(within(form).getByLabelText('Confirm password'), 'password-124');
    await user.click(within(form).getByRole('button', { name: 'Sign up' }));
    expect(await within(form).findByText("Passwords don't match")).toBeInTheDocument();

    await user.clear(within(form).getByLabelText('Confirm password'));
    await user.type(within(form).getByLabelText('Confirm password'), 'password-123');
    await user.click(within(form).getByRole('checkbox', { name: 'I agree to the terms and conditions' }));
    await user.click(within(form).getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText(/created by an administrator/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Already have an account? Sign in' })).toHaveAttribute('href', '/');
  });

  it('sends the reset mail and says where to look', async () => {
    const { user } = await renderApp({ url: '/forgot-password' });
    const form = await screen.findByRole('form', { name: 'Forgot password' });
    await user.type(within(form).getByLabelText('Email'), 'not-an-email');
    await user.click(within(form).getByRole('button', { name: 'Send reset link' }));
    expect(await within(form).findByText('Invalid email')).toBeInTheDocument();

    const email = `${uniqueName('mail')}@example.com`;
    await user.clear(within(form).getByLabelText('Email'));
    await user.type(within(form).getByLabelText('Email'), email);
    await user.click(within(form).getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByText(`Please visit your email ${email} to reset your password`)).toBeInTheDocument();
  });

  it('shows the error banner and clears the form for an invalid reset link', async () => {
    const { user } = await renderApp({ url: '/reset-password?token=not-a-real-token' });
    const form = await screen.findByRole('form', { name: 'Reset password' });
    await user.type(within(form).getByLabelText('New password'), 'new-password-1');
    await user.type(within(form).getByLabelText('Confirm password'), 'new-password-1');
    await user.click(within(form).getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByText('This reset link is invalid or has expired')).toBeInTheDocument();
    await waitFor(() => expect(within(form).getByLabelText('New password')).toHaveValue(''));
  });
});
