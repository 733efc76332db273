import { configure, screen, waitFor, within } from '@testing-library/react';
import { renderApp } from '../../testing/render-app';
import { createServiceCodeViaApi, dialCalls, uniquePhoneNumber, type TestServiceCode } from '../../testing/ussd-calls';

configure({ asyncUtilTimeout: 30_000 });

let code: TestServiceCode;
let calls: Awaited<ReturnType<typeof dialCalls>>;

beforeAll(async () => {
  code = await createServiceCodeViaApi();
  calls = await dialCalls(code.name, [
    { phoneNumber: uniquePhoneNumber(), outcome: 'FAILED' },
    { phoneNumber: uniquePhoneNumber(), outcome: 'FAILED' },
    { phoneNumber: uniquePhoneNumber(), outcome: 'SUCCESSFUL' },
    { phoneNumber: uniquePhoneNumber(), outcome: 'PENDING' },
  ]);
});

const rowOf = (phoneNumber: string) => screen.getByText(phoneNumber).closest('[role="row"]') as HTMLElement;

describe('Failed transactions screen', () => {
  it('explains the follow-up and lists only the failed calls of the code', async () => {
    await renderApp({ url: '/failed', user: code.agent });
    expect(await screen.findByText(/Clients with failed transactions are engaged to help them succeed/)).toBeInTheDocument();
    expect(screen.getByText(/means the client is still to be engaged/)).toBeInTheDocument();
    await screen.findByText('Showing 2 out of 2 entries');
    expect(screen.getByText(calls[0].phoneNumber)).toBeInTheDocument();
    expect(screen.getByText(calls[1].phoneNumber)).toBeInTheDocument();
    expect(screen.queryByText(calls[2].phoneNumber)).not.toBeInTheDocument();
    expect(screen.queryByText(calls[3].phoneNumber)).not.toBeInTheDocument();
  });

  it('resolves a failed call row by row and the server keeps it resolved', async () => {
    const { user, unmount } = await renderApp({ url: '/failed', user: code.agent });
    await screen.findByText('Showing 2 out of 2 entries');
    await user.click(within(rowOf(calls[0].phoneNumber)).getByRole('button', { name: 'Resolve' }));
    expect(await screen.findByText('Resolved', { selector: '#notistack-snackbar, #notistack-snackbar *' })).toBeInTheDocument();
    await waitFor(() => expect(within(rowOf(calls[0].phoneNumber)).getByText('Yes')).toBeInTheDocument());
    expect(within(rowOf(calls[1].phoneNumber)).getByText('No')).toBeInTheDocument();

    // A new session (fresh store, nothing resolved locally) reads Yes from the server.
    unmount();
    const { user: next } = await renderApp({ url: '/failed', user: code.agent });
    await screen.findByText('Showing 2 out of 2 entries');
    const resolvedBy = new RegExp(`^Resolved by ${code.agent.userName} on \\d\\d \\w+ \\d{4} \\d\\d:\\d\\d (am|pm)$`);
    // Disabled, it still takes the focus and says why.
    const button = await within(rowOf(calls[0].phoneNumber)).findByRole('button', { name: 'Resolved' });
    expect(button).toHaveAttribute('aria-disabled', 'true');
    expect(button).toHaveAccessibleDescription(resolvedBy);
    // Who resolved it and when: the Yes cell's tooltip, also its accessible description.
    const yes = within(rowOf(calls[0].phoneNumber)).getByText('Yes');
    expect(yes).toHaveAccessibleDescription(resolvedBy);
    await next.hover(yes);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(resolvedBy);
    expect(within(rowOf(calls[1].phoneNumber)).getByText('No')).not.toHaveAccessibleDescription();
  });

  it('takes a resolve back from its toast, and shows the amount, the reference to copy and why the payment failed', async () => {
    const { user } = await renderApp({ url: '/failed', user: code.agent });
    await screen.findByText('Showing 2 out of 2 entries');
    const row = () => rowOf(calls[1].phoneNumber);
    expect(within(row()).getByRole('button', { name: 'Copy payment reference' })).toBeInTheDocument();
    expect(within(row()).getByTitle(/^Payment failed/)).toBeInTheDocument();

    await user.click(within(row()).getByRole('button', { name: 'Resolve' }));
    await waitFor(() => expect(within(row()).getByText('Yes')).toBeInTheDocument());
    await user.click(await screen.findByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('Resolve undone', { selector: '#notistack-snackbar, #notistack-snackbar *' })).toBeInTheDocument();
    await waitFor(() => expect(within(row()).getByText('No')).toBeInTheDocument());
    expect(within(row()).getByRole('button', { name: 'Resolve' })).toBeInTheDocument();
  });
});
