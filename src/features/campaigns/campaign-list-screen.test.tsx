import { configure, screen, waitFor, within } from '@testing-library/react';
import { AFCON_VOTERS, FINAL_VOTERS, HEAVY_VOTER } from '../../testing/campaign-votes';
import { renderApp } from '../../testing/render-app';
import { TEST_ADMIN } from '../../testing/test-admin';

configure({ asyncUtilTimeout: 30_000 });

type App = Awaited<ReturnType<typeof renderApp>>;

const toast = (text: string) => screen.findByText(text, { selector: '#notistack-snackbar, #notistack-snackbar *' });
const grid = () => within(screen.getByRole('grid'));
const rowsOf = (phoneNumber: string) => grid().getAllByText(phoneNumber).map((cell) => cell.closest('[role="row"]') as HTMLElement);

/** Types a day MM/DD/YYYY into the date filter. */
async function chooseDay(user: App['user'], day: string) {
  const field = await screen.findByRole('textbox', { name: 'Date' });
  await user.clear(field);
  await user.type(field, day);
}

describe('campaign list screens', () => {
  it('shows the World Cup code fixed and disabled, and a day of votes with Team as the ranking reads a game', async () => {
    const { user } = await renderApp({ url: '/world/cup/transactions', user: TEST_ADMIN });
    const code = await screen.findByRole('textbox', { name: 'Service code' });
    await waitFor(() => expect(code).toHaveValue('*217*50#'));
    expect(code).toBeDisabled();
    expect(screen.queryByRole('combobox', { name: 'Service code' })).not.toBeInTheDocument();
    await chooseDay(user, '12/18/2022');
    expect(await toast('Transactions for 18 December 2022')).toBeInTheDocument();
    await screen.findByText('Showing 7 out of 7 entries');
    expect(grid().getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['#', 'Date/Time', 'Service code', 'From', 'Team', 'Status', 'Network', 'Details']);
    // A vote for Argentina in the game France against Argentina: the pick first, the game after it.
    const team = rowsOf(FINAL_VOTERS[0])[0].querySelector('[data-field="teamName"]') as HTMLElement;
    expect([...team.querySelectorAll('.vote-text > span')].map((part) => part.textContent)).toEqual(['Argentina', 'France vs Argentina']);
    // One day's list: the heading has the day, the rows the time alone.
    expect(within(rowsOf(FINAL_VOTERS[0])[0]).getByText(/^\d\d:\d\d [ap]m$/)).toBeInTheDocument();
    // World Cup has no day total line; AFCON does.
    expect(screen.queryByText(/Transactions for 18 December 2022 \(/)).not.toBeInTheDocument();
  });

  it("shows AFCON's code in green and 'Transactions for {date} ( total )', the Team a single team", async () => {
    const { user } = await renderApp({ url: '/afcon/2024/transactions', user: TEST_ADMIN });
    const code = await screen.findByRole('textbox', { name: 'Service code' });
    await waitFor(() => expect(code).toHaveValue('*284*24#'));
    expect(code).toBeDisabled();
    expect(getComputedStyle(code).color).toBe('rgb(46, 125, 50)');
    await chooseDay(user, '01/20/2024');
    // The total sits in a span of its own (kept on one line): read the line's whole text.
    expect(await screen.findByText((_, element) => Boolean(element?.matches('.MuiTypography-subtitle1')) && element?.textContent === 'Transactions for 20 January 2024 ( 4 )')).toBeInTheDocument();
    await screen.findByText('Showing 4 out of 4 entries');
    expect(within(rowsOf(AFCON_VOTERS[1])[0]).getByText('Senegal')).toBeInTheDocument();
    expect(rowsOf(AFCON_VOTERS[0]).map((row) => within(row).getByText('Nigeria'))).toHaveLength(3);
  });

  it('resolves a failed World Cup vote: Yes at once, kept by the server', async () => {
    const { user, unmount } = await renderApp({ url: '/world/cup/failed', user: TEST_ADMIN });
    expect(await screen.findByText(/Clients with failed transactions are engaged to help them succeed/)).toBeInTheDocument();
    await chooseDay(user, '12/18/2022');
    await screen.findByText('Showing 1 out of 1 entries');
    // Its toast says what /failed's says.
    expect(await toast('Failed transactions for 18 December 2022')).toBeInTheDocument();
    const [row] = rowsOf(FINAL_VOTERS[2]);
    expect(within(row).getByText('Argentina vs France')).toBeInTheDocument();
    expect(within(row).getByText('No')).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Resolve' }));
    await waitFor(() => expect(within(rowsOf(FINAL_VOTERS[2])[0]).getByText('Yes')).toBeInTheDocument());
    expect(await toast('Resolved')).toBeInTheDocument();

    // A new session (fresh store, nothing resolved locally) reads Yes from the server.
    unmount();
    const again = await renderApp({ url: '/world/cup/failed', user: TEST_ADMIN });
    await chooseDay(again.user, '12/18/2022');
    await screen.findByText('Showing 1 out of 1 entries');
    await waitFor(() => expect(within(rowsOf(FINAL_VOTERS[2])[0]).getByRole('button', { name: 'Resolved' })).toHaveAttribute('aria-disabled', 'true'));
  });

  it("finds a voter's votes with the legend, Team and the Ticket button", async () => {
    const { user } = await renderApp({ url: '/world/cup/search', user: TEST_ADMIN });
    expect(await screen.findByText(/means failed and no money was deducted/)).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Phone number' }), HEAVY_VOTER);
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await toast('Transactions')).toBeInTheDocument();
    await screen.findByText('Showing 50 out of 57 entries');
    const [newest] = rowsOf(HEAVY_VOTER);
    expect(within(newest).getByText('Brazil vs Croatia')).toBeInTheDocument();
    // Campaign votes carry no ticket: the button is there, with nothing to copy.
    expect(within(newest).getByRole('button', { name: 'Ticket' })).toHaveAttribute('aria-disabled', 'true');
    expect(grid().getByRole('columnheader', { name: 'Team' })).toBeInTheDocument();
  });
});
