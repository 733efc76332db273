import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useGetAuditEntriesQuery } from '../api/audit-api';
import { auditActionLabel, auditActorText, auditChangeText, type AuditEntityType, type AuditEntry } from '../domain/audit';
import { formatDateTimeSeconds } from '../domain/format';
import { isManager } from '../domain/roles';
import { useAppSelector } from '../state/hooks';
import { selectSessionUser } from '../state/session-slice';
import type { DialogTab } from './form-dialog';
import { ListSpinner } from './list-spinner';

/** The newest entries a History tab shows; the whole trail is on /audit. */
const HISTORY_LIMIT = 50;

/** One entry: what, who and when on a line, then each change in words and the reason. */
export function AuditEntryItem({ entry }: { entry: AuditEntry }) {
  return (
    <Box component="li" sx={{ py: 1, borderBottom: 1, borderColor: 'divider', '&:last-of-type': { borderBottom: 0 } }}>
      <Typography variant="body2" sx={{ fontWeight: 600 }}>
        {auditActionLabel(entry.action)}
        <Typography component="span" variant="body2" color="text.secondary">
          {` · ${auditActorText(entry.actor)} · ${formatDateTimeSeconds(entry.at)}`}
        </Typography>
      </Typography>
      {entry.changes.length > 0 && (
        <Box component="ul" sx={{ m: 0, pl: 2.5 }}>
          {entry.changes.map((change) => (
            <Typography component="li" variant="body2" key={change.field}>
              {auditChangeText(change)}
            </Typography>
          ))}
        </Box>
      )}
      {entry.reason && (
        <Typography variant="body2" color="text.secondary">
          Reason: {entry.reason}
        </Typography>
      )}
    </Box>
  );
}

/** A record's audit entries, newest first, read afresh each time it is shown. */
export function AuditHistory({ entityType, entityId }: { entityType: AuditEntityType; entityId: string }) {
  const query = useGetAuditEntriesQuery({ page: 1, limit: HISTORY_LIMIT, entityType, entityId }, { refetchOnMountOrArgChange: true });
  const entries = query.data?.docs ?? [];
  if (query.isLoading) return <ListSpinner sx={{ py: 3 }} />;
  if (query.isError) return <Typography color="error">Unexpected error</Typography>;
  if (entries.length === 0) return <Typography color="text.secondary">No changes recorded yet.</Typography>;
  return (
    <Box component="ol" aria-label="History, newest first" aria-busy={query.isFetching} sx={{ listStyle: 'none', m: 0, p: 0 }}>
      {entries.map((entry) => (
        <AuditEntryItem key={entry._id} entry={entry} />
      ))}
    </Box>
  );
}

/**
 * The 'History' tab of a record's edit dialog, for admins and super-users (who may read the audit
 * trail); none for anyone else.
 */
export function useHistoryTab(entityType: AuditEntityType, entityId: string): DialogTab[] {
  const user = useAppSelector(selectSessionUser);
  return isManager(user?.role) ? [{ label: 'History', content: <AuditHistory entityType={entityType} entityId={entityId} /> }] : [];
}
