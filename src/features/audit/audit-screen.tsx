import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import VerifiedUserOutlinedIcon from '@mui/icons-material/VerifiedUserOutlined';
import { useExportAuditCsvMutation, useGetAuditEntriesQuery, useVerifyAuditTrailMutation } from '../../api/audit-api';
import { CsvDownloadButton } from '../../components/csv-download-button';
import { PagedGrid } from '../../components/paged-grid';
import { useLoadToast } from '../../components/use-load-toast';
import { usePagedGrid } from '../../components/use-paged-grid';
import { formatCount } from '../../domain/format';
import type { AuditVerification } from '../../domain/audit';
import { AUDIT_DEFAULT_COLUMNS, useAuditColumns } from './audit-columns';
import { AUDIT_FILTERS, AuditFilters } from './audit-filters';

const PAGE_SIZE = 50;

/** What a check of the chain found, in words. */
function VerificationResult({ result }: { result: AuditVerification }) {
  if (result.ok) return <Alert severity="success">The trail is intact: {formatCount(result.entries)} entries, each chained to the one before.</Alert>;
  return (
    <Alert severity="error">
      The trail was altered outside the application: {result.firstBrokenId ? `entry ${result.firstBrokenId} no longer matches its hash.` : 'its newest entries are missing.'}
    </Alert>
  );
}

/**
 * The audit trail (admins and super-users): every staff action, newest first, with its changes in
 * words, filtered by who, what, which record, service code and days (kept in the URL); its CSV
 * (itself recorded) and a check of the hash chain.
 */
export default function AuditScreen() {
  const list = usePagedGrid({ filters: AUDIT_FILTERS, pageSize: PAGE_SIZE });
  const query = useGetAuditEntriesQuery(list.args, { refetchOnMountOrArgChange: true });
  // Errors only: a toast at every filter change would cover the buttons of a screen one filters often.
  useLoadToast(query);
  const columns = useAuditColumns();
  const [exportCsv] = useExportAuditCsvMutation();
  const [verify, verification] = useVerifyAuditTrailMutation();

  return (
    <Stack spacing={2}>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}>
        <Typography variant="h5" component="h1">
          Audit trail
        </Typography>
        <Stack direction="row" spacing={1.5}>
          <Button variant="outlined" startIcon={<VerifiedUserOutlinedIcon />} onClick={() => void verify()} disabled={verification.isLoading}>
            Verify chain
          </Button>
          <CsvDownloadButton download={() => exportCsv(list.filters).unwrap()} />
        </Stack>
      </Stack>
      {verification.data && <VerificationResult result={verification.data} />}
      {verification.isError && <Alert severity="error">The check could not be run, please try again.</Alert>}
      <AuditFilters filters={list.filters} onChange={list.setFilters} />
      <PagedGrid
        columns={columns}
        {...list.gridProps(query)}
        gridKey="audit"
        label="Audit entries, newest first"
        numberHeader={null}
        defaultColumnVisibility={AUDIT_DEFAULT_COLUMNS}
        card={{ title: 'action', aside: ['at'] }}
      />
    </Stack>
  );
}
