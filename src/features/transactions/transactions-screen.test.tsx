import { configure, screen, waitFor, within } from '@testing-library/react';
import { formatDay, todayInServiceZone } from '../../domain/format';
import { apiUrl } from '../../api/api-url';
import { chooseServiceCode } from '../../testing/choose-service-code';
import { loginViaApi, renderApp } from '../../testing/render-app';
import { TEST_ADMIN } from '../../testing/test-admin';
import { createServiceCodeViaApi, dialCalls, uniquePhoneNumber, type TestServiceCode } from '../../testing/ussd-calls';

// A 50-row DataGrid renders slowly in jsdom on a busy machine.
configure({ asyncUtilTimeout: 30_000 });

let code: TestServiceCode;
let calls: Awaited<ReturnType<typeof dialCalls>>;
const today = formatDay(todayInServiceZone());

beforeAll(async () => {
  code = await createServiceCodeViaApi();
  // 51 calls: one more than a page. The first is paid, the second fails, the rest stay pending.
  calls = await dialCalls(
    code.name,
    Array.from({ length: 51 }, (_, i) => ({ phoneNumber: uniquePhoneNumber(), choice: i === 0 ? '2' : '1', outcome: i === 0 ? 'SUCCESSFUL' : i === 1 ? 'FAILED' : 'PENDING' })),
  );
});

const rowOf = (phoneNumber: string) => screen.getByText(phoneNumber).closest('[role="row"]') as HTMLElement;

