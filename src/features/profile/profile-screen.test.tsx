import { screen, within } from '@testing-library/react';
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

  it('saves a new email with the right password', async () => {
    const agent = await createAgentViaApi('profile');
    const { user } = await renderApp({ url: '/account', user: agent });
    const form = await screen.findByRole('form', { name: 'Update profile info' });
    await within(form).findByDisplayValue(agent.userName);
    await user.type(within(form).getByLabelText('Email'), `${agent.userName}@example.com`);
    await user.type(within(form).getByLabelText('Current password'), agent.password);
    await user.click(within(form).getByRole('button', { name: 'Update profile' }));
    expect(await screen.findByText('Successfully updated your profile')).toBeInTheDocument();
    expect(await within(form).findByDisplayValue(`${agent.userName}@example.com`)).toBeInTheDocument();
  });
});
