import { screen, waitFor, within } from '@testing-library/react';
import { REQUIRED_PRICE_LEVELS, categoryLevelLabel } from '../../domain/category-levels';
import { fieldLabel, fillField } from '../../testing/catalogue-fixtures';
import { createAgentViaApi, renderApp, uniqueName, type TestAgent } from '../../testing/render-app';
import { TEST_ADMIN } from '../../testing/test-admin';

// Generous: these walk whole forms against the real API, and CI runs many suites at once.

/** How long a form or a save's answer may take to show before the test gives up (only a failing test waits it out). */
const slow = { timeout: 20_000 };

let agent: TestAgent;
beforeAll(async () => {
  agent = await createAgentViaApi('cat-agent');
});

type User = Awaited<ReturnType<typeof renderApp>>['user'];

async function chooseAgent(user: User, scope: HTMLElement, userName: string) {
  await user.click(within(scope).getByRole('combobox', { name: /Agent/ }));
  await user.click(await screen.findByRole('option', { name: userName }));
}

/** Fills the create form: name, agent and every required price. */
async function fillCategory(user: User, form: HTMLElement, name: string) {
  await fillField(within(form).getByLabelText(fieldLabel('Category name')), name);
  await chooseAgent(user, form, agent.userName);
  for (const [i, level] of REQUIRED_PRICE_LEVELS.entries()) {
    await fillField(within(form).getByLabelText(fieldLabel(categoryLevelLabel(level))), String(1000 + i * 1000));
  }
}

describe('Categories screen', () => {
  it('creates a category, shows it with separated prices, refuses a duplicate and edits it', async () => {
    const { user } = await renderApp({ url: '/categories/new', user: TEST_ADMIN });
    const form = await screen.findByRole('form', { name: 'Create new category' }, slow);
    const name = uniqueName('Cat');
    await fillCategory(user, form, name);
    await user.click(within(form).getByRole('button', { name: 'Create category' }));
    expect(await screen.findByText('Successfully created the category', {}, slow)).toBeInTheDocument();

    await fillCategory(user, form, name);
    await user.click(within(form).getByRole('button', { name: 'Create category' }));
    expect(await screen.findByText(`Category name ${name} is already taken, please try another`, {}, slow)).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'All' }));
    const row = (await screen.findByText(name, {}, slow)).closest('[role="row"]') as HTMLElement;
    // The prices summed up in one column, every one of them a click away.
    expect(within(row).getByText('UGX 1,000 – 15,000 · 15 levels')).toBeInTheDocument();
    expect(within(row).getByText(agent.userName)).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: `All prices of ${name}` }));
    const prices = await screen.findByRole('dialog', { name: `Prices of ${name}` });
    const priceOf = (label: string) => within(prices).getByText(label).nextElementSibling?.textContent;
    expect([priceOf('Ordinary'), priceOf('Single'), priceOf('Super')]).toEqual(['1,000', '15,000', '—']);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // SPEC's column per level is still there, hidden until chosen.
    expect(screen.queryByRole('columnheader', { name: 'Single' })).not.toBeInTheDocument();

    await user.click(within(row).getByRole('button', { name: `Edit ${name}` }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Update category')).toBeInTheDocument();
    expect(within(dialog).getByText('You can edit the category information')).toBeInTheDocument();
    const vip = within(dialog).getByLabelText(fieldLabel('VIP'));
    await fillField(vip, '1234567');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Successfully updated the category', {}, slow)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('UGX 1,000 – 1,234,567 · 15 levels', {}, slow)).toBeInTheDocument();
  });

  it('shows every validation message of SPEC §5', async () => {
    const { user } = await renderApp({ url: '/categories/all', user: TEST_ADMIN });
    await user.click(await screen.findByRole('tab', { name: 'Create new category' }, slow));
    const form = await screen.findByRole('form', { name: 'Create new category' });
    await fillField(within(form).getByLabelText(fieldLabel('Ordinary')), '-3');
    await user.click(within(form).getByRole('button', { name: 'Create category' }));
    expect(await within(form).findByText('Please provide the category name')).toBeInTheDocument();
    expect(within(form).getByText('Please select the agent')).toBeInTheDocument();
    expect(within(form).getByText('Invalid value')).toBeInTheDocument();
    expect(within(form).getAllByText('Please specify the price')).toHaveLength(REQUIRED_PRICE_LEVELS.length - 1);
  });
});
