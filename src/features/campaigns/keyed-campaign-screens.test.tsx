import { configure, screen, waitFor, within } from '@testing-library/react';
import { createAfconAccountViaApi } from '../../testing/afcon-account';
import { renderApp } from '../../testing/render-app';
import { createCampaignViaApi, type TestCampaign } from '../../testing/test-campaign';
import { TEST_ADMIN } from '../../testing/test-admin';
import { castVotes, uniquePhoneNumber } from '../../testing/ussd-calls';

// A 50-row DataGrid renders slowly in jsdom on a busy machine.
configure({ asyncUtilTimeout: 30_000 });
jest.setTimeout(120_000);

const rowOf = (phoneNumber: string) => screen.getByText(phoneNumber).closest('[role="row"]') as HTMLElement;
const cell = (row: HTMLElement, field: string) => row.querySelector(`[data-field="${field}"]`)?.textContent;
const toast = (text: string) => screen.findByText(text, { selector: '#notistack-snackbar, #notistack-snackbar *' });

/** Votes for Kenya in the Winner round: round 1, team 2, confirm. */
const kenya = (phoneNumber: string, times: number) => Array.from({ length: times }, () => ({ phoneNumber, answers: '1*2*1' }));

let campaign: TestCampaign;
const CALM = uniquePhoneNumber();
const HEAVY = uniquePhoneNumber();
const ALSO_HEAVY = uniquePhoneNumber();
const UNPAID = uniquePhoneNumber();

beforeAll(async () => {
  // Two votes a minute are allowed: a number's third within the minute flags it, and is held with any after it.
  campaign = await createCampaignViaApi({ holdSuspicious: true, velocityPerMinute: 2 });
  await castVotes(campaign.serviceCode, [
    { phoneNumber: CALM, answers: '2*1*2*1' },
    ...kenya(HEAVY, 4),
    ...kenya(ALSO_HEAVY, 3),
    { phoneNumber: UNPAID, answers: '1*1*1', outcome: 'FAILED' },
  ]);
}, 120_000);

