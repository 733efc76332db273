import { configure, screen, waitFor, within } from '@testing-library/react';
import { formatDay, formatMoney, todayInServiceZone } from '../../domain/format';
import { FINAL_VOTERS } from '../../testing/campaign-votes';
import { renderApp } from '../../testing/render-app';
import { TEST_ADMIN } from '../../testing/test-admin';
import { createServiceCodeViaApi, dialCalls, uniquePhoneNumber, type TestServiceCode } from '../../testing/ussd-calls';

configure({ asyncUtilTimeout: 30_000 });

let code: TestServiceCode;
let calls: Awaited<ReturnType<typeof dialCalls>>;
const phone = uniquePhoneNumber();

beforeAll(async () => {
  code = await createServiceCodeViaApi();
  calls = await dialCalls(code.name, [
    { phoneNumber: phone, choice: '2', outcome: 'SUCCESSFUL' },
    { phoneNumber: phone, outcome: 'FAILED' },
  ]);
});

describe('Transaction search screen', () => {
  it('finds a caller by any number form, shows the legend, and copies the ticket for 2 seconds', async () => {
    const { user } = await renderApp({ url: '/search', user: TEST_ADMIN });
    // The clipboard is the browser's, not ours: stand in for it (after userEvent installs its own).
    const writeText = jest.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    expect(await screen.findByText(/means failed and no money was deducted/)).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Phone number' }), `0${phone.slice(3)}`);
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText('Showing 2 out of 2 entries');
    expect(screen.getByRole('columnheader', { name: 'Copy' })).toBeInTheDocument();
    // The footer's count can paint before the rows on a loaded machine: wait for the rows themselves.
    expect(await screen.findByText('Sent')).toBeInTheDocument();
    expect(await screen.findByText('failed')).toBeInTheDocument();

    const paidRow = screen.getByText('processed').closest('[role="row"]') as HTMLElement;
    await user.click(within(paidRow).getByRole('button', { name: 'Ticket' }));
    expect(writeText).toHaveBeenCalledWith(code.ticketMessage);
    expect(within(paidRow).getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await waitFor(() => expect(within(paidRow).getByRole('button', { name: 'Ticket' })).toBeInTheDocument(), { timeout: 4000 });
    // A failed call has no ticket to copy.
    const failedRow = screen.getByText('failed').closest('[role="row"]') as HTMLElement;
    expect(within(failedRow).getByRole('button', { name: 'Ticket' })).toHaveAttribute('aria-disabled', 'true');

    // The amount, and the payment reference one click away, as on Failed.
    expect(screen.getByRole('columnheader', { name: 'Amount' })).toBeInTheDocument();
    const amount = paidRow.querySelector('[data-field="amount"]') as HTMLElement;
    expect(amount).toHaveTextContent(formatMoney(calls[0].amount));
    await user.click(within(amount).getByRole('button', { name: 'Copy payment reference' }));
    expect(writeText).toHaveBeenLastCalledWith(expect.stringMatching(/^[0-9a-f-]{36}$/));
    expect(within(amount).getByRole('button', { name: 'Payment reference copied' })).toBeInTheDocument();
  });

  it('offers Refund on the processed call only and asks for one in the dialog Details uses', async () => {
    const { user } = await renderApp({ url: `/search?phoneNumber=${phone}`, user: TEST_ADMIN });
    await screen.findByText('Showing 2 out of 2 entries');
    const failedRow = screen.getByText('failed').closest('[role="row"]') as HTMLElement;
    expect(within(failedRow).queryByRole('button', { name: /^Refund the call/ })).toBeNull();
    const paidRow = screen.getByText('processed').closest('[role="row"]') as HTMLElement;
    await user.click(within(paidRow).getByRole('button', { name: `Refund the call from ${phone}` }));
    const dialog = await screen.findByRole('dialog', { name: `Refund the call from ${phone}` });
    expect(within(dialog).getByRole('spinbutton', { name: 'Amount (UGX)' })).toHaveValue(calls[0].amount);
    await user.click(within(dialog).getByRole('combobox', { name: /^Reason/ }));
    await user.click(await screen.findByRole('option', { name: 'Customer request' }));
    await user.click(within(dialog).getByRole('button', { name: 'Request refund' }));
    expect(await screen.findByText('Refund requested')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('searches a range of days when one is chosen beside the number, and every day again without', async () => {
    const today = todayInServiceZone();
    const { user } = await renderApp({ url: `/search?phoneNumber=${phone}`, user: TEST_ADMIN });
    await screen.findByText('Showing 2 out of 2 entries');
    await user.click(screen.getByRole('button', { name: 'Choose a range of days' }));
    // The range opens on today, which has both calls; the heading names it.
    expect(await screen.findByRole('heading', { level: 1, name: `Transaction search from ${formatDay(today)} to ${formatDay(today)}` })).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'From' })).toBeInTheDocument();
    await screen.findByText('Showing 2 out of 2 entries');
    await user.click(screen.getByRole('button', { name: 'Show one day' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Transaction search' })).toBeInTheDocument();
  });

  it('finds nothing in a range of days before the calls', async () => {
    const day = (back: number) => todayInServiceZone(new Date(Date.now() - back * 86_400_000));
    await renderApp({ url: `/search?phoneNumber=${phone}&dateFrom=${day(5)}&dateTo=${day(1)}`, user: TEST_ADMIN });
    expect(await screen.findByRole('heading', { level: 1, name: /^Transaction search from / })).toBeInTheDocument();
    expect(await screen.findByText('No records')).toBeInTheDocument();
  });

  it("says 'Invalid phone number' in the field and asks the API nothing for a bad number", async () => {
    const fetchSpy = jest.spyOn(globalThis, 'fetch');
    try {
      const { user } = await renderApp({ url: '/search', user: TEST_ADMIN });
      const field = await screen.findByRole('textbox', { name: 'Phone number' });
      await user.type(field, 'abc');
      await user.click(screen.getByRole('button', { name: 'Search' }));
      expect(field).toHaveAccessibleDescription('Invalid phone number');
      expect(field).toHaveAttribute('aria-invalid', 'true');
      const searches = fetchSpy.mock.calls.filter(([input]) => String(input instanceof Request ? input.url : input).includes('/search'));
      expect(searches).toHaveLength(0);
      expect(screen.queryByText('Unexpected error')).not.toBeInTheDocument();
      // Typing again clears the message; a good number searches.
      await user.clear(field);
      expect(field).not.toHaveAccessibleDescription();
      await user.type(field, phone);
      await user.click(screen.getByRole('button', { name: 'Search' }));
      await screen.findByText('Showing 2 out of 2 entries');
    } finally {
      fetchSpy.mockRestore();
    }
  });

  it('shows a vote as its pick and its campaign under Category or Team', async () => {
    const { user } = await renderApp({ url: '/search', user: TEST_ADMIN });
    await user.type(await screen.findByRole('textbox', { name: 'Phone number' }), FINAL_VOTERS[0]);
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText(/^Showing [1-9]\d* out of/);
    expect(screen.getByRole('columnheader', { name: 'Category or Team' })).toBeInTheDocument();
    const vote = screen.getAllByRole('row').find((row) => within(row).queryByText('World Cup 2022')) as HTMLElement;
    const cell = vote.querySelector('[data-field="category"]') as HTMLElement;
    expect([...cell.querySelectorAll('.vote-text > span')].map((part) => part.textContent)).toEqual(['Argentina', 'World Cup 2022']);
    // The game is in the hover text (and the call's details).
    expect(within(cell).getByTitle('Argentina · France vs Argentina · World Cup 2022')).toBeInTheDocument();
  });

  it("shows an agent none of another agent's calls", async () => {
    const other = await createServiceCodeViaApi();
    const { user } = await renderApp({ url: '/search', user: other.agent });
    await user.type(await screen.findByRole('textbox', { name: 'Phone number' }), phone);
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No records')).toBeInTheDocument();
  });

  it("offers an agent no Refund, even on its own processed call", async () => {
    const { user } = await renderApp({ url: '/search', user: code.agent });
    await user.type(await screen.findByRole('textbox', { name: 'Phone number' }), phone);
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText('Showing 2 out of 2 entries');
    expect(screen.getByText('processed')).toBeInTheDocument();
    expect(screen.queryAllByRole('button', { name: /^Refund the call/ })).toHaveLength(0);
  });
});
