import { useEffect, useState } from 'react';
import type { GridColDef, GridValidRowModel } from '@mui/x-data-grid';
import { formatMoney } from '../domain/format';
import { CellIconButton } from './cell-controls';

/** How long the copy button shows its tick after copying. */
export const REFERENCE_COPIED_MS = 2000;

/** MUI's ContentCopy and Check, drawn inline so a grid row needs no SvgIcon component. */
function CopyGlyph({ copied }: { copied: boolean }) {
  return (
    // Smaller than the other cell icons: the column stays narrow enough for the search's dates to keep one line.
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" style={{ width: 16, height: 16 }}>
      <path
        d={
          copied
            ? 'M9 16.17 4.83 12l-1.42 1.41L9 19 21 7l-1.41-1.41z'
            : 'M16 1H4c-1.1 0-2 .9-2 2v14h2V3h12zm3 4H8c-1.1 0-2 .9-2 2v14c0 1.1.9 2 2 2h11c1.1 0 2-.9 2-2V7c0-1.1-.9-2-2-2m0 16H8V7h11z'
        }
      />
    </svg>
  );
}

/**
 * A call's amount with, beside it, a small button that copies its payment reference: one narrow
 * grid column for both, so a dense list keeps every row on one line. The reference shows on hover
 * and focus; the button says 'Payment reference copied' for a moment once it has copied.
 */
export function AmountCell({ amount, paymentRef }: { amount: number | null | undefined; paymentRef: string | null | undefined }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return undefined;
    const timer = setTimeout(() => setCopied(false), REFERENCE_COPIED_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const money = formatMoney(amount);
  return (
    <span className="amount-cell" style={{ display: 'inline-flex', alignItems: 'center', gap: 2, whiteSpace: 'nowrap' }}>
      <span style={{ minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis' }}>{money}</span>
      {paymentRef ? (
        <CellIconButton
          aria-label={copied ? 'Payment reference copied' : 'Copy payment reference'}
          title={copied ? 'Copied' : `Copy payment reference ${paymentRef}`}
          style={{ padding: 2 }}
          onClick={async (event) => {
            // The row's own click (its details) is not this one.
            event.stopPropagation();
            await navigator.clipboard.writeText(paymentRef);
            setCopied(true);
          }}
        >
          <CopyGlyph copied={copied} />
        </CellIconButton>
      ) : null}
    </span>
  );
}

/** What a row needs for the Amount column: a call's JSON has both. */
export interface AmountRow {
  amount?: number | null;
  paymentRef?: string | null;
}

/**
 * The Amount column of the call lists (Transactions, Failed, Search): the amount and, one click
 * away, the payment reference, in one narrow column. 76 px holds a '100,000' and
 * the copy button whole; it takes a small share of spare room as the lists' other one-size columns do.
 */
export function amountColumn<R extends GridValidRowModel & AmountRow>(): GridColDef<R> {
  return {
    field: 'amount',
    headerName: 'Amount',
    minWidth: 76,
    flex: 0.076,
    sortable: false,
    // Right-aligned, so that amounts line up by their units and every copy button sits in one place.
    align: 'right',
    headerAlign: 'right',
    valueGetter: (_value, row) => formatMoney(row.amount),
    renderCell: ({ row }) => <AmountCell amount={row.amount} paymentRef={row.paymentRef} />,
  };
}
