import { configure, screen, waitFor, within } from '@testing-library/react';
import type { AppStore } from '../../state/store';
import { createAfconAccountViaApi } from '../../testing/afcon-account';
import { AFCON_VOTERS, FINAL_VOTERS, HEAVY_VOTER, WEEK2_VOTER, WEEK4_VOTERS } from '../../testing/campaign-votes';
import { createAgentViaApi, renderApp } from '../../testing/render-app';
import { formatDay, todayInServiceZone } from '../../domain/format';
import { TEST_ADMIN } from '../../testing/test-admin';
import { CAMPAIGN_DESCRIPTORS } from './campaign-descriptors';

configure({ asyncUtilTimeout: 30_000 });

/** The ranking call each route must make (SPEC §2, DESIGN §3), and a voter only that ranking shows first. */
const RANKINGS: Record<string, { call: string; topVoter: string }> = {
  '/world/cup/most/general': { call: '/v1/world/cup/better/all', topVoter: HEAVY_VOTER },
  '/world/cup/week/2/ranking': { call: '/v1/world/cup/week2/better/all', topVoter: WEEK2_VOTER },
  '/world/cup/week/3/ranking': { call: '/v1/world/cup/week3/better/all', topVoter: HEAVY_VOTER },
  '/world/cup/week/4/ranking': { call: '/v1/world/cup/week4/better/all', topVoter: WEEK4_VOTERS[0] },
  '/world/cup/final/winner': { call: '/v1/world/cup/final/winner/better/all', topVoter: FINAL_VOTERS[0] },
  '/afcon/2024/ranking': { call: '/v1/afcon/2024/better/all', topVoter: AFCON_VOTERS[0] },
};

/** The list call each list route must make (DESIGN §3); the search screens look for a voter of their campaign. */
const LISTS: Record<string, { call: string; voter?: string }> = {
  '/world/cup/transactions': { call: '/v1/world/cup/analysis/all' },
  '/world/cup/failed': { call: '/v1/world/cup/analysis/to/give/attention' },
  '/world/cup/search': { call: '/v1/world/cup/analysis/search', voter: WEEK2_VOTER },
  '/afcon/2024/transactions': { call: '/v1/afcon/2024/analysis/all' },
  '/afcon/2024/failed': { call: '/v1/afcon/2024/analysis/to/give/attention' },
  '/afcon/2024/search': { call: '/v1/afcon/2024/analysis/search', voter: AFCON_VOTERS[1] },
};

const SCREENS = CAMPAIGN_DESCRIPTORS.flatMap((campaign) => campaign.screens.map((entry) => ({ campaign: campaign.key, ...entry })));

/**
 * The calls of one endpoint the store made and got an answer to, with what they sent: one
 * refetching (a live event from another test file's votes) counts too, as it has answered before.
 */
function callsOf(store: AppStore, endpointName: string) {
  return Object.values(store.getState().api.queries)
    .filter((query) => query?.endpointName === endpointName && (query.status === 'fulfilled' || query.data !== undefined))
    .map((query) => query?.originalArgs as unknown as Record<string, string>);
}
const rankingCalls = (store: AppStore) => callsOf(store, 'getRanking');
const toast = (text: string) => screen.findByText(text, { selector: '#notistack-snackbar, #notistack-snackbar *' });
const codeOf = (campaign: string) => (campaign === 'afcon-2024' ? '*284*24#' : '*217*50#');

// The first row of the ranking grid (the chart's table of teams has rows too).
const firstDataRow = () => within(screen.getByRole('grid')).getAllByRole('row')[1];
const mainMenu = async () => screen.findByRole('navigation', { name: 'Main menu' });

