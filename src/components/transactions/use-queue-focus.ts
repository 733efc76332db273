import { useCallback, useEffect, useRef, useState } from 'react';
import type { Transaction } from '../../domain/entities';
import { isOpenFailedCall } from '../../domain/transaction-status';

/** The first open failed call after `index`, or else the nearest before it. */
function nextOpenCall(rows: Transaction[], index: number, skip: string): Transaction | undefined {
  const open = (row: Transaction) => row._id !== skip && isOpenFailedCall(row);
  return rows.slice(index + 1).find(open) ?? rows.slice(0, Math.max(index, 0)).reverse().find(open);
}

/**
 * The Failed queue's keyboard focus: one row at a time, outlined by the grid, scrolled into view and
 * announced through `announce`. Rows no longer shown lose it (`keepShown`).
 */
export function useQueueFocus(rows: Transaction[], announce: (text: string) => void) {
  const [focusedId, setFocusedId] = useState<string | null>(null);
  // A dialog's confirm, opened before the rows were read again, reads them as they are now.
  const rowsNow = useRef(rows);
  useEffect(() => {
    rowsNow.current = rows;
  }, [rows]);

  const focusRow = useCallback(
    (row: Transaction) => {
      const list = rowsNow.current;
      const index = list.findIndex((candidate) => candidate._id === row._id);
      setFocusedId(row._id);
      announce(`Call ${index + 1} of ${list.length}: from ${row.phoneNumber}, ${row.isResolved ? 'resolved' : 'not resolved'}`);
    },
    [announce],
  );

  useEffect(() => {
    if (!focusedId) return;
    const element = document.querySelector(`[data-id="${CSS.escape(focusedId)}"]`);
    // jsdom draws no layout and has no scrollIntoView.
    element?.scrollIntoView?.({ block: 'nearest' });
  }, [focusedId]);

  /** One row down (1) or up (-1); the first row when none has the focus. */
  const step = (by: 1 | -1) => {
    if (rows.length === 0) return;
    const index = rows.findIndex((row) => row._id === focusedId);
    focusRow(rows[index < 0 ? 0 : Math.min(rows.length - 1, Math.max(0, index + by))]);
  };

  /** After `row` was resolved: on to the next open call of the page, or say none is left. */
  const moveOnFrom = useCallback(
    (row: Transaction) => {
      const list = rowsNow.current;
      const next = nextOpenCall(list, list.findIndex((candidate) => candidate._id === row._id), row._id);
      if (next) focusRow(next);
      else announce('No call left to resolve on this page');
    },
    [focusRow, announce],
  );

  /** Called while rendering when the rows were replaced (another page, day or code). */
  const keepShown = (shown: ReadonlySet<string>) => {
    if (focusedId && !shown.has(focusedId)) setFocusedId(null);
  };

  return { focusedId, focusedRow: rows.find((row) => row._id === focusedId), focusRow, step, moveOnFrom, keepShown };
}
