import { screen, waitFor, within } from '@testing-library/react';
import { createAgentViaApi, renderApp } from '../../testing/render-app';

describe('Profile screen', () => {
  it('loads the profile and refuses a wrong current password', async () => {
    const agent = await createAgentViaApi('profile');
    const { user } = await renderApp({ url: '/account', user: agent });
    const form = await screen.findByRole('form', { name: 'Update profile info' });
    expect(await within(form).findByDisplayValue(agent.userName)).toBeInTheDocument();
    expect(within(form).getByText('Only fill if you need to create a new password')).toBeInTheDocument();

    await user.type(within(form).getByLabelText('Current password'), 'not-my-password');
    await user.click(within(form).getByRole('button', { name: 'Update profile' }));
    expect(await screen.findByText('Wrong password')).toBeInTheDocument();
  });

  it('asks for the current password before sending', async () => {
    const agent = await createAgentViaApi('profile');
    const { user } = await renderApp({ url: '/account', user: agent });
    const form = await screen.findByRole('form', { name: 'Update profile info' });
    await within(form).findByDisplayValue(agent.userName);
    await user.click(within(form).getByRole('button', { name: 'Update profile' }));
    expect(await within(form).findByText('Please provide the your password')).toBeInTheDocument();
  });

  it('saves a new email with the right password, and removes it', async () => {
    const agent = await createAgentViaApi('profile');
    const { user, unmount, store } = await renderApp({ url: '/account', user: agent });
    const form = await screen.findByRole('form', { name: 'Update profile info' });
    await within(form).findByDisplayValue(agent.userName);
    await user.type(within(form).getByLabelText('Email'), `${agent.userName}@example.com`);
    await user.type(within(form).getByLabelText('Current password'), agent.password);
    await user.click(within(form).getByRole('button', { name: 'Update profile' }));
    expect(await screen.findByText('Successfully updated your profile')).toBeInTheDocument();
    expect(await within(form).findByDisplayValue(`${agent.userName}@example.com`)).toBeInTheDocument();

    // An emptied field removes the email; the server keeps it only when the field is not sent.
    await user.clear(within(form).getByLabelText('Email'));
    await user.clear(within(form).getByLabelText('Current password'));
    await user.type(within(form).getByLabelText('Current password'), agent.password);
    const clickedAt = Date.now();
    await user.click(within(form).getByRole('button', { name: 'Update profile' }));
    const savedAgain = () => Object.values(store.getState().api.mutations).some((m) => m?.status === 'fulfilled' && (m.startedTimeStamp ?? 0) >= clickedAt);
    await waitFor(() => expect(savedAgain()).toBe(true));
    unmount();
    const again = await renderApp({ url: '/account', user: agent });
    const reloaded = await screen.findByRole('form', { name: 'Update profile info' });
    await within(reloaded).findByDisplayValue(agent.userName);
    expect(within(reloaded).getByLabelText('Email')).toHaveValue('');
    again.unmount();
  });
});
