import { act, configure, screen, waitFor, within } from '@testing-library/react';
import { AFCON_VOTERS, HEAVY_VOTER, HEAVY_VOTES, WEEK2_VOTER, WEEK4_VOTERS } from '../../testing/campaign-votes';
import { renderApp } from '../../testing/render-app';
import { TEST_ADMIN } from '../../testing/test-admin';

// A 50-row DataGrid renders slowly in jsdom on a busy machine.
configure({ asyncUtilTimeout: 30_000 });

const rowOf = (phoneNumber: string, scope: HTMLElement = document.body) => within(scope).getByText(phoneNumber).closest('[role="row"]') as HTMLElement;
const cell = (row: HTMLElement, field: string) => row.querySelector(`[data-field="${field}"]`)?.textContent;
const dataRows = (scope: HTMLElement) => within(scope).getAllByRole('row').slice(1);

describe('ranking screen', () => {
  it('numbers rows across pages: page × limit − limit + n', async () => {
    const { user } = await renderApp({ url: '/world/cup/week/4/ranking', user: TEST_ADMIN });
    await waitFor(() => expect(screen.getByText('Showing 50 out of 53 entries')).toBeInTheDocument());
    const first = rowOf(WEEK4_VOTERS[0]);
    expect(cell(first, '__number')).toBe('1');
    expect(cell(first, 'serviceCode')).toBe('*217*50#');
    expect(cell(first, 'count')).toBe('1');
    expect(cell(rowOf(WEEK4_VOTERS[49]), '__number')).toBe('50');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByText('Showing 3 out of 53 entries')).toBeInTheDocument());
    expect(cell(rowOf(WEEK4_VOTERS[50]), '__number')).toBe('51');
    expect(cell(rowOf(WEEK4_VOTERS[52]), '__number')).toBe('53');
  });

  it("opens 'Team selection by user': plus prefix, total, games newest first, paged past the row's 50", async () => {
    const { user } = await renderApp({ url: '/world/cup/week/3/ranking', user: TEST_ADMIN });
    await waitFor(() => expect(cell(rowOf(HEAVY_VOTER), 'count')).toBe(String(HEAVY_VOTES)));
    await user.click(screen.getByRole('button', { name: `View more of ${HEAVY_VOTER}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Team selection by user' });
    expect(within(dialog).getByText(`+${HEAVY_VOTER}`)).toBeInTheDocument();
    expect(within(dialog).getByText(`Total: ${HEAVY_VOTES}`)).toBeInTheDocument();
    expect(within(dialog).getByText('Showing 50 out of 57 entries')).toBeInTheDocument();
    const [newest] = dataRows(dialog);
    expect(cell(newest, '__number')).toBe('1');
    // Votes were cast a minute apart from 12:00 Kampala time; the newest comes first.
    expect(cell(newest, 'createdAt')).toBe('28 November 2022 12:56 pm');
    expect(cell(newest, 'game')).toBe('Brazil vs Croatia');
    expect(cell(newest, 'teamName')).toBe('Croatia');
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(within(dialog).getByText('Showing 7 out of 57 entries')).toBeInTheDocument());
    const rows = dataRows(dialog);
    expect(cell(rows[0], '__number')).toBe('51');
    expect(cell(rows[6], '__number')).toBe('57');
    expect(cell(rows[6], 'createdAt')).toBe('28 November 2022 12:00 pm');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it("shows 'General prediction' for a vote without a second team", async () => {
    const { user } = await renderApp({ url: '/afcon/2024/ranking', user: TEST_ADMIN });
    await waitFor(() => expect(cell(rowOf(AFCON_VOTERS[0]), 'count')).toBe('3'));
    const loadToast = () => screen.queryByText('User ranking by votes', { selector: '#notistack-snackbar' });
    expect(loadToast()).toBeInTheDocument();
    // The window loses the focus, so the toast's own time stands still: only the dialog can close it.
    act(() => {
      window.dispatchEvent(new Event('blur'));
    });
    await user.click(screen.getByRole('button', { name: `View more of ${AFCON_VOTERS[0]}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Team selection by user' });
    expect(within(dialog).getByText('Total: 3')).toBeInTheDocument();
    // The load toast would cover the dialog's title: it goes when the dialog opens.
    await waitFor(() => expect(loadToast()).not.toBeInTheDocument());
    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    const rows = dataRows(dialog);
    expect(rows.map((row) => cell(row, 'game'))).toEqual(['General prediction', 'General prediction', 'General prediction']);
    expect(rows.map((row) => cell(row, 'teamName'))).toEqual(['Nigeria', 'Nigeria', 'Nigeria']);
  });

  it('charts votes per team for the round with total votes and distinct voters side by side', async () => {
    await renderApp({ url: '/world/cup/final/winner', user: TEST_ADMIN });
    const results = await screen.findByRole('region', { name: 'Team results' });
    // Six processed votes from three phone numbers; the failed vote counts nowhere.
    await waitFor(() => expect(within(within(results).getByRole('group', { name: 'Total votes' })).getByText('6')).toBeInTheDocument());
    expect(within(within(results).getByRole('group', { name: 'Distinct voters' })).getByText('3')).toBeInTheDocument();
    const table = within(results).getByRole('table', { name: 'Votes per team' });
    expect(within(table).getAllByRole('row').slice(1).map((row) => row.textContent)).toEqual(['Argentina4', 'France2']);
  });

  it("'Live' asks again for the ranking and the chart every 10 seconds", async () => {
    const { user, store } = await renderApp({ url: '/world/cup/week/2/ranking', user: TEST_ADMIN });
    await screen.findByText('Showing 1 out of 1 entries');
    const requests = () =>
      Object.values(store.getState().api.queries)
        .filter((query) => query?.endpointName === 'getRanking' || query?.endpointName === 'getCampaignResults')
        .map((query) => query?.requestId);
    const first = requests();
    expect(first).toHaveLength(2);
    await user.click(screen.getByRole('switch', { name: 'Live' }));
    await waitFor(() => expect(requests().every((id, i) => id !== first[i])).toBe(true), { timeout: 15_000 });
    expect(screen.getByText(WEEK2_VOTER)).toBeInTheDocument();
  });

  it('exports the whole ranking as CSV through the store', async () => {
    const saved: Blob[] = [];
    Object.assign(URL, {
      createObjectURL: jest.fn((blob: Blob) => {
        saved.push(blob);
        return 'blob:ranking';
      }),
      revokeObjectURL: jest.fn(),
    });
    const { user } = await renderApp({ url: '/world/cup/week/4/ranking', user: TEST_ADMIN });
    await screen.findByText('Showing 50 out of 53 entries');
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    const lines = (await saved[0].text()).trim().split(/\r?\n/);
    expect(lines[0]).toBe('rank,phoneNumber,serviceCode,votes,lastVoteAt');
    expect(lines).toHaveLength(54);
    expect(lines[1]).toMatch(new RegExp(`^1,${WEEK4_VOTERS[0]},`));
  });
});
