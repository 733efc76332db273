import { screen, waitFor, within } from '@testing-library/react';
import type { Category } from '../../domain/entities';
import { createCategoryViaApi, fieldLabel, fillField, uniqueServiceCode } from '../../testing/catalogue-fixtures';
import { createAgentViaApi, renderApp, type TestAgent } from '../../testing/render-app';
import { TEST_ADMIN } from '../../testing/test-admin';

// Generous: these walk whole forms against the real API, and CI runs many suites at once.

/** How long a form or a save's answer may take to show before the test gives up (only a failing test waits it out). */
const slow = { timeout: 20_000 };

let agent: TestAgent;
let category: Category;
beforeAll(async () => {
  agent = await createAgentViaApi('code-agent');
  category = await createCategoryViaApi(agent.id);
});

type User = Awaited<ReturnType<typeof renderApp>>['user'];

async function register(user: User, form: HTMLElement, code: string) {
  await fillField(within(form).getByLabelText(fieldLabel('Code')), code);
  await user.click(within(form).getByRole('combobox', { name: /Category/ }));
  await user.click(await screen.findByRole('option', { name: category.name }));
  await user.click(within(form).getByRole('button', { name: 'Register' }));
}

describe('Service codes screen', () => {
  it('registers a code, refuses a duplicate, lists it with category and agent, and edits it', async () => {
    const { user } = await renderApp({ url: '/service/code', user: TEST_ADMIN });
    await user.click(await screen.findByRole('tab', { name: 'Register service codes' }, slow));
    const form = await screen.findByRole('form', { name: 'Register service codes' });
    const code = uniqueServiceCode();
    await register(user, form, code);
    expect(await screen.findByText('Successfully registered a service code', {}, slow)).toBeInTheDocument();
    await register(user, form, code);
    expect(await screen.findByText(`Service code ${code} is already taken, please try another`, {}, slow)).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'All' }));
    const row = (await screen.findByText(code, {}, slow)).closest('[role="row"]') as HTMLElement;
    expect(within(row).getByText(category.name)).toBeInTheDocument();
    expect(within(row).getByText(agent.userName)).toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: `Edit ${code}` }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Update service code')).toBeInTheDocument();
    const renamed = uniqueServiceCode();
    await fillField(within(dialog).getByLabelText(fieldLabel('Code')), renamed);
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText(renamed, {}, slow)).toBeInTheDocument();
  });

  it('shows the validation messages', async () => {
    const { user } = await renderApp({ url: '/service/code', user: TEST_ADMIN });
    await user.click(await screen.findByRole('tab', { name: 'Register service codes' }, slow));
    const form = await screen.findByRole('form', { name: 'Register service codes' });
    await user.click(within(form).getByRole('button', { name: 'Register' }));
    expect(await within(form).findByText('Please provide the code')).toBeInTheDocument();
    expect(within(form).getByText('Please select the category')).toBeInTheDocument();
    await fillField(within(form).getByLabelText(fieldLabel('Code')), '217');
    expect(await within(form).findByText('A service code looks like *217*4#')).toBeInTheDocument();
  });
});
