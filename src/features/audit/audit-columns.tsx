import { useMemo } from 'react';
import Box from '@mui/material/Box';
import type { GridColDef } from '@mui/x-data-grid';
import { auditActionLabel, auditActorText, auditChangeText, type AuditEntry } from '../../domain/audit';
import { formatDateTimeSeconds } from '../../domain/format';

/** The changes of an entry, one line each ('VIP price 5,000 → 6,000'). */
function Changes({ entry }: { entry: AuditEntry }) {
  if (entry.changes.length === 0) return null;
  return (
    <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none' }}>
      {entry.changes.map((change) => (
        <li key={change.field}>{auditChangeText(change)}</li>
      ))}
    </Box>
  );
}

/** The trail's columns: when, who, what, on which record, the changes in words; the address and hash on demand. */
export function useAuditColumns(): GridColDef<AuditEntry>[] {
  return useMemo<GridColDef<AuditEntry>[]>(
    () => [
      { field: 'at', headerName: 'When', width: 215, valueFormatter: (value: string) => formatDateTimeSeconds(value) },
      { field: 'actor', headerName: 'Who', width: 170, valueGetter: (_value, row) => auditActorText(row.actor) },
      { field: 'action', headerName: 'Action', width: 190, valueFormatter: (value: string) => auditActionLabel(value) },
      { field: 'entity', headerName: 'Record', minWidth: 200, flex: 1, valueGetter: (_value, row) => row.entity.label },
      { field: 'serviceCode', headerName: 'Service code', width: 115, valueFormatter: (value: string | null) => value ?? '' },
      { field: 'changes', headerName: 'Changes', minWidth: 260, flex: 2, sortable: false, renderCell: ({ row }) => <Changes entry={row} /> },
      { field: 'reason', headerName: 'Reason', width: 170, valueFormatter: (value: string | null) => value ?? '' },
      { field: 'ip', headerName: 'Address', width: 130, valueFormatter: (value: string | null) => value ?? '' },
      { field: 'hash', headerName: 'Hash', width: 160, valueFormatter: (value: string) => `${value.slice(0, 12)}…` },
    ],
    [],
  );
}

/** Shown until the person chooses otherwise under 'Manage columns'. */
export const AUDIT_DEFAULT_COLUMNS = { ip: false, hash: false };