describe("a created campaign's screens under /campaigns/{key}", () => {
  it('lists its transactions with the count in the heading, Amount and Export CSV', async () => {
    await renderApp({ url: `/campaigns/${campaign.key}/transactions`, user: TEST_ADMIN });
    expect(await screen.findByRole('heading', { level: 1, name: `${campaign.name} Transactions ( 9 )` })).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Amount' })).toBeInTheDocument();
    await waitFor(() => expect(cell(rowOf(CALM), 'amount')).toMatch(/^300/));
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeInTheDocument();
    // The sidebar lists the live campaign's screens.
    const menu = await screen.findByRole('navigation', { name: 'Main menu' });
    expect(within(menu).getByRole('link', { name: `${campaign.name} Suspicious` })).toHaveAttribute('href', `/campaigns/${campaign.key}/suspicious`);
    expect(within(menu).getByRole('link', { name: 'All campaigns' })).toHaveAttribute('href', '/campaigns');
  });

  it('resolves a failed vote from its failed list, and finds a voter by number', async () => {
    const { user } = await renderApp({ url: `/campaigns/${campaign.key}/failed`, user: TEST_ADMIN });
    expect(await screen.findByRole('heading', { level: 1, name: `${campaign.name} Failed Transactions ( 1 )` })).toBeInTheDocument();
    await waitFor(() => expect(within(rowOf(UNPAID)).getByRole('button', { name: 'Resolve' })).toBeInTheDocument());
    await user.click(within(rowOf(UNPAID)).getByRole('button', { name: 'Resolve' }));
    expect(await toast('Resolved')).toBeInTheDocument();
    await waitFor(() => expect(within(rowOf(UNPAID)).getByRole('button', { name: 'Resolved' })).toHaveAttribute('aria-disabled', 'true'));
    await user.click(within(await screen.findByRole('navigation', { name: 'Main menu' })).getByRole('link', { name: `${campaign.name} Search` }));
    await user.type(await screen.findByLabelText('Phone number'), ALSO_HEAVY);
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByRole('heading', { level: 1, name: `${campaign.name} Trans Search ( 3 )` })).toBeInTheDocument();
  });

  it('ranks per round with peaks and flags, flagged only on asking; a released vote moves the ranking', async () => {
    const { user, query } = await renderApp({ url: `/campaigns/${campaign.key}/ranking`, user: TEST_ADMIN });
    expect(await screen.findByRole('heading', { level: 1, name: `${campaign.name} Overall Ranking` })).toBeInTheDocument();
    // The held votes count nowhere yet: two each for the flagged numbers.
    await waitFor(() => expect(cell(rowOf(HEAVY), 'count')).toBe('2'));
    expect(cell(rowOf(ALSO_HEAVY), 'count')).toBe('2');
    expect(within(rowOf(HEAVY)).getByText('Velocity')).toBeInTheDocument();
    expect(cell(rowOf(CALM), 'anomaly')).toBe('1/min');
    const results = screen.getByRole('region', { name: 'Team results' });
    expect(within(within(results).getByRole('group', { name: 'Total votes' })).getByText('5')).toBeInTheDocument();

    await user.click(screen.getByRole('switch', { name: 'Flagged only' }));
    await waitFor(() => expect(screen.queryByText(CALM)).not.toBeInTheDocument());
    expect(query()).toMatchObject({ flagged: 'true' });
    expect(screen.getByText('Showing 2 out of 2 entries')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Round' }));
    await user.click(await screen.findByRole('option', { name: 'Semi-finals' }));
    expect(await screen.findByRole('heading', { level: 1, name: `${campaign.name} Semi-finals Ranking` })).toBeInTheDocument();
    expect(query()).toMatchObject({ round: 'semis' });

    await user.click(screen.getByRole('link', { name: 'Suspicious numbers' }));
    expect(await screen.findByRole('heading', { level: 1, name: `${campaign.name} Suspicious Numbers ( 0 )` })).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Round' }));
    await user.click(await screen.findByRole('option', { name: 'Winner' }));
    await screen.findByRole('heading', { level: 1, name: `${campaign.name} Suspicious Numbers ( 2 )` });
    await waitFor(() => expect(cell(rowOf(HEAVY), 'heldVotes')).toBe('2'));
    await user.click(screen.getByRole('button', { name: `Release the held votes of ${HEAVY}` }));
    const confirm = await screen.findByRole('dialog', { name: `Release 2 held votes of +${HEAVY}?` });
    await user.click(within(confirm).getByRole('button', { name: 'Release' }));
    expect(await toast(`2 held votes of +${HEAVY} released`)).toBeInTheDocument();
    await waitFor(() => expect(cell(rowOf(HEAVY), 'heldVotes')).toBe('0'));

    await user.click(within(await screen.findByRole('navigation', { name: 'Main menu' })).getByRole('link', { name: `${campaign.name} Ranking` }));
    await waitFor(() => expect(cell(rowOf(HEAVY), 'count')).toBe('4'));
    expect(cell(rowOf(HEAVY), '__number')).toBe('1');
  });

  it('rejects held votes only with a reason, after which they never count', async () => {
    const { user } = await renderApp({ url: `/campaigns/${campaign.key}/suspicious?round=winner`, user: TEST_ADMIN });
    await waitFor(() => expect(cell(rowOf(ALSO_HEAVY), 'heldVotes')).toBe('1'));
    await user.click(screen.getByRole('button', { name: `Reject the held votes of ${ALSO_HEAVY}` }));
    const dialog = await screen.findByRole('dialog', { name: `Reject 1 held vote of +${ALSO_HEAVY}` });
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await within(dialog).findByText('Please say why the votes are rejected')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Reason'), 'Power-dialled from one handset');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await toast(`1 held vote of +${ALSO_HEAVY} rejected`)).toBeInTheDocument();
    await waitFor(() => expect(cell(rowOf(ALSO_HEAVY), 'heldVotes')).toBe('0'));
    expect(screen.queryByRole('button', { name: `Reject the held votes of ${ALSO_HEAVY}` })).not.toBeInTheDocument();
  });

  it("leads a SPEC campaign's keyed list to its SPEC path", async () => {
    const { pathname } = await renderApp({ url: '/campaigns/world-cup-2022/transactions', user: TEST_ADMIN });
    expect(await screen.findByRole('heading', { level: 1, name: 'World Cup Transactions' })).toBeInTheDocument();
    expect(pathname()).toBe('/world/cup/transactions');
  });

  it("shows World Cup 2022's suspicious numbers under its key", async () => {
    await renderApp({ url: '/campaigns/world-cup-2022/suspicious', user: TEST_ADMIN });
    expect(await screen.findByRole('heading', { level: 1, name: /^World Cup 2022 Suspicious Numbers \( \d+ \)$/ })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Round' })).toHaveTextContent('Every round');
  });

  it("lets the Afcon-only account read AFCON's suspicious numbers without deciding, and no other campaign's", async () => {
    const afcon = await createAfconAccountViaApi();
    const own = await renderApp({ url: '/campaigns/afcon-2024/suspicious', user: afcon });
    expect(await screen.findByRole('heading', { level: 1, name: /^AFCON 2024 Suspicious Numbers \( \d+ \)$/ })).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Action' })).not.toBeInTheDocument();
    const menu = await screen.findByRole('navigation', { name: 'Main menu' });
    expect(within(menu).queryByRole('group', { name: 'Campaigns' })).not.toBeInTheDocument();
    own.unmount();

    await renderApp({ url: `/campaigns/${campaign.key}/ranking`, user: afcon });
    expect(await screen.findByRole('heading', { name: 'You do not have access to this page' })).toBeInTheDocument();
  });
});
