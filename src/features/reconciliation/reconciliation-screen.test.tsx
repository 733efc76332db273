import { configure, screen, waitFor, within } from '@testing-library/react';
import { TRANSACTION_EVENT_LABELS } from '../../domain/transaction-events';
import { createAgentViaApi, renderApp } from '../../testing/render-app';
import { TEST_ADMIN } from '../../testing/test-admin';
import { createServiceCodeViaApi, dialCalls, uniquePhoneNumber } from '../../testing/ussd-calls';

configure({ asyncUtilTimeout: 30_000 });

/**
 * DESIGN §7 on the screen, against the real API: upload a statement with its progress, read the
 * counts, issue a ticket and mark a row reviewed through their dialogs, and see a bad file's lines.
 */

let failed: Awaited<ReturnType<typeof dialCalls>>[number];
let paid: Awaited<ReturnType<typeof dialCalls>>[number];

beforeAll(async () => {
  const code = await createServiceCodeViaApi();
  [failed, paid] = await dialCalls(code.name, [
    { phoneNumber: uniquePhoneNumber(), choice: '2', outcome: 'FAILED' },
    { phoneNumber: uniquePhoneNumber(), choice: '2', outcome: 'SUCCESSFUL' },
  ]);
});

/** Every line completed at one instant long ago, so no other test's calls fall within the statement's period. */
const statement = (lines: string[]) => `reference,amount,currency,status,completedAt\r\n${lines.map((l) => `${l},2001-01-01T00:00:00Z`).join('\r\n')}\r\n`;
const toast = (text: string) => screen.findByText(text, { selector: '#notistack-snackbar, #notistack-snackbar *' });
const rowOf = (text: string) => screen.getByText(text).closest('[role="row"]') as HTMLElement;

async function uploadFile(user: Awaited<ReturnType<typeof renderApp>>['user'], csv: string, name: string) {
  await user.upload(await screen.findByLabelText('Statement file'), new File([csv], name, { type: 'text/csv' }));
  expect(screen.getByText(new RegExp(`^${name.replace('.', '\\.')} \\(`))).toBeInTheDocument();
  await user.click(screen.getByRole('button', { name: 'Upload' }));
}

