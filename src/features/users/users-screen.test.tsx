import { screen, waitFor, within } from '@testing-library/react';
import { createAgentViaApi, renderApp, uniqueName } from '../../testing/render-app';
import { TEST_ADMIN } from '../../testing/test-admin';

const rowOf = (name: string | RegExp) => screen.findByRole('row', { name: typeof name === 'string' ? new RegExp(name) : name });

describe('Users screen', () => {
  it('creates an agent that then shows in the list', async () => {
    const { user } = await renderApp({ url: '/users', user: TEST_ADMIN });
    await user.click(await screen.findByRole('tab', { name: 'Create new account' }));
    const form = await screen.findByRole('form', { name: 'Create new account' });
    const name = uniqueName('created');
    await user.type(within(form).getByLabelText('Username'), name);
    await user.type(within(form).getByLabelText('Password'), 'agent-password-1');
    await user.click(within(form).getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Successfully created a new user')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'All' }));
    const row = await rowOf(name);
    expect(within(row).getByText('Agent')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: `Edit ${name}` })).toBeEnabled();
  });

  it('shows the field messages', async () => {
    const { user } = await renderApp({ url: '/users', user: TEST_ADMIN });
    await user.click(await screen.findByRole('tab', { name: 'Create new account' }));
    const form = await screen.findByRole('form', { name: 'Create new account' });
    await user.type(within(form).getByLabelText('Password'), 'short');
    await user.click(within(form).getByRole('button', { name: 'Create account' }));
    expect(await within(form).findByText('Please provide the userName')).toBeInTheDocument();
    expect(within(form).getByText('Password must be atleast 8 characters long')).toBeInTheDocument();
  });

  it('creates a customer-care account', async () => {
    const { user } = await renderApp({ url: '/users', user: TEST_ADMIN });
    await user.click(await screen.findByRole('tab', { name: 'Create new account' }));
    const form = await screen.findByRole('form', { name: 'Create new account' });
    const name = uniqueName('care');
    await user.type(within(form).getByLabelText('Username'), name);
    await user.type(within(form).getByLabelText('Password'), 'care-password-1');
    await user.click(within(form).getByRole('combobox', { name: 'Role' }));
    await user.click(within(await screen.findByRole('listbox')).getByRole('option', { name: 'Customer care' }));
    await user.click(within(form).getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Successfully created a new user')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'All' }));
    expect(within(await rowOf(name)).getByText('Customer care')).toBeInTheDocument();
  });

  it("refuses a taken name with the server's message", async () => {
    const agent = await createAgentViaApi('taken');
    const { user } = await renderApp({ url: '/users', user: TEST_ADMIN });
    await user.click(await screen.findByRole('tab', { name: 'Create new account' }));
    const form = await screen.findByRole('form', { name: 'Create new account' });
    await user.type(within(form).getByLabelText('Username'), agent.userName);
    await user.type(within(form).getByLabelText('Password'), 'agent-password-1');
    await user.click(within(form).getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText(`Username ${agent.userName} already taken`)).toBeInTheDocument();
  });

  it('edits an agent in the modal and marks it Afcon-only', async () => {
    const agent = await createAgentViaApi('edited');
    const { user } = await renderApp({ url: '/users', user: TEST_ADMIN });
    await user.click(within(await rowOf(agent.userName)).getByRole('button', { name: `Edit ${agent.userName}` }));

    const dialog = await screen.findByRole('dialog', { name: 'Update user login information' });
    const renamed = `${agent.userName}-r`;
    const userName = within(dialog).getByLabelText('Username');
    expect(userName).toHaveValue(agent.userName);
    await user.clear(userName);
    await user.type(userName, renamed);
    await user.click(within(dialog).getByRole('switch', { name: 'Afcon-only account' }));
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));

    expect(await screen.findByText('Successfully updated a user')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await rowOf(renamed)).toBeInTheDocument();
  });

  it('disables an agent after asking, then enables it again', async () => {
    const agent = await createAgentViaApi('disabled');
    const { user } = await renderApp({ url: '/users', user: TEST_ADMIN });
    const row = await rowOf(agent.userName);
    expect(within(row).getByText('Active')).toBeInTheDocument();
    expect(within(row).getByText('Never')).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: `Disable ${agent.userName}` }));
    const dialog = await screen.findByRole('dialog', { name: `Disable ${agent.userName}?` });
    await user.click(within(dialog).getByRole('button', { name: 'Disable account' }));
    expect(await screen.findByText('The account is disabled')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('row', { name: new RegExp(agent.userName) })).getByText('Disabled')).toBeInTheDocument());

    await user.click(within(await rowOf(agent.userName)).getByRole('button', { name: `Enable ${agent.userName}` }));
    await user.click(within(await screen.findByRole('dialog', { name: `Enable ${agent.userName}?` })).getByRole('button', { name: 'Enable account' }));
    expect(await screen.findByText('The account is enabled')).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByRole('row', { name: new RegExp(agent.userName) })).getByText('Active')).toBeInTheDocument());
  });

  it('disables Edit for the admin row and says why', async () => {
    const { user } = await renderApp({ url: '/users', user: TEST_ADMIN });
    await screen.findByRole('grid', { name: 'Users' });
    // The first admin is the oldest account, so it sits on the last page: walk there.
    const adminRow = () => screen.queryByRole('row', { name: new RegExp(`^\\d+ ${TEST_ADMIN.userName} `) });
    await waitFor(() => expect(screen.getAllByRole('row').length).toBeGreaterThan(1));
    while (!adminRow()) {
      const next = screen.getByRole('button', { name: 'Next' });
      await waitFor(() => expect(next).toBeEnabled());
      await user.click(next);
      await waitFor(() => expect(screen.getByRole('button', { name: 'Previous' })).toBeEnabled());
      await waitFor(() => expect(next).not.toHaveAttribute('data-loading'));
    }
    const edit = within(adminRow()!).getByRole('button', { name: `Edit ${TEST_ADMIN.userName}` });
    // Disabled, it still takes the focus and says why; a click opens nothing.
    expect(edit).toHaveAttribute('aria-disabled', 'true');
    expect(edit).toHaveClass('cell-button', 'cell-button-outlined'); // still drawn as a grid button under its tooltip
    expect(edit).toHaveAccessibleDescription('Admins and super-users cannot be edited here');
    await user.click(edit);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.tab();
    await user.tab({ shift: true });
    expect(edit).toHaveFocus();
    // The Disable button's tooltip, shown while the focus passed it, fades out first.
    await waitFor(() => expect(screen.getByRole('tooltip')).toHaveTextContent('Admins and super-users cannot be edited here'));
    // Nor can the admin disable their own account.
    expect(within(adminRow()!).getByRole('button', { name: `Disable ${TEST_ADMIN.userName}` })).toHaveAttribute('aria-disabled', 'true');
  });
});
