import { configure, screen, within } from '@testing-library/react';
import { renderApp } from '../../testing/render-app';
import { createServiceCodeViaApi, dialCalls, uniquePhoneNumber, type TestServiceCode } from '../../testing/ussd-calls';

configure({ asyncUtilTimeout: 30_000 });

let code: TestServiceCode;

beforeAll(async () => {
  code = await createServiceCodeViaApi();
  await dialCalls(code.name, [
    { phoneNumber: uniquePhoneNumber(), choice: '2', outcome: 'SUCCESSFUL' },
    { phoneNumber: uniquePhoneNumber(), choice: '1', outcome: 'SUCCESSFUL' },
    { phoneNumber: uniquePhoneNumber(), outcome: 'FAILED' },
    { phoneNumber: uniquePhoneNumber(), outcome: 'PENDING' },
  ]);
});

const card = (name: string) => within(screen.getByRole('region', { name }));

describe('Dashboard screen', () => {
  it("shows the agent's service code figures for today as cards and charts", async () => {
    await renderApp({ url: '/dashboard', user: code.agent });
    expect(await screen.findByRole('combobox', { name: 'Service code' })).toHaveValue(code.name);
    expect(await within(await screen.findByRole('region', { name: 'Total calls' })).findByText('4')).toBeInTheDocument();
    expect(card('Processed').getByText('2')).toBeInTheDocument();
    expect(card('Failed').getByText('1')).toBeInTheDocument();
    expect(card('Pending').getByText('1')).toBeInTheDocument();
    expect(card('Success rate').getByText('50%')).toBeInTheDocument();
    expect(card('Revenue').getByText('UGX 6,000')).toBeInTheDocument();
    expect(card('Revenue').getByText('Net UGX 6,000 · no refunds')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Revenue by category level' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Calls per hour' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Calls per network' })).toBeInTheDocument();
  });

  it("shows the day a link gives, and writes a new day to the URL", async () => {
    const { user, query } = await renderApp({ url: '/dashboard?date=2020-01-02', user: code.agent });
    expect(await screen.findByRole('heading', { name: 'Overview for 02 January 2020' })).toBeInTheDocument();
    const date = screen.getByRole('textbox', { name: 'Date' });
    await user.clear(date);
    await user.type(date, '01/03/2020');
    expect(await screen.findByRole('heading', { name: 'Overview for 03 January 2020' })).toBeInTheDocument();
    // The code is the agent's own default, written beside the day as a manager's is.
    expect(query()).toEqual({ name: code.name, date: '2020-01-03' });
  });
});
