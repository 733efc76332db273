import { configure, screen, waitFor, within } from '@testing-library/react';
import { CAMPAIGN_MESSAGES } from '../../domain/campaign-input';
import { fieldLabel, fillField } from '../../testing/catalogue-fixtures';
import { createAgentViaApi, renderApp, uniqueName } from '../../testing/render-app';
import { TEST_ADMIN } from '../../testing/test-admin';
import { createServiceCodeViaApi } from '../../testing/ussd-calls';

configure({ asyncUtilTimeout: 30_000 });

type User = Awaited<ReturnType<typeof renderApp>>['user'];

const toast = (text: string) => screen.findByText(text, { selector: '#notistack-snackbar, #notistack-snackbar *' });
/** A preview screen's text, line breaks kept. */
const screenText = (name: string) => within(screen.getByRole('region', { name: 'USSD preview' })).getByRole('figure', { name: `Screen ${name}` }).querySelector('pre')?.textContent;
const rowOf = (text: string) => screen.getByText(text).closest('[role="row"]') as HTMLElement;

/** Picks `option` in the MUI select named `name` inside `scope`. */
async function choose(user: User, scope: HTMLElement, name: string | RegExp, option: string) {
  await user.click(within(scope).getByRole('combobox', { name }));
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('campaign admin screen', () => {
  // A whole form walked key by key in jsdom, then three round trips: longer than jest's default minute on a busy machine.
  it('creates a campaign with a teams round and a games round, previews its USSD screens, lists it as a draft and publishes it', async () => {
    const code = await createServiceCodeViaApi();
    const key = uniqueName('cup');
    const name = `Cup ${key.slice(4)}`;
    const { user } = await renderApp({ url: '/campaigns', user: TEST_ADMIN });
    // Every campaign, the seeded ones included, with its status and totals.
    expect(await screen.findByText('World Cup 2022')).toBeInTheDocument();
    expect(within(rowOf('world-cup-2022')).getByText('Live')).toBeInTheDocument();

    await user.click(screen.getByRole('tab', { name: 'Create a campaign' }));
    const form = await screen.findByRole('form', { name: 'Create a campaign' });
    await fillField(within(form).getByLabelText(fieldLabel('Key')), key);
    await fillField(within(form).getByLabelText(fieldLabel('Name')), name);
    await choose(user, form, 'Service code', code.name);
    const teams = within(form).getByRole('combobox', { name: 'Teams' });
    await user.type(teams, 'Uganda{Enter}Kenya{Enter}Ghana{Enter}');
    expect(within(form).getByRole('button', { name: 'Kenya' })).toBeInTheDocument();

    // One round: the preview skips the rounds menu and shows the teams.
    await waitFor(() => expect(screenText('General')).toBe('General: pick your team\n1. Uganda\n2. Kenya\n3. Ghana'));

    await user.click(within(form).getByRole('button', { name: 'Add round' }));
    const second = within(form).getByRole('group', { name: /^Round 2/ });
    await fillField(within(second).getByLabelText(fieldLabel('Round key')), 'final');
    await fillField(within(second).getByLabelText(fieldLabel('Round label')), 'Final');
    await choose(user, second, 'Kind', 'Pick the winner of a game');
    await user.click(within(second).getByRole('button', { name: 'Add game' }));
    await choose(user, second, 'Game 1 team', 'Uganda');
    await choose(user, second, 'Game 1 against', 'Kenya');

    // Two rounds: the rounds menu first, then each round's own screen, with its length against 182.
    await waitFor(() => expect(screenText('Rounds')).toBe(`${name}: choose a round\n1. General\n2. Final`));
    expect(screenText('Final')).toBe('Who wins Uganda vs Kenya?\n1. Uganda\n2. Kenya\n0. Back');
    const finalScreen = within(screen.getByRole('region', { name: 'USSD preview' })).getByRole('figure', { name: 'Screen Final' });
    expect(within(finalScreen).getByText(`${'CON '.length + (screenText('Final') ?? '').length}/182`)).toBeInTheDocument();

    await user.click(within(form).getByRole('button', { name: 'Create' }));
    expect(await toast(`Created the campaign ${name} as a draft`)).toBeInTheDocument();
    const row = await screen.findByText(key).then((cell) => cell.closest('[role="row"]') as HTMLElement);
    expect(within(row).getByText('Draft')).toBeInTheDocument();
    expect(within(row).getByText(code.name)).toBeInTheDocument();
    expect(row.querySelector('[data-field="rounds"]')).toHaveTextContent('2');

    await user.click(within(row).getByRole('button', { name: `Publish ${name}` }));
    const dialog = await screen.findByRole('dialog', { name: `Publish ${name}?` });
    await user.click(within(dialog).getByRole('button', { name: 'Publish' }));
    expect(await toast(`Published ${name}: its code offers it now`)).toBeInTheDocument();
    await waitFor(() => expect(within(rowOf(key)).getByText('Live')).toBeInTheDocument());
    expect(within(rowOf(key)).queryByRole('button', { name: `Publish ${name}` })).not.toBeInTheDocument();
    expect(within(rowOf(key)).getByRole('button', { name: `Close ${name}` })).toBeInTheDocument();

    // The edit view of a live campaign closes one round by hand.
    await user.click(within(rowOf(key)).getByRole('button', { name: `Edit ${name}` }));
    const edit = await screen.findByRole('form', { name: `Edit ${name}` });
    expect(within(edit).getByLabelText('Key')).toBeDisabled();
    await user.click(within(within(edit).getByRole('group', { name: /^Round 2/ })).getByRole('button', { name: 'Close round' }));
    const closeDialog = await screen.findByRole('dialog', { name: 'Close the round Final?' });
    await user.click(within(closeDialog).getByRole('button', { name: 'Close round' }));
    expect(await toast('Closed the round Final')).toBeInTheDocument();
    await waitFor(() => expect(within(edit).getByRole('group', { name: /^Round 2 · closed / })).toBeInTheDocument());
  }, 180_000);

  it("says a bad key's message under the key, the shared rule's words and the API's", async () => {
    const code = await createServiceCodeViaApi();
    const { user } = await renderApp({ url: '/campaigns', user: TEST_ADMIN });
    await user.click(await screen.findByRole('tab', { name: 'Create a campaign' }));
    const form = await screen.findByRole('form', { name: 'Create a campaign' });
    await fillField(within(form).getByLabelText(fieldLabel('Key')), 'Bad Key!');
    await fillField(within(form).getByLabelText(fieldLabel('Name')), 'A bad key');
    await choose(user, form, 'Service code', code.name);
    await user.type(within(form).getByRole('combobox', { name: 'Teams' }), 'Uganda{Enter}Kenya{Enter}');
    await user.click(within(form).getByRole('button', { name: 'Create' }));
    expect(await within(form).findByText(CAMPAIGN_MESSAGES.key)).toBeInTheDocument();

    // A key another campaign holds: the API's answer under the field.
    await fillField(within(form).getByLabelText(fieldLabel('Key')), 'world-cup-2022');
    await user.click(within(form).getByRole('button', { name: 'Create' }));
    expect(await within(form).findByText('A campaign with this key already exists, please choose another')).toBeInTheDocument();
    expect(within(form).getByLabelText(fieldLabel('Key'))).toHaveAttribute('aria-invalid', 'true');
  });

  it('is for admins and super-users only', async () => {
    const agent = await createAgentViaApi('campaign-agent');
    await renderApp({ url: '/campaigns', user: agent });
    expect(await screen.findByText('You do not have access to this page')).toBeInTheDocument();
  });
});
