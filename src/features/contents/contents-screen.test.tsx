import { screen, waitFor, within } from '@testing-library/react';
import type { Category } from '../../domain/entities';
import { createCategoryViaApi, createContentViaApi, fieldLabel, fillField } from '../../testing/catalogue-fixtures';
import { createAgentViaApi, renderApp, uniqueName, type TestAgent } from '../../testing/render-app';
import { TEST_ADMIN } from '../../testing/test-admin';

// Generous: these walk whole forms against the real API, and CI runs many suites at once.

/** How long a form or a save's answer may take to show before the test gives up (only a failing test waits it out). */
const slow = { timeout: 20_000 };

let agent: TestAgent;
let category: Category;
beforeAll(async () => {
  agent = await createAgentViaApi('content-agent');
  category = await createCategoryViaApi(agent.id);
});

type User = Awaited<ReturnType<typeof renderApp>>['user'];

async function choose(user: User, scope: HTMLElement, field: RegExp, option: string) {
  await user.click(within(scope).getByRole('combobox', { name: field }));
  await user.click(await screen.findByRole('option', { name: option }));
}

const rowOf = async (text: string) => (await screen.findByText(text, {}, slow)).closest('[role="row"]') as HTMLElement;

describe('Contents screen', () => {
  it('creates a content with the live counter and shows previews in the list', async () => {
    const { user } = await renderApp({ url: '/contents', user: TEST_ADMIN });
    await user.click(await screen.findByRole('tab', { name: 'Create new content' }, slow));
    const form = await screen.findByRole('form', { name: 'Create new content' });
    const message = `${uniqueName('Ticket')} ${'x'.repeat(100)}`;
    await fillField(within(form).getByLabelText(fieldLabel('Message')), 'Hello €');
    expect(within(form).getByText('8/160')).toBeInTheDocument();
    await fillField(within(form).getByLabelText(fieldLabel('Message')), message);
    expect(within(form).getByText(`${message.length}/160`)).toBeInTheDocument();
    await fillField(within(form).getByLabelText(fieldLabel('Description')), 'A description longer than twenty');
    await choose(user, form, /^Category(\s*\*)?$/, category.name);
    await choose(user, form, /Category level/, 'VIP');
    await user.click(within(form).getByRole('button', { name: 'Create content' }));
    expect(await screen.findByText('Successfully created a ticket', {}, slow)).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'All' }));
    const row = await rowOf(`${message.slice(0, 100)}....`);
    expect(within(row).getByText('A description longer....')).toBeInTheDocument();
    expect(within(row).getByText('VIP')).toBeInTheDocument();
    expect(within(row).getByText(category.name)).toBeInTheDocument();
    expect(within(row).getByText('in-active')).toBeInTheDocument();
  });

  it('activates one content and steps the other of its level down', async () => {
    const first = await createContentViaApi({ category: category._id, categoryLevel: 'family', message: uniqueName('First'), active: true });
    const second = await createContentViaApi({ category: category._id, categoryLevel: 'family', message: uniqueName('Second'), active: true });
    const { user } = await renderApp({ url: '/contents', user: TEST_ADMIN });
    expect(within(await rowOf(second.message)).getByText('active')).toBeInTheDocument();

    await user.click(within(await rowOf(second.message)).getByRole('button', { name: /^Edit/ }));
    let dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('You can edit your content')).toBeInTheDocument();
    expect(within(dialog).getByRole('checkbox', { name: 'Activate' })).toBeDisabled();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(within(await rowOf(first.message)).getByRole('button', { name: /^Edit/ }));
    dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Update content')).toBeInTheDocument();
    const activate = within(dialog).getByRole('checkbox', { name: 'Activate' });
    expect(activate).toBeEnabled();
    await user.click(activate);
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(await screen.findByText('Successfully updated the ticket', {}, slow)).toBeInTheDocument();
    await waitFor(() => expect(within(screen.getByText(first.message).closest('[role="row"]') as HTMLElement).getByText('active')).toBeInTheDocument(), slow);
    expect(within(await rowOf(second.message)).getByText('in-active')).toBeInTheDocument();
  });

  it('shows the validation messages', async () => {
    const { user } = await renderApp({ url: '/contents', user: TEST_ADMIN });
    await user.click(await screen.findByRole('tab', { name: 'Create new content' }, slow));
    const form = await screen.findByRole('form', { name: 'Create new content' });
    await user.click(within(form).getByRole('button', { name: 'Create content' }));
    expect(await within(form).findByText('Please select the category')).toBeInTheDocument();
    expect(within(form).getByText('Please select the category level')).toBeInTheDocument();
    expect(within(form).getByText('Please the message')).toBeInTheDocument();
    await fillField(within(form).getByLabelText(fieldLabel('Message')), 'y'.repeat(161));
    expect(await within(form).findByText('161/160')).toBeInTheDocument();
    expect(await within(form).findByText('Message must be at most 160 characters')).toBeInTheDocument();
  });

  it('offers an agent only its own categories', async () => {
    const someoneElse = await createCategoryViaApi((await createAgentViaApi('other-agent')).id);
    const { user } = await renderApp({ url: '/contents', user: agent });
    await user.click(await screen.findByRole('tab', { name: 'Create new content' }, slow));
    const form = await screen.findByRole('form', { name: 'Create new content' });
    await user.click(within(form).getByRole('combobox', { name: /^Category(\s*\*)?$/ }));
    expect(await screen.findByRole('option', { name: category.name })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: someoneElse.name })).not.toBeInTheDocument();
  });
});
