import { screen, waitFor, within } from '@testing-library/react';
import { createCategoryViaApi, fieldLabel, fillField } from '../../testing/catalogue-fixtures';
import { createAgentViaApi, renderApp, uniqueName } from '../../testing/render-app';
import { TEST_ADMIN } from '../../testing/test-admin';

/** How long a save or a list may take to show before the test gives up (only a failing test waits it out). */
const slow = { timeout: 20_000 };

describe("a category's History tab", () => {
  it('shows the price changed in the edit dialog, in words, with who changed it', async () => {
    const agent = await createAgentViaApi('history-agent');
    const category = await createCategoryViaApi(agent.id, uniqueName('History'));
    const { user } = await renderApp({ url: '/categories/all', user: TEST_ADMIN });
    const row = (await screen.findByText(category.name, {}, slow)).closest('[role="row"]') as HTMLElement;
    const edit = () => user.click(within(row).getByRole('button', { name: `Edit ${category.name}` }));

    await edit();
    let dialog = await screen.findByRole('dialog');
    await fillField(within(dialog).getByLabelText(fieldLabel('VIP')), '6000');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Successfully updated the category', {}, slow)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await edit();
    dialog = await screen.findByRole('dialog');
    // What is typed and not yet saved stays in the form while History is shown.
    await fillField(within(dialog).getByLabelText(fieldLabel('VIP')), '7000');
    await user.click(within(dialog).getByRole('tab', { name: 'History' }));
    const history = await within(dialog).findByRole('list', { name: 'History, newest first' }, slow);
    const [changed, created] = within(history).getAllByRole('listitem').filter((item) => item.parentElement === history);
    expect(changed).toHaveTextContent('Category changed · admin (Admin)');
    expect(within(changed).getByText('VIP price 1,000 → 6,000')).toBeInTheDocument();
    expect(created).toHaveTextContent('Category created');
    // The form keeps its tab and its Update button; History has none.
    expect(within(dialog).queryByRole('button', { name: 'Update' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('tab', { name: 'Details' }));
    expect(within(dialog).getByLabelText(fieldLabel('VIP'))).toHaveValue(7000);
  });
});