describe('Transactions screen', () => {
  it("lets a manager choose a service code and pages through the day's calls", async () => {
    const { user } = await renderApp({ url: '/transactions', user: TEST_ADMIN });
    await chooseServiceCode(user, code.name);
    expect(await screen.findByRole('heading', { name: `Transactions for ${today} ( 51 )` })).toBeInTheDocument();
    expect(await screen.findByText(`Transactions for ${today}`)).toBeInTheDocument(); // toast
    await waitFor(() => expect(screen.getByText('Showing 50 out of 51 entries')).toBeInTheDocument());
    const previous = screen.getByRole('button', { name: 'Previous' });
    expect(previous).toBeDisabled();
    // Newest first: the last call made is on the first page, the first call on the second.
    expect(screen.getByText(calls[50].phoneNumber)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(screen.getByText('Showing 1 out of 51 entries')).toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    const paid = rowOf(calls[0].phoneNumber);
    expect(within(paid).getByText('processed')).toBeInTheDocument();
    // One day's list: the heading has the day, the rows the time alone.
    expect(paid.querySelector('[data-field="callbackTime"]')?.textContent).toMatch(/^\d\d:\d\d (am|pm)$/);
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(screen.getByText('Showing 50 out of 51 entries')).toBeInTheDocument());
    expect(within(rowOf(calls[50].phoneNumber)).getByText('N/A')).toBeInTheDocument(); // pending: no response time
  });

  it('offers Resolve on the failed call only', async () => {
    const { user } = await renderApp({ url: '/transactions', user: TEST_ADMIN });
    await chooseServiceCode(user, code.name);
    await screen.findByText('Showing 50 out of 51 entries');
    const resolveIn = (phoneNumber: string) => within(rowOf(phoneNumber)).queryByRole('button', { name: /^Resolved?$/ });
    expect(resolveIn(calls[1].phoneNumber)).toHaveTextContent('Resolve');
    for (const pending of calls.slice(2)) expect(resolveIn(pending.phoneNumber)).toBeNull();
    const next = screen.getByRole('button', { name: 'Next' });
    await waitFor(() => expect(next).toBeEnabled());
    await user.click(next);
    await screen.findByText('Showing 1 out of 51 entries');
    expect(resolveIn(calls[0].phoneNumber)).toBeNull(); // processed
  });

  it("offers Refund in a processed row's Action cell only, and asks for one in the dialog Details uses", async () => {
    const { user } = await renderApp({ url: '/transactions', user: TEST_ADMIN });
    await chooseServiceCode(user, code.name);
    await screen.findByText('Showing 50 out of 51 entries');
    expect(screen.queryAllByRole('button', { name: /^Refund the call/ })).toHaveLength(0); // failed and pending calls
    const next = screen.getByRole('button', { name: 'Next' });
    await waitFor(() => expect(next).toBeEnabled());
    await user.click(next);
    await screen.findByText('Showing 1 out of 51 entries');
    const paid = calls[0].phoneNumber;
    await user.click(within(rowOf(paid)).getByRole('button', { name: `Refund the call from ${paid}` }));
    const dialog = await screen.findByRole('dialog', { name: `Refund the call from ${paid}` });
    expect(within(dialog).getByRole('spinbutton', { name: 'Amount (UGX)' })).toHaveValue(calls[0].amount);
    await user.click(within(dialog).getByRole('combobox', { name: /^Reason/ }));
    await user.click(await screen.findByRole('option', { name: 'Duplicate payment' }));
    await user.click(within(dialog).getByRole('button', { name: 'Request refund' }));
    expect(await screen.findByText('Refund requested')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('shows a resolve at once, takes it back when the server is not told, and then shows what the server answered', async () => {
    const realFetch = globalThis.fetch.bind(globalThis);
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const isResolveCall = (input: RequestInfo | URL) => String(input instanceof Request ? input.url : input).includes(`/to/give/attention/${calls[1]._id}`);
    // The network fails the first resolve, once the test has seen the row meanwhile; the rest reach the real API.
    const fetchSpy = jest.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      if (!isResolveCall(input)) return realFetch(input, init);
      fetchSpy.mockRestore();
      await held;
      throw new TypeError('Failed to fetch');
    });
    const { user } = await renderApp({ url: '/transactions', user: code.agent });
    await screen.findByText('Showing 50 out of 51 entries');
    await user.click(within(rowOf(calls[1].phoneNumber)).getByRole('button', { name: 'Resolve' }));
    await waitFor(() => expect(within(rowOf(calls[1].phoneNumber)).getByText('Yes')).toBeInTheDocument());
    expect(within(rowOf(calls[1].phoneNumber)).getByRole('button', { name: 'Resolved' })).toHaveAttribute('aria-disabled', 'true');

    answer();
    expect(await screen.findByText('Unexpected error')).toBeInTheDocument();
    await waitFor(() => expect(within(rowOf(calls[1].phoneNumber)).getByText('No')).toBeInTheDocument());

    await user.click(within(rowOf(calls[1].phoneNumber)).getByRole('button', { name: 'Resolve' }));
    expect(await screen.findByText('Resolved', { selector: '#notistack-snackbar, #notistack-snackbar *' })).toBeInTheDocument();
    const resolvedBy = new RegExp(`^Resolved by ${code.agent.userName} on `);
    await waitFor(() => expect(within(rowOf(calls[1].phoneNumber)).getByRole('button', { name: 'Resolved' })).toHaveAccessibleDescription(resolvedBy));
    expect(within(rowOf(calls[1].phoneNumber)).getByText('Yes')).toBeInTheDocument();
  });

  it('opens an agent on its own service code, in the switcher of its codes', async () => {
    await renderApp({ url: '/transactions', user: code.agent });
    const field = await screen.findByRole('combobox', { name: 'Service code' });
    expect(field).toHaveValue(code.name);
    expect(await screen.findByRole('heading', { name: `Transactions for ${today} ( 51 )` })).toBeInTheDocument();
  });

  it('reloads for a day typed as MM/DD/YYYY or chosen in the calendar', async () => {
    const { user } = await renderApp({ url: '/transactions', user: code.agent });
    await screen.findByRole('heading', { name: `Transactions for ${today} ( 51 )` });
    const date = screen.getByRole('textbox', { name: 'Date' });
    await user.clear(date);
    await user.type(date, '01/01/2020');
    expect(await screen.findByRole('heading', { name: 'Transactions for 01 January 2020 ( 0 )' })).toBeInTheDocument();
    expect(await screen.findByText('No records')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Choose date' }));
    const calendar = await screen.findByRole('dialog', { name: 'Date' });
    expect(within(calendar).getByText('January 2020')).toBeInTheDocument();
    await user.click(within(calendar).getByRole('gridcell', { name: '2' }));
    expect(await screen.findByRole('heading', { name: 'Transactions for 02 January 2020 ( 0 )' })).toBeInTheDocument();
    expect(date).toHaveValue('01/02/2020');
  });

  it('downloads the whole filtered day as CSV, with who resolved a failed call', async () => {
    // The failed call is resolved by the agent; the CSV names the agent and the time.
    const agent = await loginViaApi(code.agent);
    const resolved = await fetch(apiUrl(`/v1/transactions/to/give/attention/${calls[1]._id}`), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${agent.accessToken}` },
      body: JSON.stringify({ isResolved: true }),
    });
    expect(resolved.status).toBe(200);
    const saved: Blob[] = [];
    const createObjectURL = jest.fn((blob: Blob) => {
      saved.push(blob);
      return 'blob:transactions';
    });
    // jsdom has no object URLs or downloads: stand in for the browser's.
    Object.assign(URL, { createObjectURL, revokeObjectURL: jest.fn() });
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const { user } = await renderApp({ url: '/transactions', user: code.agent });
    await screen.findByRole('heading', { name: `Transactions for ${today} ( 51 )` });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    const link = click.mock.instances[0] as unknown as HTMLAnchorElement;
    expect(link.download).toMatch(/^transactions-.*\.csv$/);
    const lines = (await saved[0].text()).trimEnd().split('\r\n');
    expect(lines[0]).toBe('Call Time,Response Time,Service code,From,Category,Level,Amount,Status,Network,Resolved,Resolved by,Resolved at,Resolve reason,Resolve note,Team,Game,Payment reference,SMS status,Failure reason,Refunded');
    expect(lines).toHaveLength(52); // every call of the day, not just the page
    expect(lines.filter((l) => l.includes(',vip,5000,processed,MTN,'))).toHaveLength(1);
    const failed = lines.find((l) => l.includes(calls[1].phoneNumber)) ?? '';
    // Resolved without a reason or a note, and no vote; then its payment reference, SMS status no provider's reason and nothing refunded.
    expect(failed).toMatch(new RegExp(`,failed,\\w+,Yes,${code.agent.userName},\\d\\d \\w+ \\d{4} \\d\\d:\\d\\d (am|pm),,,,,[0-9a-f-]{36},Payment failed,,0$`));
    click.mockRestore();
  });
});
