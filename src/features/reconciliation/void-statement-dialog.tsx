import { useVoidStatementMutation } from '../../api/reconciliation-api';
import { FormDialog } from '../../components/form-dialog';
import { FormTextField } from '../../components/form-fields';
import { useSubmit } from '../../components/use-submit';
import { VOID_REASON_MAX, voidStatementSchema, type ReconciliationStatement } from '../../domain/reconciliation';

interface VoidStatementDialogProps {
  /** The statement to void; null keeps the dialog closed. */
  statement: ReconciliationStatement | null;
  onClose: () => void;
  onVoided: (statementId: string) => void;
}

/**
 * 'Void': a statement uploaded by mistake (the wrong file, the wrong period) stops counting, with
 * the reason. What was done on its rows stays, on the rows and on the calls' timelines.
 */
export function VoidStatementDialog({ statement, onClose, onVoided }: VoidStatementDialogProps) {
  const [voidStatement] = useVoidStatementMutation();
  const submit = useSubmit();
  return (
    <FormDialog
      open={statement !== null}
      onClose={onClose}
      title="Void the statement?"
      subtitle={
        statement
          ? `${statement.fileName ?? 'This statement'} will leave the list of statements and no longer count as the provider's word on any payment. Tickets issued and rows reviewed from it stay. Say why it is voided.`
          : undefined
      }
      schema={voidStatementSchema}
      initialValues={{ reason: '' }}
      submitLabel="Void statement"
      onSubmit={async ({ reason }, helpers) => {
        if (!statement) return false;
        const done = await submit(() => voidStatement({ id: statement._id, reason }).unwrap(), { success: 'Statement voided', failure: (info) => info.message || 'Unexpected error', helpers });
        if (done) onVoided(statement._id);
        return done;
      }}
    >
      <FormTextField name="reason" label="Reason" multiline minRows={3} fullWidth margin="normal" slotProps={{ htmlInput: { maxLength: VOID_REASON_MAX } }} />
    </FormDialog>
  );
}
