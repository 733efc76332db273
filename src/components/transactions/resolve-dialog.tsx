import type { Resolution } from '../../api/transactions-api';
import { RESOLVE_NOTE_MAX, RESOLVE_REASON_LABELS, RESOLVE_REASONS, type ResolveReason } from '../../domain/resolution';
import { resolveDialogSchema } from '../../domain/schemas/transactions';
import { FormDialog } from '../form-dialog';
import { FormRadioGroup, FormTextField } from '../form-fields';

const REASON_OPTIONS = RESOLVE_REASONS.map((reason) => ({ value: reason, label: RESOLVE_REASON_LABELS[reason] }));

const EMPTY = { reason: '', note: '' };

export interface ResolveDialogProps {
  open: boolean;
  /** The title: 'Resolve the call from 2567…' or 'Resolve 3 calls'. */
  title: string;
  onClose: () => void;
  /** Resolves true when done: the dialog then closes and forgets what was typed. */
  onConfirm: (resolution: Resolution) => Promise<boolean>;
}

/**
 * Why a failed call is resolved: a reason from the short list, which the person must
 * choose, and an optional one-line note; Enter confirms from either. One dialog for a row ('r'
 * in the queue) and for Resolve selected.
 */
export function ResolveDialog({ open, title, onClose, onConfirm }: ResolveDialogProps) {
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={title}
      schema={resolveDialogSchema}
      initialValues={EMPTY}
      submitLabel="Resolve"
      onSubmit={async ({ reason, note }) => {
        const trimmed = note.trim();
        return onConfirm({ reason: reason as ResolveReason, ...(trimmed ? { note: trimmed } : {}) });
      }}
    >
      <FormRadioGroup name="reason" label="Reason" options={REASON_OPTIONS} autoFocus />
      <FormTextField
        name="note"
        label="Note (optional)"
        helperText={`What was done, in one line of at most ${RESOLVE_NOTE_MAX} characters`}
        slotProps={{ htmlInput: { maxLength: RESOLVE_NOTE_MAX } }}
      />
    </FormDialog>
  );
}
