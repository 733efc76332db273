import { configure, screen, waitFor } from '@testing-library/react';
import { formatDay, todayInServiceZone } from '../../domain/format';
import { chooseServiceCode } from '../../testing/choose-service-code';
import { renderApp } from '../../testing/render-app';
import { TEST_ADMIN } from '../../testing/test-admin';
import { createServiceCodeViaApi, dialCalls, uniquePhoneNumber, type TestServiceCode } from '../../testing/ussd-calls';

// A 50-row DataGrid renders slowly in jsdom on a busy machine.
configure({ asyncUtilTimeout: 30_000 });

let code: TestServiceCode;
let calls: Awaited<ReturnType<typeof dialCalls>>;
const today = todayInServiceZone();

beforeAll(async () => {
  code = await createServiceCodeViaApi();
  // 51 calls: one more than a page, so a view can be on page 2.
  calls = await dialCalls(code.name, Array.from({ length: 51 }, () => ({ phoneNumber: uniquePhoneNumber(), outcome: 'PENDING' as const })));
});

/** The code the switcher shows, whether it is a select (its text) or a text field (its value). */
function shownCode(): string {
  const field = screen.getByRole('combobox', { name: 'Service code' });
  return field instanceof HTMLInputElement ? field.value : (field.textContent ?? '');
}

const transactionsUrl = (query: Record<string, string>) => `/transactions?${new URLSearchParams(query).toString()}`;

describe("A list's view in the URL", () => {
  it('opens the code, day and page a link gives', async () => {
    await renderApp({ url: transactionsUrl({ name: code.name, date: today, page: '2' }), user: TEST_ADMIN });
    expect(await screen.findByRole('heading', { name: `Transactions for ${formatDay(today)} ( 51 )` })).toBeInTheDocument();
    await screen.findByText('Showing 1 out of 51 entries');
    // Newest first: the first call made is alone on page 2.
    expect(screen.getByText(calls[0].phoneNumber)).toBeInTheDocument();
    expect(shownCode()).toBe(code.name);
  });

  it('writes each change of code, page and day to the URL, leaving defaults out', async () => {
    const { user, query } = await renderApp({ url: '/transactions', user: TEST_ADMIN });
    expect(query()).toEqual({});
    await chooseServiceCode(user, code.name);
    await waitFor(() => expect(query()).toEqual({ name: code.name }));
    await screen.findByText('Showing 50 out of 51 entries');
    const next = screen.getByRole('button', { name: 'Next' });
    await waitFor(() => expect(next).toBeEnabled());
    await user.click(next);
    await waitFor(() => expect(query()).toEqual({ name: code.name, page: '2' }));
    await screen.findByText('Showing 1 out of 51 entries');
    // A new day goes back to page 1, which the URL leaves out.
    const date = screen.getByRole('textbox', { name: 'Date' });
    await user.clear(date);
    await user.type(date, '01/01/2020');
    await waitFor(() => expect(query()).toEqual({ name: code.name, date: '2020-01-01' }));
    expect(await screen.findByRole('heading', { name: 'Transactions for 01 January 2020 ( 0 )' })).toBeInTheDocument();
  });

  it('falls back to the defaults on garbage in the query, and sends none of it to the API', async () => {
    const garbage = { name: '<script>', date: '2026-02-30', page: '-3' };
    const { store } = await renderApp({ url: transactionsUrl(garbage), user: TEST_ADMIN });
    // The service's today when the screen drew it, not when this file loaded: a run may cross its midnight.
    const heading = await screen.findByRole('heading', { name: /^Transactions for / });
    const shownDay = todayInServiceZone();
    expect(heading).toHaveAccessibleName(new RegExp(`^Transactions for ${formatDay(shownDay)} `));
    expect(screen.getByRole('combobox', { name: 'Service code' })).toBeInTheDocument();
    const args = Object.values(store.getState().api.queries).map((entry) => entry?.originalArgs as { page?: number } | undefined);
    const asked = JSON.stringify(args);
    expect(asked).toContain(shownDay);
    expect(asked).not.toContain(garbage.name);
    expect(asked).not.toContain(garbage.date);
    for (const arg of args) if (arg?.page !== undefined) expect(arg.page).toBeGreaterThanOrEqual(1);
  });

  it("keeps an agent on its own code when a link names another's, with the link's day and page", async () => {
    await renderApp({ url: transactionsUrl({ name: '*217*9#', date: today, page: '2' }), user: code.agent });
    expect(await screen.findByRole('combobox', { name: 'Service code' })).toHaveValue(code.name);
    await screen.findByText('Showing 1 out of 51 entries');
  });

  it('searches the phone number a link gives', async () => {
    const { phoneNumber } = calls[3];
    await renderApp({ url: `/search?phoneNumber=${phoneNumber}`, user: TEST_ADMIN });
    await screen.findByText('Showing 1 out of 1 entries');
    expect(screen.getByRole('textbox', { name: 'Phone number' })).toHaveValue(phoneNumber);
    expect(screen.getByText(phoneNumber)).toBeInTheDocument();
  });

  it('shows no search for a phone number that is not one', async () => {
    const { store } = await renderApp({ url: '/search?phoneNumber=abc%27--', user: TEST_ADMIN });
    expect(await screen.findByRole('textbox', { name: 'Phone number' })).toHaveValue('');
    expect(JSON.stringify(Object.values(store.getState().api.queries).map((entry) => entry?.originalArgs))).not.toContain('abc');
  });
});