describe('campaign routes from the descriptors', () => {
  it('declares all twelve routes of SPEC §2 and DESIGN §3, lists first then rankings', () => {
    expect(SCREENS.map((s) => s.path)).toEqual([
      '/world/cup/transactions',
      '/world/cup/failed',
      '/world/cup/search',
      ...Object.keys(RANKINGS).slice(0, 5),
      '/afcon/2024/transactions',
      '/afcon/2024/failed',
      '/afcon/2024/search',
      '/afcon/2024/ranking',
    ]);
    const afcon = CAMPAIGN_DESCRIPTORS.find((c) => c.key === 'afcon-2024');
    expect(afcon?.extras).toEqual({ greenServiceCode: true, dayTotalLine: true, listExtras: false });
    expect(afcon?.lists.transactions).toBe('/v1/afcon/2024/analysis/all');
    expect(afcon?.lists.resolve?.('abc')).toBe('/v1/afcon/2024/analysis/to/give/attention/abc');
  });

  it.each(SCREENS.filter((s) => s.kind !== 'ranking'))('$path renders its list screen ($title) and calls its endpoint', async ({ path, title, campaign, kind }) => {
    const { store, user } = await renderApp({ url: path, user: TEST_ADMIN });
    expect(await screen.findByRole('heading', { name: title, level: 1 })).toBeInTheDocument();
    const { call, voter } = LISTS[path];
    if (voter) {
      await user.type(screen.getByRole('textbox', { name: 'Phone number' }), voter);
      await user.click(screen.getByRole('button', { name: 'Search' }));
      expect(await toast('Transactions')).toBeInTheDocument();
      await waitFor(() => expect(within(firstDataRow()).getByText(voter)).toBeInTheDocument());
      expect(callsOf(store, 'getCampaignTransactions')).toEqual([expect.objectContaining({ call, phoneNumber: voter })]);
    } else {
      const today = todayInServiceZone();
      // The failed lists say so, as /failed does.
      expect(await toast(`${kind === 'failed' ? 'Failed transactions' : 'Transactions'} for ${formatDay(today)}`)).toBeInTheDocument();
      expect(screen.getByRole('textbox', { name: 'Service code' })).toHaveValue(codeOf(campaign));
      expect(callsOf(store, 'getCampaignTransactions')).toEqual([expect.objectContaining({ call, name: codeOf(campaign), date: today })]);
    }
  });

  it.each(SCREENS.filter((s) => s.kind === 'ranking'))('$path renders its ranking and calls its endpoint', async ({ path, title, campaign }) => {
    const { store } = await renderApp({ url: path, user: TEST_ADMIN });
    expect(await screen.findByRole('heading', { name: title, level: 1 })).toBeInTheDocument();
    expect(await screen.findByText('User ranking by votes')).toBeInTheDocument();
    await waitFor(() => expect(within(firstDataRow()).getByText(RANKINGS[path].topVoter)).toBeInTheDocument());
    const code = codeOf(campaign);
    expect(screen.getByRole('textbox', { name: 'Service code' })).toHaveValue(code);
    expect(rankingCalls(store)).toEqual([expect.objectContaining({ call: RANKINGS[path].call, serviceCode: code })]);
  });
});

describe('who reaches the campaigns', () => {
  it('lands the Afcon-only account on Afcon transactions with exactly the Afcon menu, and its ranking works', async () => {
    const afcon = await createAfconAccountViaApi();
    const { user, pathname } = await renderApp({ url: '/', user: afcon });
    const menu = await mainMenu();
    await waitFor(() => expect(pathname()).toBe('/afcon/2024/transactions'));
    expect(within(menu).getAllByRole('link').map((link) => link.textContent)).toEqual(['Afcon Transactions', 'Failed Transactions', 'Trans Search', 'Ranking', 'Incidents']);
    expect(within(menu).queryByRole('group', { name: 'Campaigns' })).not.toBeInTheDocument();
    await user.click(within(menu).getByRole('link', { name: 'Ranking' }));
    expect(await screen.findByRole('heading', { name: 'Afcon Ranking' })).toBeInTheDocument();
    await waitFor(() => expect(within(firstDataRow()).getByText(AFCON_VOTERS[0])).toBeInTheDocument());
  });

  it("tells the Afcon-only account typing a World Cup ranking it has no access, and asks for no ranking", async () => {
    const afcon = await createAfconAccountViaApi();
    const { store } = await renderApp({ url: '/world/cup/most/general', user: afcon });
    expect(await screen.findByRole('heading', { name: 'You do not have access to this page' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Afcon Transactions' })).toBeInTheDocument();
    expect(rankingCalls(store)).toEqual([]);
    expect(screen.queryByText('Unexpected error')).not.toBeInTheDocument();
    expect(screen.queryByText(HEAVY_VOTER)).not.toBeInTheDocument();
  });

  it('gives agents no campaigns in the menu and no campaign screen', async () => {
    const agent = await createAgentViaApi();
    const { store } = await renderApp({ url: '/afcon/2024/ranking', user: agent });
    const menu = await mainMenu();
    expect(within(menu).queryByRole('group', { name: 'Campaigns' })).not.toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'You do not have access to this page' })).toBeInTheDocument();
    expect(rankingCalls(store)).toEqual([]);
    expect(screen.queryByText('Unexpected error')).not.toBeInTheDocument();
  });

  it("gives admins a 'Campaigns' group whose entries open the screens", async () => {
    const { user, pathname } = await renderApp({ url: '/dashboard', user: TEST_ADMIN });
    const group = within(within(await mainMenu()).getByRole('group', { name: 'Campaigns' }));
    // SPEC's twelve first and All campaigns last; live campaigns other test files created may sit between.
    const links = group.getAllByRole('link').map((link) => link.getAttribute('href'));
    expect(links.slice(0, 12)).toEqual(SCREENS.map((s) => s.path));
    expect(links.at(-1)).toBe('/campaigns');
    expect(links.slice(12, -1).every((href) => href?.startsWith('/campaigns/'))).toBe(true);
    await user.click(group.getByRole('link', { name: 'World Cup Week 2' }));
    expect(await screen.findByRole('heading', { name: 'World Cup Week 2 Ranking' })).toBeInTheDocument();
    expect(pathname()).toBe('/world/cup/week/2/ranking');
    await user.click(group.getByRole('link', { name: 'Afcon Transactions' }));
    expect(await screen.findByRole('heading', { name: 'Afcon Transactions' })).toBeInTheDocument();
  });
});
