import { configure, screen, waitFor, within } from '@testing-library/react';
import { renderApp } from '../../testing/render-app';
import { TEST_ADMIN } from '../../testing/test-admin';
import { createServiceCodeViaApi, dialCalls, uniquePhoneNumber } from '../../testing/ussd-calls';

configure({ asyncUtilTimeout: 30_000 });

/**
 * Refunds on the reconciliation screen, against the real API: a statement with a type column counts
 * its refund lines in their own kinds, and 'Refund' beside 'Issue ticket' on a paid-no-ticket row
 * opens the refund dialog; once requested, the row shows the refund and offers neither again.
 */

const toast = (text: string) => screen.findByText(text, { selector: '#notistack-snackbar, #notistack-snackbar *' });
const rowOf = (text: string) => screen.getByText(text).closest('[role="row"]') as HTMLElement;

describe('/reconciliation with refunds', () => {
  it("counts refund lines in their kinds, and 'Refund' on a paid-no-ticket row requests the money back instead of a ticket", async () => {
    const [unpaid] = await dialCalls((await createServiceCodeViaApi()).name, [{ phoneNumber: uniquePhoneNumber(), choice: '2', outcome: 'FAILED' }]);
    const { user } = await renderApp({ url: '/reconciliation', user: TEST_ADMIN });
    // Completed long ago, so no other test's calls or refunds fall within the statement's period.
    const csv = `type,reference,amount,currency,status,completedAt\r\n,${unpaid.paymentRef},5000,UGX,SUCCESSFUL,2001-02-01T00:00:00Z\r\nREFUND,back-${uniquePhoneNumber()},5000,UGX,SUCCESSFUL,2001-02-01T00:00:00Z\r\n`;
    await user.upload(await screen.findByLabelText('Statement file'), new File([csv], 'with-refunds.csv', { type: 'text/csv' }));
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await toast('Statement imported')).toBeInTheDocument();

    const counts = await screen.findByRole('group', { name: 'Rows per kind' });
    const card = (name: RegExp) => within(counts).getByRole('button', { name });
    await waitFor(() => expect(card(/^Unknown refund/)).toHaveTextContent('Unknown refund11 to act on'));
    expect(card(/^Refund mismatch/)).toHaveTextContent('Refund mismatch0');
    expect(card(/^Refund missing/)).toHaveTextContent('Refund missing0');

    await screen.findByText(unpaid.paymentRef!);
    const row = () => rowOf(unpaid.paymentRef!);
    expect(within(row()).getByRole('button', { name: 'Issue ticket' })).toBeInTheDocument();
    await user.click(within(row()).getByRole('button', { name: `Refund the call of reference ${unpaid.paymentRef}` }));
    const dialog = await screen.findByRole('dialog', { name: `Refund the call from ${unpaid.phoneNumber}` });
    expect(within(dialog).getByRole('spinbutton', { name: 'Amount (UGX)' })).toHaveValue(5000);
    await user.click(within(dialog).getByRole('combobox', { name: /^Reason/ }));
    await user.click(await screen.findByRole('option', { name: 'Ticket not delivered' }));
    await user.click(within(dialog).getByRole('button', { name: 'Request refund' }));
    expect(await toast('Refund requested')).toBeInTheDocument();

    // The row shows the refund awaiting approval; neither a ticket nor a second refund is offered.
    await waitFor(() => expect(within(row()).getByText('Awaiting approval · UGX 5,000')).toBeInTheDocument());
    expect(within(row()).queryByRole('button', { name: 'Issue ticket' })).not.toBeInTheDocument();
    expect(within(row()).queryByRole('button', { name: /^Refund/ })).not.toBeInTheDocument();

    // The refund line's kind is listed with its own words.
    await user.click(card(/^Unknown refund/));
    expect(await screen.findByRole('heading', { name: 'Unknown refund' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByText('Refund').length).toBeGreaterThan(1));
  }, 120_000);
});
