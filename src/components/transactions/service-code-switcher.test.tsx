import { screen, waitFor, within } from '@testing-library/react';
import { createCategoryViaApi, createContentViaApi, createServiceCodeNamedViaApi } from '../../testing/catalogue-fixtures';
import { act } from 'react';
import { serviceCodesApi } from '../../api/service-codes-api';
import { createAgentViaApi, renderApp, uniqueName } from '../../testing/render-app';
import { TEST_ADMIN } from '../../testing/test-admin';
import { dialCalls, uniquePhoneNumber } from '../../testing/ussd-calls';

// A prefix of its own (the API is shared by every web test file; other tests' codes have at most
// three parts, the first of three digits): *99nn*nnnn*1#, *99nn*nnnn*2#, …
const random = (digits: number) => String(Math.floor(Math.random() * 10 ** digits)).padStart(digits, '0');
const prefix = `*99${random(2)}*${random(4)}*`;
const code = (n: number) => `${prefix}${n}#`;
let categoryName: string;

beforeAll(async () => {
  const agent = await createAgentViaApi('switcher');
  categoryName = uniqueName('Switcher cat');
  const category = await createCategoryViaApi(agent.id, categoryName);
  await createContentViaApi({ category: category._id, categoryLevel: 'ordinary', message: `Ticket ${uniqueName('seat')}`, active: true });
  // Registered out of order: the list must not follow the registration nor the text order.
  for (const n of [25, 2, 10, 1]) await createServiceCodeNamedViaApi(code(n), category._id);
  await dialCalls(code(2), [
    { phoneNumber: uniquePhoneNumber(), outcome: 'SUCCESSFUL' },
    { phoneNumber: uniquePhoneNumber(), outcome: 'FAILED' },
    { phoneNumber: uniquePhoneNumber(), outcome: 'FAILED' },
    { phoneNumber: uniquePhoneNumber(), outcome: 'FAILED' },
  ]);
});

/** The codes the list shows, in its order (an option reads 'code, category, figures'). */
const optionCodes = () => screen.getAllByRole('option').map((option) => /^\*[^#]*#/.exec(option.textContent ?? '')?.[0]);

describe("the manager's service-code switcher", () => {
  it('lists the codes in natural order, filters as one types, and shows category and today’s figures', async () => {
    const { user } = await renderApp({ url: '/transactions', user: TEST_ADMIN });
    const field = await screen.findByRole('combobox', { name: 'Service code' });
    await user.click(field);
    const listbox = await screen.findByRole('listbox');
    // 'All service codes' comes first, whatever else there is.
    expect(within(listbox).getAllByRole('option')[0]).toHaveTextContent(/^All service codes/);

    await user.clear(field);
    await user.type(field, prefix);
    await waitFor(() => expect(optionCodes()).toEqual([code(1), code(2), code(10), code(25)]));
    const second = screen.getAllByRole('option')[1];
    expect(within(second).getByText(categoryName)).toBeInTheDocument();
    expect(within(second).getByText('4 calls today')).toBeInTheDocument();
    expect(within(second).getByText('75% failed')).toBeInTheDocument();
    expect(within(screen.getAllByRole('option')[0]).getByText('0 calls today')).toBeInTheDocument();

    // Narrower: the 1s and 10s, not 2 nor 25.
    await user.type(field, '1');
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(2));
    await user.click(screen.getAllByRole('option')[1]);
    expect(field).toHaveValue(code(10));
    expect(await screen.findByRole('heading', { name: /^Transactions for .* \( 0 \)$/ })).toBeInTheDocument();
  });

  it('finds codes by their category’s name, and goes back to every code', async () => {
    const { user } = await renderApp({ url: '/dashboard', user: TEST_ADMIN });
    const field = await screen.findByRole('combobox', { name: 'Service code' });
    await user.click(field);
    await user.clear(field);
    await user.type(field, categoryName);
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(4));
    await user.keyboard('{Enter}');
    expect(field).toHaveValue(code(1));
    await user.click(field);
    await user.clear(field);
    // Pasted, as the filter runs on every key and a slow machine took over 15 s to type it.
    await user.paste('All service');
    await user.click(await screen.findByRole('option', { name: /^All service codes/ }));
    expect(field).toHaveValue('All service codes');
  });

  it('keeps what one is typing while today’s figures come again', async () => {
    const { user, store } = await renderApp({ url: '/transactions', user: TEST_ADMIN });
    const field = await screen.findByRole('combobox', { name: 'Service code' });
    await user.click(field);
    await user.clear(field);
    await user.type(field, prefix);
    await waitFor(() => expect(optionCodes()).toEqual([code(1), code(2), code(10), code(25)]));
    // A call moves today's figures, and they come again, as the live stream has them every few seconds.
    await dialCalls(code(10), [{ phoneNumber: uniquePhoneNumber(), outcome: 'SUCCESSFUL' }]);
    const refetched = store.dispatch(serviceCodesApi.endpoints.getServiceCodesToday.initiate(undefined, { forceRefetch: true }));
    await act(async () => {
      await refetched;
    });
    refetched.unsubscribe();
    // The list shows the new figures, under what was typed: before, the field went back to the chosen
    // code's label and the list to every code.
    await waitFor(() => expect(screen.getByRole('option', { name: /1 call today/ })).toBeInTheDocument());
    expect(field).toHaveValue(prefix);
    await user.type(field, '2');
    await waitFor(() => expect(optionCodes()).toEqual([code(2), code(25)]));
  });
});
