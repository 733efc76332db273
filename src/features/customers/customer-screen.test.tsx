import { configure, screen, within } from '@testing-library/react';
import { renderApp } from '../../testing/render-app';
import { TEST_ADMIN } from '../../testing/test-admin';
import { createServiceCodeViaApi, dialCalls, uniquePhoneNumber } from '../../testing/ussd-calls';

configure({ asyncUtilTimeout: 30_000 });
jest.setTimeout(120_000);

const phone = uniquePhoneNumber();

beforeAll(async () => {
  const code = await createServiceCodeViaApi();
  await dialCalls(code.name, [
    { phoneNumber: phone, choice: '2', outcome: 'SUCCESSFUL' },
    { phoneNumber: phone, outcome: 'FAILED' },
  ]);
});

describe('Customer screen', () => {
  it("opens from a searched call's phone number with the figures and every call", async () => {
    const { user } = await renderApp({ url: `/search?phoneNumber=${phone}`, user: TEST_ADMIN });
    await screen.findByText('Showing 2 out of 2 entries');
    const [link] = screen.getAllByRole('link', { name: phone });
    await user.click(link);
    expect(await screen.findByRole('heading', { level: 1, name: `Customer ${phone} ( 2 )` })).toBeInTheDocument();
    const figures = screen.getByRole('group', { name: 'Customer figures' });
    expect(within(within(figures).getByRole('region', { name: 'Processed' })).getByText('1')).toBeInTheDocument();
    expect(within(within(figures).getByRole('region', { name: 'Failed' })).getByText('1')).toBeInTheDocument();
    await screen.findByText('Showing 2 out of 2 entries');
    expect(screen.getAllByRole('button', { name: `Details of the call from ${phone}` })).toHaveLength(2);
  });

  it('says so for a path that is not a phone number, asking the API nothing', async () => {
    await renderApp({ url: '/customers/12ab', user: TEST_ADMIN });
    expect(await screen.findByText('This is not a phone number.')).toBeInTheDocument();
  });
});
