import { useEffect, useState } from 'react';
import Tooltip from '@mui/material/Tooltip';
import type { Transaction } from '../../domain/entities';
import { CellButton, CellChip } from '../cell-controls';
import { STATUS_COLOR, transactionStatus } from '../../domain/transaction-status';
import { failureText, resolvedSummary } from '../../domain/transaction-csv';

/**
 * SPEC §4: processed green, failed red, pending amber. A failed call says why on hover and focus:
 * what happened ('Payment failed') and the provider's own words when it gave any.
 */
export function StatusChip({ transaction }: { transaction: Transaction }) {
  const status = transactionStatus(transaction);
  const chip = <CellChip color={STATUS_COLOR[status]} label={status} />;
  const why = status === 'failed' ? failureText(transaction) : '';
  if (!why) return chip;
  // A native title, not a Tooltip: the Failed list has one on every row, and rows must stay cheap to draw.
  return (
    <span className="failure-reason" title={why} style={{ display: 'inline-flex' }}>
      {chip}
    </span>
  );
}

/**
 * SPEC §4's Yes or No, as the server says (isResolved); a resolved call says by whom, when, why and
 * with which note in a tooltip, which is also the cell's accessible description.
 */
export function ResolvedCell({ transaction }: { transaction: Transaction }) {
  const who = resolvedSummary(transaction);
  const text = transaction.isResolved ? 'Yes' : 'No';
  if (!who) return <span>{text}</span>;
  return (
    <Tooltip title={who} describeChild>
      <span>{text}</span>
    </Tooltip>
  );
}

/**
 * SPEC §4: 'Resolve' on a failed call until resolved, then a disabled 'Resolved' that says by whom
 * on hover and focus. A click resolves at once, without a reason (SPEC §4); the Failed queue's
 * 'r' asks for one (use-resolve-queue.tsx). No button on processed and pending calls, which the server
 * would refuse.
 */
export function ResolveButton({ transaction, onResolve }: { transaction: Transaction; onResolve: (request: { id: string }) => void }) {
  if (transactionStatus(transaction) !== 'failed') return null;
  if (transaction.isResolved) {
    return (
      <Tooltip title={resolvedSummary(transaction) || 'This call is resolved'} describeChild>
        <CellButton variant="contained" disabled>
          Resolved
        </CellButton>
      </Tooltip>
    );
  }
  return (
    <CellButton variant="contained" onClick={() => onResolve({ id: transaction._id })}>
      Resolve
    </CellButton>
  );
}

export const COPIED_MS = 2000;

/** SPEC §2: copies the ticket message; 'Copied' shows for 2 seconds. */
export function CopyTicketButton({ message }: { message: string | undefined }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return undefined;
    const timer = setTimeout(() => setCopied(false), COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const button = (
    <CellButton
      variant="outlined"
      disabled={!message}
      onClick={async () => {
        if (!message) return;
        await navigator.clipboard.writeText(message);
        setCopied(true);
      }}
    >
      {copied ? 'Copied' : 'Ticket'}
    </CellButton>
  );
  // Disabled controls say why.
  return message ? button : <Tooltip title="No ticket was sent for this call" describeChild>{button}</Tooltip>;
}
