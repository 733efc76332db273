import { screen, waitFor, within } from '@testing-library/react';
import { apiUrl } from '../../api/api-url';
import type { Refund } from '../../domain/refunds';
import { renderApp, sessionFor, uniqueName, type Credentials } from '../../testing/render-app';
import { TEST_ADMIN } from '../../testing/test-admin';
import { createServiceCodeViaApi, dialCalls, uniquePhoneNumber } from '../../testing/ussd-calls';

/**
 * The refunds queue over the real API: a manager approves the focused refund with `a` and rejects
 * one with a reason; customer care reads it but decides nothing.
 */

async function api<T>(path: string, body: unknown, token: string): Promise<T> {
  const response = await fetch(apiUrl(path), { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  const json = (await response.json()) as { results: T; message: string };
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${json.message}`);
  return json.results;
}

let care: Credentials;
let refunds: Refund[];

beforeAll(async () => {
  const admin = await sessionFor(TEST_ADMIN);
  care = { userName: uniqueName('care'), password: 'care-password-1' };
  await api('/v1/auth/create/other', { ...care, role: 'customer-care' }, admin.accessToken);
  const careSession = await sessionFor(care);
  const code = await createServiceCodeViaApi();
  const calls = await dialCalls(code.name, [
    { phoneNumber: uniquePhoneNumber(), choice: '2', outcome: 'SUCCESSFUL' },
    { phoneNumber: uniquePhoneNumber(), choice: '2', outcome: 'SUCCESSFUL' },
  ]);
  refunds = [];
  for (const call of calls) refunds.push(await api<Refund>(`/v1/transactions/${call._id}/refunds`, { reason: 'duplicate-payment', note: 'Paid twice' }, careSession.accessToken));
}, 60_000);

const cardOf = async (refund: Refund) => {
  const list = await screen.findByRole('list', { name: 'Refunds, awaiting approval first' });
  return within(list).getAllByRole('listitem').find((item) => item.getAttribute('data-id') === refund._id)!;
};

describe('the refunds queue', () => {
  it('lets a manager approve the focused refund with a, and reject one with a reason', async () => {
    const { user } = await renderApp({ url: '/refunds?state=requested', user: TEST_ADMIN });
    expect(await screen.findByRole('heading', { level: 1, name: 'Refunds' })).toBeInTheDocument();
    const first = await cardOf(refunds[0]);
    expect(within(first).getByText('Awaiting approval')).toBeInTheDocument();
    expect(within(first).getByText('Duplicate payment — Paid twice')).toBeInTheDocument();

    // Move to the first refund of ours, whichever place it has among the others waiting.
    const items = within(await screen.findByRole('list', { name: 'Refunds, awaiting approval first' })).getAllByRole('listitem');
    const place = items.findIndex((item) => item.getAttribute('data-id') === refunds[0]._id);
    for (let i = 0; i <= place; i += 1) await user.keyboard('j');
    expect(first).toHaveAttribute('aria-current', 'true');
    await user.keyboard('a');
    expect(await screen.findByText(/^Refund approved/)).toBeInTheDocument();

    const second = await cardOf(refunds[1]);
    await user.click(within(second).getByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: /^Reject UGX 5,000/ });
    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Only paid once');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    expect(await screen.findByText('Refund rejected')).toBeInTheDocument();
  });

  it('shows customer care the queue without a decision to make', async () => {
    await renderApp({ url: '/refunds', user: care });
    const card = await cardOf(refunds[0]);
    expect(within(card).queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
  });

  it('lets customer care export the state shown as CSV', async () => {
    const saved: Blob[] = [];
    // jsdom has no object URLs or downloads: stand in for the browser's.
    Object.assign(URL, { createObjectURL: jest.fn((blob: Blob) => (saved.push(blob), 'blob:refunds')), revokeObjectURL: jest.fn() });
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    try {
      const { user } = await renderApp({ url: '/refunds?state=rejected', user: care });
      await screen.findByRole('heading', { level: 1, name: 'Refunds' });
      await user.click(await screen.findByRole('button', { name: 'Export CSV' }));
      await waitFor(() => expect(click).toHaveBeenCalled());
      expect((click.mock.instances[0] as unknown as HTMLAnchorElement).download).toBe('refunds-rejected.csv');
      const lines = (await saved[0].text()).trimEnd().split('\r\n');
      expect(lines[0]).toMatch(/^Requested at,Service code,From,Call amount,Amount,Reason,Note,State,/);
      // The one rejected above is among them; nothing of another state.
      expect(lines.some((line) => line.includes(refunds[1].phoneNumber) && line.includes('Only paid once'))).toBe(true);
      expect(lines.slice(1).every((line) => line.includes(',Rejected,'))).toBe(true);
    } finally {
      click.mockRestore();
    }
  });
});