describe('/reconciliation', () => {
  it('uploads a statement, counts its kinds, issues a ticket once and marks a row reviewed', async () => {
    const { user } = await renderApp({ url: '/reconciliation', user: TEST_ADMIN });
    const unknown = `unknown-${uniquePhoneNumber()}`;
    await uploadFile(user, statement([`${failed.paymentRef},5000,UGX,SUCCESSFUL`, `${paid.paymentRef},5000,UGX,FAILED`, `${unknown},5000,UGX,SUCCESSFUL`]), 'momo-statement.csv');
    expect(await screen.findByRole('status')).toBeInTheDocument();
    expect(await toast('Statement imported')).toBeInTheDocument();

    const counts = await screen.findByRole('group', { name: 'Rows per kind' });
    const card = (name: RegExp) => within(counts).getByRole('button', { name });
    await waitFor(() => expect(card(/^Paid, no ticket/)).toHaveTextContent('Paid, no ticket11 to act on'));
    expect(card(/^Ticket, no money/)).toHaveTextContent('Ticket, no money11 to act on');
    expect(card(/^Unknown reference/)).toHaveTextContent('Unknown reference11 to act on');
    expect(card(/^Matched/)).toHaveTextContent('Matched0');
    expect(card(/^Paid, no ticket/)).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByText(/^3 lines from/)).toBeInTheDocument();

    // Paid, no ticket: confirm, then the row says who issued it and the call is processed.
    await screen.findByText(failed.paymentRef!);
    await user.click(within(rowOf(failed.paymentRef!)).getByRole('button', { name: 'Issue ticket' }));
    const confirm = await screen.findByRole('dialog', { name: 'Issue the ticket?' });
    expect(within(confirm).getByText(new RegExp(`UGX 5,000 .*${failed.phoneNumber}`))).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Issue ticket' }));
    expect(await toast('Ticket issued')).toBeInTheDocument();
    await waitFor(() => expect(within(rowOf(failed.paymentRef!)).getByText(`Ticket issued · ${TEST_ADMIN.userName}`)).toBeInTheDocument());
    expect(within(rowOf(failed.paymentRef!)).queryByRole('button', { name: 'Issue ticket' })).not.toBeInTheDocument();
    expect(within(rowOf(failed.paymentRef!)).getByText('processed')).toBeInTheDocument();
    expect(card(/^Paid, no ticket/)).toHaveTextContent('All acted on');

    // The call's Details show the settlement on its timeline, with who did it.
    await user.click(within(rowOf(failed.paymentRef!)).getByRole('button', { name: /^Details/ }));
    const drawer = await screen.findByRole('region', { name: 'Call details' });
    const timeline = await within(drawer).findByRole('list', { name: 'Timeline' });
    expect(await within(timeline).findByText(TRANSACTION_EVENT_LABELS.reconciled)).toBeInTheDocument();
    expect(within(timeline).getAllByText(TRANSACTION_EVENT_LABELS.sms_sent).length).toBeGreaterThan(0);
    await user.click(within(drawer).getByRole('button', { name: 'Close details' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Call details' })).not.toBeInTheDocument());

    // Ticket, no money: a note is needed, then the row is reviewed.
    await user.click(card(/^Ticket, no money/));
    await screen.findByText(paid.paymentRef!);
    await user.click(within(rowOf(paid.paymentRef!)).getByRole('button', { name: 'Mark reviewed' }));
    const review = await screen.findByRole('dialog', { name: 'Mark reviewed' });
    await user.click(within(review).getByRole('button', { name: 'Mark reviewed' }));
    expect(await within(review).findByText('Please write a note')).toBeInTheDocument();
    await user.click(within(review).getByRole('textbox', { name: 'Note' }));
    await user.paste('Provider says the money came on the next statement');
    await user.click(within(review).getByRole('button', { name: 'Mark reviewed' }));
    expect(await toast('Marked reviewed')).toBeInTheDocument();
    await waitFor(() => expect(within(rowOf(paid.paymentRef!)).getByText(`Reviewed · ${TEST_ADMIN.userName}: Provider says the money came on the next statement`)).toBeInTheDocument());
  });

  it('says the same file again is the statement already imported', async () => {
    const { user } = await renderApp({ url: '/reconciliation', user: TEST_ADMIN });
    const csv = statement([`again-${uniquePhoneNumber()},5000,UGX,FAILED`]);
    await uploadFile(user, csv, 'first.csv');
    expect(await toast('Statement imported')).toBeInTheDocument();
    expect(await screen.findByText(/^1 line from/)).toBeInTheDocument();
    await uploadFile(user, csv, 'second.csv');
    expect(await toast('This statement was imported already')).toBeInTheDocument();
  });

  it('voids a statement with a reason: shown as voided, its rows no longer offered to act on, listed among the voided', async () => {
    const { user } = await renderApp({ url: '/reconciliation', user: TEST_ADMIN });
    const [unpaid] = await dialCalls((await createServiceCodeViaApi()).name, [{ phoneNumber: uniquePhoneNumber(), choice: '2', outcome: 'FAILED' }]);
    await uploadFile(user, statement([`${unpaid.paymentRef},5000,UGX,SUCCESSFUL`]), 'wrong-month.csv');
    expect(await toast('Statement imported')).toBeInTheDocument();
    // Found by its text, not by role and name: computing every row's name made this one wait 11 s.
    await screen.findByText(unpaid.paymentRef!);
    await within(rowOf(unpaid.paymentRef!)).findByRole('button', { name: 'Issue ticket' });

    await user.click(screen.getByRole('button', { name: 'Void statement' }));
    const dialog = await screen.findByRole('dialog', { name: 'Void the statement?' });
    await user.click(within(dialog).getByRole('button', { name: 'Void statement' }));
    expect(await within(dialog).findByText('Please say why the statement is voided')).toBeInTheDocument();
    // Pasted rather than typed key by key: the same change for the form, a fraction of the time.
    await user.click(within(dialog).getByRole('textbox', { name: 'Reason' }));
    await user.paste('The provider sent April again');
    await user.click(within(dialog).getByRole('button', { name: 'Void statement' }));
    expect(await toast('Statement voided')).toBeInTheDocument();

    const notice = await screen.findByRole('alert', { name: 'Voided statement' });
    expect(notice).toHaveTextContent(`Voided by ${TEST_ADMIN.userName}`);
    expect(notice).toHaveTextContent('The provider sent April again');
    expect(screen.getByRole('switch', { name: 'Voided statements' })).toBeChecked();
    expect(screen.queryByRole('button', { name: 'Void statement' })).not.toBeInTheDocument();
    await waitFor(() => expect(within(rowOf(unpaid.paymentRef!)).queryByRole('button', { name: 'Issue ticket' })).not.toBeInTheDocument());
    expect(screen.getByRole('combobox', { name: 'Voided statement' })).toHaveValue('wrong-month.csv');

    // Back to the standing statements: the voided one is not among them.
    await user.click(screen.getByRole('switch', { name: 'Voided statements' }));
    await waitFor(() => expect(screen.queryByRole('alert', { name: 'Voided statement' })).not.toBeInTheDocument());
    // jsdom names every element a role query walks: with the picker's options and the grid's rows
    // this test takes about 30 s alone and twice that beside another test file.
  }, 150_000);

  it("lists a bad file's lines and columns and imports nothing", async () => {
    const { user } = await renderApp({ url: '/reconciliation', user: TEST_ADMIN });
    await uploadFile(user, statement([`bad-${uniquePhoneNumber()},lots,UGX,SUCCESSFUL`, `bad2-${uniquePhoneNumber()},5000,UGX,MAYBE`]), 'broken.csv');
    const problems = await screen.findByRole('alert', { name: 'Problems in the file' });
    expect(within(problems).getByText('The statement was not imported; nothing was changed.')).toBeInTheDocument();
    expect(within(problems).getByText(/^Line 2, column amount: not a number/)).toBeInTheDocument();
    expect(within(problems).getByText('Line 3, column status: must be SUCCESSFUL or FAILED')).toBeInTheDocument();
  });

  it("is not in an agent's menu, and an agent who follows a link is told so", async () => {
    const agent = await createAgentViaApi('reconciler');
    await renderApp({ url: '/reconciliation', user: agent });
    expect(await screen.findByRole('heading', { name: 'You do not have access to this page' })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Main menu' })).queryByRole('link', { name: 'Reconciliation' })).not.toBeInTheDocument();
  });
});
