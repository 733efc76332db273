import { configure, screen, waitFor, within } from '@testing-library/react';
import { apiUrl } from '../../api/api-url';
import { renderApp, sessionFor } from '../../testing/render-app';
import { TEST_ADMIN } from '../../testing/test-admin';
import { createServiceCodeViaApi, dialCalls, settleCall, uniquePhoneNumber } from '../../testing/ussd-calls';

/**
 * Lists that move: the screens follow GET /v1/live of the real API, so calls made and
 * settled over USSD and the payment callback show without Refresh.
 */

// A 50-row DataGrid renders slowly in jsdom on a busy machine.
configure({ asyncUtilTimeout: 30_000 });
jest.setTimeout(120_000);

const rowOf = (phoneNumber: string) => screen.getByText(phoneNumber).closest('[role="row"]') as HTMLElement;

/** The top bar's live status says the stream is open (events sent before would be missed). */
const streamOpen = () => waitFor(() => expect(document.querySelector('[data-live="open"]')).not.toBeNull());

async function resolveAsAdmin(id: string) {
  const admin = await sessionFor(TEST_ADMIN);
  const response = await fetch(apiUrl(`/v1/transactions/to/give/attention/${id}`), {
    method: 'POST',
    headers: { Authorization: `Bearer ${admin.accessToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ isResolved: true }),
  });
  expect(response.status).toBe(200);
}

describe('Lists that move', () => {
  it('shows a call failing on Failed without Refresh, and a resolve by someone else in its row', async () => {
    const code = await createServiceCodeViaApi();
    await renderApp({ url: '/failed', user: code.agent });
    await screen.findByText('Showing 0 out of 0 entries');
    await streamOpen();

    const [failed] = await dialCalls(code.name, [{ phoneNumber: uniquePhoneNumber(), outcome: 'FAILED' }]);
    expect(await screen.findByText(failed.phoneNumber)).toBeInTheDocument();
    await screen.findByText('Showing 1 out of 1 entries');
    expect(within(rowOf(failed.phoneNumber)).getByText('No')).toBeInTheDocument();

    await resolveAsAdmin(failed._id);
    await waitFor(() => expect(within(rowOf(failed.phoneNumber)).getByText('Yes')).toBeInTheDocument());
    expect(screen.queryByRole('button', { name: /new calls?$/ })).not.toBeInTheDocument();
  });

  it('shows a new call on Transactions without Refresh, and its payment settling in its row', async () => {
    const code = await createServiceCodeViaApi();
    await renderApp({ url: '/transactions', user: code.agent });
    await screen.findByText('Showing 0 out of 0 entries');
    await streamOpen();

    const [call] = await dialCalls(code.name, [{ phoneNumber: uniquePhoneNumber(), outcome: 'PENDING' }]);
    expect(await screen.findByText(call.phoneNumber)).toBeInTheDocument();
    expect(within(rowOf(call.phoneNumber)).getByText('pending')).toBeInTheDocument();

    await settleCall(call.paymentRef ?? '', 'SUCCESSFUL');
    await waitFor(() => expect(within(rowOf(call.phoneNumber)).getByText('processed')).toBeInTheDocument());
  });

  it("counts new calls in a chip on page 2 rather than moving the rows, and the chip goes to page 1 with them", async () => {
    const code = await createServiceCodeViaApi();
    const earlier = await dialCalls(
      code.name,
      Array.from({ length: 51 }, () => ({ phoneNumber: uniquePhoneNumber(), outcome: 'FAILED' as const })),
    );
    const { user } = await renderApp({ url: '/failed', user: code.agent });
    await screen.findByText('Showing 50 out of 51 entries');
    await streamOpen();
    const next = screen.getByRole('button', { name: 'Next' });
    await waitFor(() => expect(next).toBeEnabled());
    await user.click(next);
    await screen.findByText('Showing 1 out of 51 entries');
    expect(screen.getByText(earlier[0].phoneNumber)).toBeInTheDocument();

    const fresh = await dialCalls(code.name, [
      { phoneNumber: uniquePhoneNumber(), outcome: 'FAILED' },
      { phoneNumber: uniquePhoneNumber(), outcome: 'FAILED' },
    ]);
    const chip = await screen.findByRole('button', { name: '2 new calls' });
    // Page 2 stays as it was read.
    expect(screen.getByText('Showing 1 out of 51 entries')).toBeInTheDocument();
    expect(screen.getByText(earlier[0].phoneNumber)).toBeInTheDocument();

    await user.click(chip);
    await screen.findByText('Showing 50 out of 53 entries');
    expect(screen.getByText(fresh[0].phoneNumber)).toBeInTheDocument();
    expect(screen.getByText(fresh[1].phoneNumber)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /new calls?$/ })).not.toBeInTheDocument();
  });
});
