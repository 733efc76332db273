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
    expect(await screen.findByRole('textbox', { name: 'Service code' })).toHaveValue(code.name);
    expect(await within(await screen.findByRole('region', { name: 'Total calls' })).findByText('4')).toBeInTheDocument();
    expect(card('Processed').getByText('2')).toBeInTheDocument();
    expect(card('Failed').getByText('1')).toBeInTheDocument();
    expect(card('Pending').getByText('1')).toBeInTheDocument();
    expect(card('Success rate').getByText('50%')).toBeInTheDocument();
    expect(card('Revenue').getByText('UGX 6,000')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Revenue by category level' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Calls per hour' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Calls per network' })).toBeInTheDocument();
  });
});
