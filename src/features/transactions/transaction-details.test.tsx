import { configure, screen, waitFor, within } from '@testing-library/react';
import { apiUrl } from '../../api/api-url';
import { TRANSACTION_EVENT_LABELS, type TransactionEvent } from '../../domain/transaction-events';
import { createAfconAccountViaApi } from '../../testing/afcon-account';
import { AFCON_VOTERS } from '../../testing/campaign-votes';
import { loginViaApi, renderApp } from '../../testing/render-app';
import { TEST_ADMIN } from '../../testing/test-admin';
import { unreachablePhoneNumber } from '../../testing/unreachable-phones';
import { createServiceCodeViaApi, dialCalls, uniquePhoneNumber, type TestServiceCode } from '../../testing/ussd-calls';

configure({ asyncUtilTimeout: 30_000 });

let code: TestServiceCode;
let failedCall: Awaited<ReturnType<typeof dialCalls>>[number];
/** Paid, but its first ticket SMS failed: the call 'Resend ticket' is for. */
const unreachable = unreachablePhoneNumber();
const reachable = uniquePhoneNumber();

async function api<T>(path: string): Promise<T> {
  const { accessToken } = await loginViaApi(TEST_ADMIN);
  const response = await fetch(apiUrl(path), { headers: { Authorization: `Bearer ${accessToken}` } });
  if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  return ((await response.json()) as { results: T }).results;
}

