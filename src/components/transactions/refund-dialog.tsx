import { useCallback, useState } from 'react';
import Button from '@mui/material/Button';
import { useRequestRefundMutation } from '../../api/refunds-api';
import type { Transaction } from '../../domain/entities';
import { formatMoney } from '../../domain/format';
import { REFUND_NOTE_MAX, REFUND_REASON_LABELS, REFUND_REASONS, type RefundReason } from '../../domain/refunds';
import { readsEveryCode } from '../../domain/roles';
import { refundRequestSchema } from '../../domain/schemas/refunds';
import { transactionStatus } from '../../domain/transaction-status';
import { useAppSelector } from '../../state/hooks';
import { selectSessionUser } from '../../state/session-slice';
import { CellButton } from '../cell-controls';
import { FormDialog } from '../form-dialog';
import { FormSelect, FormTextField } from '../form-fields';
import { serverMessage, useSubmit } from '../use-submit';

const REASON_OPTIONS = REFUND_REASONS.map((reason) => ({ value: reason, label: REFUND_REASON_LABELS[reason] }));

/** What is left of a call's amount once its completed refunds are taken off (open ones the server counts too). */
export const refundableAmount = (call: Pick<Transaction, 'amount' | 'refundedAmount'>) => Math.max(0, (call.amount ?? 0) - (call.refundedAmount ?? 0));

/** 'Refund' is offered on a processed call with money left, to customer care and the managers (the API refuses anyone else). */
export const mayRequestRefund = (call: Transaction, role: string | null | undefined) => readsEveryCode(role) && transactionStatus(call) === 'processed' && refundableAmount(call) > 0;

export interface RefundDialogProps {
  transaction: Transaction;
  open: boolean;
  onClose: () => void;
}

/**
 * Money back for a processed call: the amount (what is left by default; part of it allowed), why
 * from the short list, and an optional note. A manager other than the requester decides on it.
 */
export function RefundDialog({ transaction, open, onClose }: RefundDialogProps) {
  const [requestRefund] = useRequestRefundMutation();
  const submit = useSubmit();
  const left = refundableAmount(transaction);
  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={`Refund the call from ${transaction.phoneNumber}`}
      subtitle={`UGX ${formatMoney(left)} of UGX ${formatMoney(transaction.amount ?? 0)} can be refunded. A manager approves it before any money moves.`}
      schema={refundRequestSchema}
      initialValues={{ amount: String(left), reason: '0', note: '' }}
      submitLabel="Request refund"
      overDrawer
      onSubmit={async ({ amount, reason, note }, helpers) =>
        submit(
          () =>
            requestRefund({
              transactionId: transaction._id,
              ...(amount !== '' ? { amount: Number(amount) } : {}),
              reason: reason as RefundReason,
              ...(note.trim() ? { note: note.trim() } : {}),
            }).unwrap(),
          { success: 'Refund requested', failure: serverMessage, helpers },
        )
      }
    >
      <FormTextField name="amount" label="Amount (UGX)" type="number" autoFocus slotProps={{ htmlInput: { min: 1, max: left, step: 1, inputMode: 'numeric' } }} />
      {/* Its menu above the dialog, which is above the Details drawer. */}
      <FormSelect name="reason" label="Reason" options={REASON_OPTIONS} slotProps={{ select: { MenuProps: { sx: { zIndex: (theme) => theme.zIndex.modal + 2 } } } }} />
      <FormTextField name="note" label="Note (optional)" helperText={`One line of at most ${REFUND_NOTE_MAX} characters`} slotProps={{ htmlInput: { maxLength: REFUND_NOTE_MAX } }} />
    </FormDialog>
  );
}

/** The 'Refund' button with its dialog, for a call's Details. */
export function RefundButton({ transaction }: { transaction: Transaction }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" variant="outlined" onClick={() => setOpen(true)} sx={{ whiteSpace: 'nowrap' }}>
        Refund
      </Button>
      <RefundDialog transaction={transaction} open={open} onClose={() => setOpen(false)} />
    </>
  );
}

/**
 * 'Refund' in a processed row's Action cell, for those who may ask for one. The dialog is the
 * screen's (`useRowRefund`), not the cell's: a live list re-renders its rows, which would close it.
 */
export function RefundCellButton({ transaction, onRefund }: { transaction: Transaction; onRefund: (call: Transaction) => void }) {
  const role = useAppSelector(selectSessionUser)?.role;
  if (!mayRequestRefund(transaction, role)) return null;
  return (
    <CellButton variant="outlined" onClick={() => onRefund(transaction)} aria-label={`Refund the call from ${transaction.phoneNumber}`}>
      Refund
    </CellButton>
  );
}

/** A list's one Refund dialog, opened by its rows' buttons (`onRefund`). */
export function useRowRefund() {
  const [call, setCall] = useState<Transaction | null>(null);
  const onRefund = useCallback((row: Transaction) => setCall(row), []);
  const dialog = call ? <RefundDialog key={call._id} transaction={call} open onClose={() => setCall(null)} /> : null;
  return { onRefund, dialog };
}
