import { useCallback, useMemo, useState } from 'react';
import type { GridRowId } from '@mui/x-data-grid';
import { useResolveTransactionsMutation, type Resolution } from '../../api/transactions-api';
import type { Transaction } from '../../domain/entities';
import { BULK_RESOLVE_MAX } from '../../domain/resolution';
import { isOpenFailedCall } from '../../domain/transaction-status';
import type { RowSelection } from '../paged-view';
import { useSubmit } from '../use-submit';
import { outcomeSummary, type ResolveOutcomes } from './resolve-outcomes';

/** How the queue names a call in words: 'the call from 2567…'. */
export const callText = (row: Transaction) => `the call from ${row.phoneNumber}`;

/**
 * 'Resolve selected': the grid's checkboxes (open failed calls, at most BULK_RESOLVE_MAX), the one
 * bulk call through the list's path, and each call's outcome until the next change, summed up
 * through `announce`. `onPick` runs when the selection changes (the queue fetches its dialog's code then).
 */
export function useBulkResolve({ bulkPath, onPick, announce }: { bulkPath?: string; onPick: () => void; announce: (text: string) => void }) {
  const [selected, setSelected] = useState<GridRowId[]>([]);
  const [outcomes, setOutcomes] = useState<ResolveOutcomes | null>(null);
  const [resolveMany] = useResolveTransactionsMutation();
  const submit = useSubmit({ replacePrevious: true });

  /** Resolves the calls with one reason and note; the outcomes replace the selection. */
  const resolveSelected = useCallback(
    (ids: string[], resolution: Resolution) =>
      submit(
        async () => {
          const results = await resolveMany({ ids, path: bulkPath, ...resolution }).unwrap();
          const answered = new Map(results.map(({ _id, outcome }) => [_id.toLowerCase(), outcome]));
          const byRow = new Map(ids.map((id) => [id, answered.get(id.toLowerCase()) ?? ('refused' as const)]));
          setOutcomes(byRow);
          setSelected([]);
          announce(outcomeSummary(byRow).text);
        },
        { success: null, failure: 'Unexpected error' },
      ),
    [submit, resolveMany, bulkPath, announce],
  );

  const selection = useMemo<RowSelection<Transaction>>(
    () => ({
      ids: selected,
      onChange: (ids) => {
        onPick();
        setOutcomes(null);
        setSelected(ids.slice(0, BULK_RESOLVE_MAX));
      },
      isSelectable: isOpenFailedCall,
      label: (row) => `Select ${callText(row)}`,
    }),
    [selected, onPick],
  );

  /** Called while rendering when the rows were replaced: the outcomes and the picks of rows gone go. */
  const keepShown = (shown: ReadonlySet<string>) => {
    setSelected((ids) => ids.filter((id) => shown.has(String(id))));
    setOutcomes(null);
  };

  return {
    selection,
    selectedIds: selected.map(String),
    outcomes,
    clearOutcomes: useCallback(() => setOutcomes(null), []),
    resolveSelected,
    keepShown,
  };
}
