import { configure, screen, waitFor, within } from '@testing-library/react';
import { FINAL_VOTERS } from '../../testing/campaign-votes';
import { renderApp } from '../../testing/render-app';
import { TEST_ADMIN } from '../../testing/test-admin';
import { createServiceCodeViaApi, dialCalls, uniquePhoneNumber, type TestServiceCode } from '../../testing/ussd-calls';

configure({ asyncUtilTimeout: 30_000 });

let code: TestServiceCode;
const phone = uniquePhoneNumber();

beforeAll(async () => {
  code = await createServiceCodeViaApi();
  await dialCalls(code.name, [
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
    expect(screen.getByText('Sent')).toBeInTheDocument();
    expect(screen.getByText('failed')).toBeInTheDocument();

    const paidRow = screen.getByText('processed').closest('[role="row"]') as HTMLElement;
    await user.click(within(paidRow).getByRole('button', { name: 'Ticket' }));
    expect(writeText).toHaveBeenCalledWith(code.ticketMessage);
    expect(within(paidRow).getByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await waitFor(() => expect(within(paidRow).getByRole('button', { name: 'Ticket' })).toBeInTheDocument(), { timeout: 4000 });
    // A failed call has no ticket to copy.
    const failedRow = screen.getByText('failed').closest('[role="row"]') as HTMLElement;
    expect(within(failedRow).getByRole('button', { name: 'Ticket' })).toHaveAttribute('aria-disabled', 'true');
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
});