beforeAll(async () => {
  code = await createServiceCodeViaApi();
  [failedCall] = await dialCalls(code.name, [
    { phoneNumber: uniquePhoneNumber(), outcome: 'FAILED' },
    { phoneNumber: unreachable, choice: '2', outcome: 'SUCCESSFUL' },
    { phoneNumber: reachable, choice: '2', outcome: 'SUCCESSFUL' },
  ]);
  // Resolved by the agent through the API: the timeline's last event names them.
  const agent = await loginViaApi(code.agent);
  const response = await fetch(apiUrl(`/v1/transactions/to/give/attention/${failedCall._id}`), {
    method: 'POST',
    headers: { Authorization: `Bearer ${agent.accessToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ isResolved: true }),
  });
  if (!response.ok) throw new Error(`resolve answered ${response.status}`);
});

const rowOf = (text: string) => screen.getByText(text).closest('[role="row"]') as HTMLElement;
const toast = (text: string) => screen.findByText(text, { selector: '#notistack-snackbar, #notistack-snackbar *' });

async function searchFor(user: Awaited<ReturnType<typeof renderApp>>['user'], phoneNumber: string) {
  await user.type(await screen.findByRole('textbox', { name: 'Phone number' }), phoneNumber);
  await user.click(screen.getByRole('button', { name: 'Search' }));
  await screen.findByText('Showing 1 out of 1 entries');
}

describe("'Details' and 'Resend ticket'", () => {
  it("opens the call's summary and its timeline in order from a failed row", async () => {
    const { user } = await renderApp({ url: '/failed', user: code.agent });
    await screen.findByText('Showing 1 out of 1 entries');
    await user.click(within(rowOf(failedCall.phoneNumber)).getByRole('button', { name: /^Details/ }));

    const drawer = await screen.findByRole('region', { name: 'Call details' });
    expect(within(drawer).getByText(failedCall.phoneNumber)).toBeInTheDocument();
    expect(within(drawer).getByText(code.name)).toBeInTheDocument();
    const timeline = await within(drawer).findByRole('list', { name: 'Timeline' });
    const expected = await api<TransactionEvent[]>(`/v1/transactions/${failedCall._id}/events`);
    const shown = within(timeline).getAllByRole('heading', { level: 3 }).map((h) => h.textContent);
    expect(shown).toEqual(expected.map((event) => TRANSACTION_EVENT_LABELS[event.kind]));
    expect(shown.at(-1)).toBe('Resolved');
    expect(within(timeline).getByText(new RegExp(`· ${code.agent.userName}$`))).toBeInTheDocument();
    // Not paid: nothing to resend.
    expect(within(drawer).queryByRole('button', { name: 'Resend ticket' })).not.toBeInTheDocument();

    await user.click(within(drawer).getByRole('button', { name: 'Close details' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Call details' })).not.toBeInTheDocument());
  });

  it('resends a failed ticket once, disabled while in flight, and the row and timeline update', async () => {
    const { user } = await renderApp({ url: '/search', user: code.agent });
    await searchFor(user, unreachable);
    const row = rowOf(unreachable);
    expect(within(row).getByText('Failed')).toBeInTheDocument();
    const resend = within(row).getByRole('button', { name: 'Resend ticket' });
    await user.click(resend);
    // In flight: the button is disabled, so a second click cannot send again.
    expect(within(row).getByRole('button', { name: 'Sending…' })).toBeDisabled();
    expect(await toast('Ticket sent')).toBeInTheDocument();
    await waitFor(() => expect(within(rowOf(unreachable)).getByText('Sent')).toBeInTheDocument());
    expect(within(rowOf(unreachable)).queryByRole('button', { name: 'Resend ticket' })).not.toBeInTheDocument();

    await user.click(within(rowOf(unreachable)).getByRole('button', { name: /^Details/ }));
    const drawer = await screen.findByRole('region', { name: 'Call details' });
    const timeline = await within(drawer).findByRole('list', { name: 'Timeline' });
    expect(within(timeline).getAllByText(TRANSACTION_EVENT_LABELS.ticket_resent)).toHaveLength(1);
    expect(within(drawer).queryByRole('button', { name: 'Resend ticket' })).not.toBeInTheDocument();
  });

  it('offers no resend for a delivered ticket, nor to the Afcon-only account, whose AFCON rows still have Details', async () => {
    const { user, unmount } = await renderApp({ url: '/search', user: TEST_ADMIN });
    await searchFor(user, reachable);
    expect(within(rowOf(reachable)).getByRole('button', { name: /^Details/ })).toBeInTheDocument();
    expect(within(rowOf(reachable)).queryByRole('button', { name: 'Resend ticket' })).not.toBeInTheDocument();
    unmount();

    const afcon = await createAfconAccountViaApi();
    const again = await renderApp({ url: '/afcon/2024/search', user: afcon });
    await again.user.type(await screen.findByRole('textbox', { name: 'Phone number' }), AFCON_VOTERS[1]);
    await again.user.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText(/^Showing [1-9]\d* out of/);
    const row = screen.getAllByRole('row').find((r) => within(r).queryByRole('button', { name: /^Details/ })) as HTMLElement;
    expect(within(row).queryByRole('button', { name: 'Resend ticket' })).not.toBeInTheDocument();
    await again.user.click(within(row).getByRole('button', { name: /^Details/ }));
    const drawer = await screen.findByRole('region', { name: 'Call details' });
    // Seeded votes were written straight to the database: no events.
    expect(await within(drawer).findByText('No events recorded for this call yet.')).toBeInTheDocument();
    expect(within(drawer).getByText('Team')).toBeInTheDocument();
  });

  it("shows an admin who acted on the call from the audit trail under its timeline, and an agent no such section", async () => {
    const { user, unmount } = await renderApp({ url: '/search', user: TEST_ADMIN });
    await searchFor(user, failedCall.phoneNumber);
    await user.click(within(rowOf(failedCall.phoneNumber)).getByRole('button', { name: /^Details/ }));
    const drawer = await screen.findByRole('region', { name: 'Call details' });
    expect(within(drawer).getByRole('heading', { name: 'Audit entries' })).toBeInTheDocument();
    const entries = await within(drawer).findByRole('list', { name: 'History, newest first' });
    expect(within(entries).getByText('Transaction resolved')).toBeInTheDocument();
    expect(entries).toHaveTextContent(code.agent.userName);
    unmount();

    const again = await renderApp({ url: '/failed', user: code.agent });
    await screen.findByText('Showing 1 out of 1 entries');
    await again.user.click(within(rowOf(failedCall.phoneNumber)).getByRole('button', { name: /^Details/ }));
    const agentDrawer = await screen.findByRole('region', { name: 'Call details' });
    expect(within(agentDrawer).queryByRole('heading', { name: 'Audit entries' })).not.toBeInTheDocument();
  });
});
