import { configure, screen, waitFor, within } from '@testing-library/react';
import { apiUrl } from '../../api/api-url';
import { loginViaApi, renderApp } from '../../testing/render-app';
import { createServiceCodeViaApi, dialCalls, uniquePhoneNumber, type TestServiceCode } from '../../testing/ussd-calls';

configure({ asyncUtilTimeout: 30_000 });

/** The grid's data rows, top to bottom. */
// Hidden ones too: under an open dialog the page is hidden from assistive technology.
const dataRows = () => screen.getAllByRole('row', { hidden: true }).filter((row) => row.hasAttribute('data-id'));
const rowOf = (phoneNumber: string) => screen.getByText(phoneNumber).closest('[role="row"]') as HTMLElement;
const phoneOf = (row: HTMLElement) => within(row).getByText(/^2567\d{8}$/).textContent ?? '';
const focusedRow = () => dataRows().find((row) => row.getAttribute('aria-current') === 'true');

async function resolveViaApi(code: TestServiceCode, id: string) {
  const agent = await loginViaApi(code.agent);
  const response = await fetch(apiUrl(`/v1/transactions/to/give/attention/${id}`), {
    method: 'POST',
    headers: { Authorization: `Bearer ${agent.accessToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ isResolved: true }),
  });
  if (!response.ok) throw new Error(`resolve answered ${response.status}`);
}

describe('The Failed queue on the keyboard', () => {
  let code: TestServiceCode;

  beforeAll(async () => {
    code = await createServiceCodeViaApi();
    await dialCalls(code.name, [
      { phoneNumber: uniquePhoneNumber(), outcome: 'FAILED' },
      { phoneNumber: uniquePhoneNumber(), outcome: 'FAILED' },
      { phoneNumber: uniquePhoneNumber(), outcome: 'FAILED' },
      { phoneNumber: uniquePhoneNumber(), outcome: 'SUCCESSFUL' },
    ]);
  });

  it('j/j/r, a reason, a note and Enter resolve the second call and move on to the next open one; its timeline says why', async () => {
    const { user } = await renderApp({ url: '/failed', user: code.agent });
    await screen.findByText('Showing 3 out of 3 entries');
    await waitFor(() => expect(dataRows()).toHaveLength(3));
    const [first, second, third] = dataRows().map(phoneOf);

    await user.keyboard('j');
    expect(focusedRow()).toBe(rowOf(first));
    await user.keyboard('j');
    expect(focusedRow()).toBe(rowOf(second));
    // Said to screen readers through a live region.
    expect(screen.getByText(`Call 2 of 3: from ${second}, not resolved`)).toHaveAttribute('aria-live', 'polite');

    await user.keyboard('r');
    const dialog = await screen.findByRole('dialog', { name: `Resolve the call from ${second}` });
    // A reason must be chosen: Enter alone says so.
    await user.keyboard('{Enter}');
    expect(await within(dialog).findByText('Please choose a reason')).toBeInTheDocument();
    // Keys meant for the queue do nothing while the dialog is open.
    await user.keyboard('j');
    expect(focusedRow()).toBe(rowOf(second));
    await user.click(within(dialog).getByRole('radio', { name: 'Refunded' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Note (optional)' }), 'Refunded by mobile money{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await waitFor(() => expect(within(rowOf(second)).getByText('Yes')).toBeInTheDocument());
    expect(within(rowOf(first)).getByText('No')).toBeInTheDocument();
    expect(focusedRow()).toBe(rowOf(third));

    // Back to the resolved call, and its Details: the timeline names the reason and the note.
    await user.keyboard('k');
    expect(focusedRow()).toBe(rowOf(second));
    await user.keyboard('o');
    const drawer = await screen.findByRole('region', { name: 'Call details' });
    const timeline = await within(drawer).findByRole('list', { name: 'Timeline' });
    expect(await within(timeline).findByText('Refunded by mobile money')).toBeInTheDocument();
    expect(within(timeline).getByText('Refunded')).toBeInTheDocument();
  });

  it("'?' lists the shortcuts, and keys typed in a field stay in the field", async () => {
    const { user } = await renderApp({ url: '/failed', user: code.agent });
    await screen.findByText(/Showing \d out of 3 entries/);
    await user.keyboard('?');
    const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(help).getByText('Next call')).toBeInTheDocument();
    expect(within(help).getByText('Resolve the call, with a reason and a note')).toBeInTheDocument();
    await user.click(within(help).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    // The button says the same, for those who do not know the key.
    await user.click(screen.getByRole('button', { name: 'Keyboard shortcuts (?)' }));
    expect(await screen.findByRole('dialog', { name: 'Keyboard shortcuts' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('textbox', { name: 'Date' }));
    await user.keyboard('j');
    expect(focusedRow()).toBeUndefined();
  });
});

describe('Resolve selected', () => {
  let code: TestServiceCode;
  let calls: Awaited<ReturnType<typeof dialCalls>>;

  beforeAll(async () => {
    code = await createServiceCodeViaApi();
    calls = await dialCalls(code.name, [
      { phoneNumber: uniquePhoneNumber(), outcome: 'FAILED' },
      { phoneNumber: uniquePhoneNumber(), outcome: 'FAILED' },
      { phoneNumber: uniquePhoneNumber(), outcome: 'FAILED' },
    ]);
  });

  it('resolves the checked calls with one reason and shows what became of each', async () => {
    const { user } = await renderApp({ url: '/failed', user: code.agent });
    await screen.findByText('Showing 3 out of 3 entries');
    const resolveSelected = screen.getByRole('button', { name: 'Resolve selected (0)' });
    expect(resolveSelected).toBeDisabled();
    for (const call of calls) await user.click(within(rowOf(call.phoneNumber)).getByRole('checkbox'));
    expect(screen.getByRole('button', { name: 'Resolve selected (3)' })).toBeEnabled();

    // Meanwhile a colleague resolves one of them.
    await resolveViaApi(code, calls[1]._id);

    await user.click(screen.getByRole('button', { name: 'Resolve selected (3)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resolve 3 calls' });
    await user.click(within(dialog).getByRole('radio', { name: 'Could not reach' }));
    await user.click(within(dialog).getByRole('button', { name: 'Resolve' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    expect(await screen.findByText('Resolve selected: 2 resolved, 1 already resolved.', { selector: '.MuiAlert-message' })).toBeInTheDocument();
    expect(within(rowOf(calls[0].phoneNumber)).getByText('Resolved', { selector: '.cell-chip' })).toBeInTheDocument();
    expect(within(rowOf(calls[1].phoneNumber)).getByText('Already resolved', { selector: '.cell-chip' })).toBeInTheDocument();
    expect(within(rowOf(calls[2].phoneNumber)).getByText('Resolved', { selector: '.cell-chip' })).toBeInTheDocument();
    // Read again from the server: every one is resolved, none can be selected any more.
    for (const call of calls) await waitFor(() => expect(within(rowOf(call.phoneNumber)).getByText('Yes')).toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Resolve selected (0)' })).toBeDisabled();
    await waitFor(() => expect(within(rowOf(calls[0].phoneNumber)).getByRole('checkbox')).toBeDisabled());
  });
});
