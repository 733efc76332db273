import { configure, screen, waitFor, within } from '@testing-library/react';
import { formatDay, todayInServiceZone } from '../../domain/format';
import { createCategoryViaApi, createContentViaApi, createServiceCodeNamedViaApi } from '../../testing/catalogue-fixtures';
import { chooseServiceCode } from '../../testing/choose-service-code';
import { createAgentViaApi, renderApp, uniqueName, type TestAgent } from '../../testing/render-app';
import { dialCalls, uniquePhoneNumber } from '../../testing/ussd-calls';

configure({ asyncUtilTimeout: 30_000 });

// A prefix of its own (the API is shared by every web test file): *98nn*nnnn*1#, *98nn*nnnn*2#, …
const random = (digits: number) => String(Math.floor(Math.random() * 10 ** digits)).padStart(digits, '0');
const prefix = `*98${random(2)}*${random(4)}*`;
const code = (n: number) => `${prefix}${n}#`;
/** Another agent's code, under the same prefix so that typing the prefix would show it if it leaked. */
const othersCode = code(3);
const today = todayInServiceZone();
let agent: TestAgent;
let categoryName: string;

beforeAll(async () => {
  agent = await createAgentViaApi('codes');
  categoryName = uniqueName('Agent codes cat');
  const category = await createCategoryViaApi(agent.id, categoryName);
  await createContentViaApi({ category: category._id, categoryLevel: 'ordinary', message: `Ticket ${uniqueName('seat')}`, active: true });
  // Registered out of order: the first registered (*…*10#) is the agent's stored code, its default view.
  for (const n of [10, 2, 1]) await createServiceCodeNamedViaApi(code(n), category._id);
  const other = await createAgentViaApi('other');
  await createServiceCodeNamedViaApi(othersCode, (await createCategoryViaApi(other.id))._id);
  await dialCalls(code(2), [
    { phoneNumber: uniquePhoneNumber(), outcome: 'SUCCESSFUL' },
    { phoneNumber: uniquePhoneNumber(), outcome: 'FAILED' },
  ]);
});

const optionCodes = () => screen.getAllByRole('option').map((option) => /^\*[^#]*#/.exec(option.textContent ?? '')?.[0] ?? option.textContent);
const field = () => screen.getByRole('combobox', { name: 'Service code' });
const transactionsHeading = (total: number) => ({ name: `Transactions for ${formatDay(today)} ( ${total} )` });

describe("an agent's service codes", () => {
  it('offers the agent its own codes only, in natural order with names and today’s figures', async () => {
    const { user, query } = await renderApp({ url: '/transactions', user: agent });
    expect(await screen.findByRole('heading', transactionsHeading(0))).toBeInTheDocument();
    expect(field()).toHaveValue(code(10));
    expect(field()).toBeEnabled();
    await user.click(field());
    await waitFor(() => expect(optionCodes()).toEqual([expect.stringMatching(/^All service codes/), code(1), code(2), code(10)]));
    // 'All' sums the agent's codes only: another agent's calls would show here.
    expect(screen.getAllByRole('option')[0]).toHaveTextContent('All service codes3 codes2 calls today50% failed');
    const second = screen.getAllByRole('option')[2];
    expect(within(second).getByText(categoryName)).toBeInTheDocument();
    expect(within(second).getByText('2 calls today')).toBeInTheDocument();
    expect(within(second).getByText('50% failed')).toBeInTheDocument();
    await user.click(second);
    expect(await screen.findByRole('heading', transactionsHeading(2))).toBeInTheDocument();
    expect(query()).toEqual({ name: code(2) });
    // Every code of the agent's at once: its own calls, no one else's.
    await chooseServiceCode(user, 'All service codes');
    expect(await screen.findByRole('heading', transactionsHeading(2))).toBeInTheDocument();
  });

  it('opens the code a link names', async () => {
    await renderApp({ url: `/transactions?name=${encodeURIComponent(code(2))}`, user: agent });
    expect(await screen.findByRole('heading', transactionsHeading(2))).toBeInTheDocument();
    expect(field()).toHaveValue(code(2));
  });

  it('opens its default view for a link naming a code outside its scope', async () => {
    await renderApp({ url: `/transactions?name=${encodeURIComponent(othersCode)}`, user: agent });
    expect(await screen.findByRole('heading', transactionsHeading(0))).toBeInTheDocument();
    expect(field()).toHaveValue(code(10));
    expect(screen.queryByText('Unexpected error')).not.toBeInTheDocument();
  });
});
