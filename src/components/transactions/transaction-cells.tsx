import { useEffect, useState } from 'react';
import Tooltip from '@mui/material/Tooltip';
import type { Transaction } from '../../domain/entities';
import { CellButton, CellChip } from '../cell-controls';
import { STATUS_COLOR, transactionStatus } from '../../domain/transaction-status';
import { resolvedByText } from '../../domain/transaction-csv';

/** SPEC §4: processed green, failed red, pending amber. */
export function StatusChip({ transaction }: { transaction: Transaction }) {
  const status = transactionStatus(transaction);
  return <CellChip color={STATUS_COLOR[status]} label={status} />;
}

/**
 * SPEC §4's Yes or No; a call the server knows as resolved says by whom and when in a tooltip,
 * which is also the cell's accessible description.
 */
export function ResolvedCell({ transaction, resolved }: { transaction: Transaction; resolved: boolean }) {
  const who = resolvedByText(transaction);
  const text = resolved ? 'Yes' : 'No';
  if (!who) return <span>{text}</span>;
  return (
    <Tooltip title={who} describeChild>
      <span>{text}</span>
    </Tooltip>
  );
}

/** SPEC §4: 'Resolve' until resolved (by the server or in this session), then a disabled 'Resolved'. */
export function ResolveButton({ resolved, onResolve }: { resolved: boolean; onResolve: () => void }) {
  return (
    <CellButton variant="contained" disabled={resolved} onClick={onResolve}>
      {resolved ? 'Resolved' : 'Resolve'}
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
  return (
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
}
