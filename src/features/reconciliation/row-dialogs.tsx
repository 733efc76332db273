import { useIssueTicketMutation, useMarkRowReviewedMutation, useReviewRowsMutation } from '../../api/reconciliation-api';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { FormDialog } from '../../components/form-dialog';
import { FormTextField } from '../../components/form-fields';
import { serverMessage, useSubmit } from '../../components/use-submit';
import { formatDateTime, formatMoney, plural } from '../../domain/format';
import { REVIEW_NOTE_MAX, reviewRowSchema, type ReconciliationRow } from '../../domain/reconciliation';
import { REFUND_STATE_LABELS } from '../../domain/refunds';

interface RowDialogProps {
  statementId: string;
  /** The row acted on; null keeps the dialog closed. */
  row: ReconciliationRow | null;
  onClose: () => void;
}

const moneyText = (row: ReconciliationRow) => (row.amount === null ? 'the amount' : `${row.currency ?? ''} ${formatMoney(row.amount)}`.trim());

/**
 * 'Issue ticket' asks first: it marks the call processed and sends its ticket SMS, which cannot
 * be taken back. The toast is the server's word ('Ticket issued', or that the call was paid already).
 */
export function IssueTicketDialog({ statementId, row, onClose }: RowDialogProps) {
  const [issueTicket, { isLoading }] = useIssueTicketMutation();
  const submit = useSubmit();
  const confirm = async () => {
    if (!row) return;
    // Whatever the server answered (issued now, or by an earlier hand) leaves the row done: its words, in success style.
    const answered = await submit(() => issueTicket({ statementId, rowId: row._id }).unwrap(), { success: ({ message }) => message, failure: serverMessage });
    if (answered) onClose();
  };
  return (
    <ConfirmDialog
      open={row !== null}
      id="issue-ticket"
      title="Issue the ticket?"
      text={
        row && (
          <>
            The provider&apos;s statement says it collected {moneyText(row)} for this call{row.completedAt ? ` on ${formatDateTime(row.completedAt)}` : ''} (reference {row.reference}).
            The call will be marked processed and its ticket SMS sent once to {row.transaction?.phoneNumber ?? 'the customer'}.
          </>
        )
      }
      confirmLabel="Issue ticket"
      busyLabel="Issuing"
      busy={isLoading}
      onConfirm={confirm}
      onClose={onClose}
    />
  );
}

/** What the row's statement line says is wrong, for the review dialog's subtitle. */
function reviewContext(row: ReconciliationRow): string {
  const from = row.transaction?.phoneNumber ? `from ${row.transaction.phoneNumber} ` : '';
  switch (row.kind) {
    case 'ticketNoMoney':
      return `The call ${from}got its ticket, but the statement shows no money for reference ${row.reference}.`;
    case 'amountMismatch':
      return `The statement says ${moneyText(row)} for reference ${row.reference}, not the call's price${row.transaction ? ` of ${formatMoney(row.transaction.amount ?? 0)}` : ''}.`;
    case 'unknownReference':
      return `No call has the statement's reference ${row.reference} (${moneyText(row)}).`;
    case 'refundUnknown':
      return `The statement gives back ${moneyText(row)} under reference ${row.reference}, which is no refund's provider reference.`;
    case 'refundMismatch':
      return row.refund
        ? `The statement says ${row.status ?? 'nothing'} for ${moneyText(row)}; our refund of UGX ${formatMoney(row.refund.amount)} is ${REFUND_STATE_LABELS[row.refund.state].toLowerCase()}.`
        : `The statement's refund line ${row.reference} disagrees with our refund.`;
    case 'refundMissing':
      return `Our refund of ${moneyText(row)} ${from}completed, but the statement has no refund line for reference ${row.reference}.`;
    case 'currencyMismatch':
      return `The statement's line for reference ${row.reference} is in ${row.currency ?? 'another currency'}.`;
    default:
      return `The statement and the call ${from}disagree for reference ${row.reference}.`;
  }
}

/** 'Mark reviewed': an exception row looked into, with a note that goes on the call's timeline. */
export function ReviewRowDialog({ statementId, row, onClose }: RowDialogProps) {
  const [markReviewed] = useMarkRowReviewedMutation();
  const submit = useSubmit();
  return (
    <FormDialog
      open={row !== null}
      onClose={onClose}
      title="Mark reviewed"
      subtitle={row ? `${reviewContext(row)} Say what you found or did.` : undefined}
      schema={reviewRowSchema}
      initialValues={{ note: '' }}
      submitLabel="Mark reviewed"
      onSubmit={async ({ note }, helpers) =>
        row
          ? submit(() => markReviewed({ statementId, rowId: row._id, note }).unwrap(), { success: 'Marked reviewed', failure: serverMessage, helpers })
          : false
      }
    >
      <FormTextField name="note" label="Note" multiline minRows={3} fullWidth margin="normal" slotProps={{ htmlInput: { maxLength: REVIEW_NOTE_MAX } }} />
    </FormDialog>
  );
}

/** 'Review' of the selected rows: one note for all of them, on each row and its call's timeline. */
export function ReviewRowsDialog({ statementId, rows, open, onClose, onReviewed }: { statementId: string; rows: ReconciliationRow[]; open: boolean; onClose: () => void; onReviewed: () => void }) {
  const [reviewRows] = useReviewRowsMutation();
  const submit = useSubmit();
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={`Review ${plural(rows.length, 'row')}`}
      subtitle="Say what you found or did: the note goes on each row and its call's timeline."
      schema={reviewRowSchema}
      initialValues={{ note: '' }}
      submitLabel="Mark reviewed"
      onSubmit={async ({ note }, helpers) => {
        const done = await submit(() => reviewRows({ statementId, rowIds: rows.map((row) => row._id), note }).unwrap(), { success: ({ message }) => message, failure: serverMessage, helpers });
        if (done) onReviewed();
        return done;
      }}
    >
      <FormTextField name="note" label="Note" multiline minRows={3} fullWidth margin="normal" slotProps={{ htmlInput: { maxLength: REVIEW_NOTE_MAX } }} />
    </FormDialog>
  );
}
