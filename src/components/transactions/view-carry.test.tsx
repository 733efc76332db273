import { configure, screen, waitFor, within } from '@testing-library/react';
import { formatDay } from '../../domain/format';
import { createCategoryViaApi, createContentViaApi, createServiceCodeNamedViaApi } from '../../testing/catalogue-fixtures';
import { chooseServiceCode } from '../../testing/choose-service-code';
import { createAgentViaApi, renderApp, uniqueName, type TestAgent } from '../../testing/render-app';

configure({ asyncUtilTimeout: 30_000 });

const random = (digits: number) => String(Math.floor(Math.random() * 10 ** digits)).padStart(digits, '0');
const prefix = `*97${random(2)}*${random(4)}*`;
const code = (n: number) => `${prefix}${n}#`;
let agent: TestAgent;

beforeAll(async () => {
  agent = await createAgentViaApi('carry');
  const category = await createCategoryViaApi(agent.id, uniqueName('Carry cat'));
  await createContentViaApi({ category: category._id, categoryLevel: 'ordinary', message: `Ticket ${uniqueName('seat')}`, active: true });
  for (const n of [1, 2, 3]) await createServiceCodeNamedViaApi(code(n), category._id);
});

const field = () => screen.getByRole('combobox', { name: 'Service code' });
const menuLink = (name: string) => within(screen.getByRole('navigation', { name: 'Main menu' })).getByRole('link', { name });
const topBar = () => within(screen.getByRole('banner'));

describe('the chosen service code and day follow the person', () => {
  it('carries from Transactions to Failed to the Dashboard, and the top bar names it', async () => {
    const { user, query } = await renderApp({ url: '/transactions', user: agent });
    expect(topBar().getByText(`Service code: ${code(1)}`)).toBeInTheDocument();
    await chooseServiceCode(user, code(2));
    const date = screen.getByRole('textbox', { name: 'Date' });
    await user.clear(date);
    await user.type(date, '01/02/2020');
    expect(await screen.findByRole('heading', { name: 'Transactions for 02 January 2020 ( 0 )' })).toBeInTheDocument();
    expect(topBar().getByText(`Service code: ${code(2)}`)).toBeInTheDocument();

    await user.click(menuLink('Failed transactions'));
    expect(await screen.findByRole('heading', { name: 'Failed transactions for 02 January 2020 ( 0 )' })).toBeInTheDocument();
    expect(field()).toHaveValue(code(2));
    // Carried in the link, so Back, a reload and a copied address show the same view.
    expect(query()).toEqual({ name: code(2), date: '2020-01-02' });

    await user.click(menuLink('Dashboard'));
    expect(await screen.findByRole('heading', { name: `Overview for ${formatDay('2020-01-02')}` })).toBeInTheDocument();
    expect(field()).toHaveValue(code(2));
    expect(topBar().getByText(`Service code: ${code(2)}`)).toBeInTheDocument();
  });

  it('lets a link win, and carries what it names', async () => {
    const { user } = await renderApp({ url: `/failed?name=${encodeURIComponent(code(3))}`, user: agent });
    await waitFor(() => expect(field()).toHaveValue(code(3)));
    expect(topBar().getByText(`Service code: ${code(3)}`)).toBeInTheDocument();
    await user.click(menuLink('Transactions'));
    expect(await screen.findByRole('heading', { name: /^Transactions for / })).toBeInTheDocument();
    expect(field()).toHaveValue(code(3));
  });
});

describe('a round of the screens', () => {
  it('brings the chosen code back to Transactions, the top bar naming it', async () => {
    const { user } = await renderApp({ url: '/transactions', user: agent });
    await chooseServiceCode(user, code(2));
    await user.click(menuLink('Failed transactions'));
    expect(await screen.findByRole('heading', { name: /^Failed transactions for / })).toBeInTheDocument();
    await user.click(menuLink('Dashboard'));
    expect(await screen.findByRole('heading', { name: /^Overview for / })).toBeInTheDocument();
    expect(field()).toHaveValue(code(2));
    await user.click(menuLink('Transactions'));
    await waitFor(() => expect(field()).toHaveValue(code(2)));
    expect(topBar().getByText(`Service code: ${code(2)}`)).toBeInTheDocument();
  });
});
