import Box from '@mui/material/Box';
import type { GridColDef, GridRenderCellParams } from '@mui/x-data-grid';
import type { Transaction } from '../../domain/entities';
import type { BulkResolveOutcome } from '../../domain/resolution';
import { CellChip, type CellColor } from '../cell-controls';

/** What 'Resolve selected' answered for each call it was asked about, by id. */
export type ResolveOutcomes = ReadonlyMap<string, BulkResolveOutcome>;

const OUTCOME_CHIPS: Record<BulkResolveOutcome, { label: string; color: CellColor }> = {
  resolved: { label: 'Resolved', color: 'success' },
  'already-resolved': { label: 'Already resolved', color: 'info' },
  refused: { label: 'Refused', color: 'error' },
};

/** The line above the grid after a 'Resolve selected': how many calls came out which way. */
export function outcomeSummary(outcomes: ResolveOutcomes): { text: string; severity: 'success' | 'warning' } {
  const counts = { resolved: 0, 'already-resolved': 0, refused: 0 };
  for (const outcome of outcomes.values()) counts[outcome] += 1;
  const parts = [
    `${counts.resolved} resolved`,
    counts['already-resolved'] > 0 ? `${counts['already-resolved']} already resolved` : '',
    counts.refused > 0 ? `${counts.refused} refused (not failed, or not yours to resolve)` : '',
  ].filter(Boolean);
  return { text: `Resolve selected: ${parts.join(', ')}.`, severity: counts.refused > 0 ? 'warning' : 'success' };
}

/** The list's columns with each call's outcome chip beside its Resolved. */
export function withResolveOutcomes(columns: GridColDef<Transaction>[], outcomes: ResolveOutcomes): GridColDef<Transaction>[] {
  return columns.map((column) => {
    if (column.field !== 'isResolved') return column;
    const renderResolved = column.renderCell;
    return {
      ...column,
      minWidth: 170,
      renderCell: (params: GridRenderCellParams<Transaction>) => {
        const outcome = outcomes.get(params.row._id);
        return (
          <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
            {renderResolved ? renderResolved(params) : params.formattedValue}
            {outcome && <CellChip color={OUTCOME_CHIPS[outcome].color} label={OUTCOME_CHIPS[outcome].label} />}
          </Box>
        );
      },
    };
  });
}
