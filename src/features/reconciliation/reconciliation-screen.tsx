import { useCallback, useState } from 'react';
import { skipToken } from '@reduxjs/toolkit/query/react';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useExportStatementCsvMutation, useGetStatementQuery, useGetStatementsQuery } from '../../api/reconciliation-api';
import { CsvDownloadButton } from '../../components/csv-download-button';
import { PagedGrid } from '../../components/paged-grid';
import { TransactionDetailsDrawer } from '../../components/transactions/transaction-details-drawer';
import { usePagedGrid } from '../../components/use-paged-grid';
import { formatDateTime, formatMoney } from '../../domain/format';
import { idFilter, choiceFilter } from '../../domain/list-view';
import { RECONCILIATION_KIND_HELP, RECONCILIATION_KIND_LABELS, RECONCILIATION_KINDS, type ReconciliationRow, type ReconciliationStatement } from '../../domain/reconciliation';
import { IssueTicketDialog, ReviewRowDialog } from './row-dialogs';
import { StatementCounts } from './statement-counts';
import { useStatementColumns } from './statement-columns';
import { StatementUpload } from './statement-upload';

const statementName = (statement: ReconciliationStatement) => `${statement.fileName ?? 'Statement'} · uploaded ${formatDateTime(statement.createdAt)}`;

/** Upload, period and author of a statement in one line. */
function statementFacts(statement: ReconciliationStatement) {
  const by = statement.uploadedBy ? ` by ${statement.uploadedBy.userName}` : '';
  return `${formatMoney(statement.lines)} lines from ${formatDateTime(statement.periodFrom)} to ${formatDateTime(statement.periodTo)} · uploaded${by} on ${formatDateTime(statement.createdAt)}`;
}

/**
 * Reconciliation (DESIGN §7): finance uploads the payment provider's statement; its lines are
 * matched to the calls and counted per kind; the rows of a kind are listed with what can be done:
 * 'Issue ticket' for a customer who paid and got nothing, 'Mark reviewed' for a ticket without money.
 */
export default function ReconciliationScreen() {
  const statements = useGetStatementsQuery({ page: 1, limit: 100 });
  // '' is the newest statement.
  const list = usePagedGrid({ filters: { statement: idFilter(), kind: choiceFilter(RECONCILIATION_KINDS, 'paidNoTicket') }, pageSize: 50 });
  const statementId = list.filters.statement || statements.data?.docs[0]?._id || '';
  const query = useGetStatementQuery(statementId ? { id: statementId, kind: list.filters.kind, page: list.page, limit: list.pageSize } : skipToken);
  const statement = query.isError ? undefined : query.data;
  const [exportCsv] = useExportStatementCsvMutation();

  const [issuing, setIssuing] = useState<ReconciliationRow | null>(null);
  const [reviewing, setReviewing] = useState<ReconciliationRow | null>(null);
  const [detailsOf, setDetailsOf] = useState<string | null>(null);
  const columns = useStatementColumns({
    onIssueTicket: setIssuing,
    onReview: setReviewing,
    onDetails: useCallback((row: ReconciliationRow) => setDetailsOf(row._id), []),
  });
  const grid = list.gridProps({ data: statement?.rows, isFetching: query.isFetching, isError: query.isError });
  // The drawer shows the call as the latest answer has it, so it changes once a ticket is issued.
  const shown = statement?.rows.docs.find((row) => row._id === detailsOf)?.transaction ?? null;

  return (
    <>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        Reconciliation
      </Typography>
      <StatementUpload onUploaded={(id) => list.setFilters({ statement: id })} />
      {statements.isError && <Typography color="error">Unexpected error</Typography>}
      {statements.data && statements.data.docs.length === 0 && <Typography color="text.secondary">No statement uploaded yet.</Typography>}
      {statementId && (
        <>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { md: 'center' } }}>
            <TextField
              select
              size="small"
              label="Statement"
              // The list may not have the newest upload yet: the field waits for it rather than show a value it lacks.
              value={statements.data?.docs.some((each) => each._id === statementId) ? statementId : ''}
              onChange={(event) => list.setFilters({ statement: event.target.value })}
              sx={{ minWidth: { md: 360 } }}
            >
              {(statements.data?.docs ?? []).map((each) => (
                <MenuItem key={each._id} value={each._id}>
                  {statementName(each)}
                </MenuItem>
              ))}
            </TextField>
            {statement && (
              <Typography variant="body2" color="text.secondary" sx={{ flexGrow: 1 }}>
                {statementFacts(statement)}
              </Typography>
            )}
          </Stack>
          <StatementCounts statement={statement} kind={list.filters.kind} onKind={(kind) => list.setFilters({ kind })} />
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 1, alignItems: { sm: 'center' }, justifyContent: 'space-between' }}>
            <div>
              <Typography variant="h6" component="h2">
                {RECONCILIATION_KIND_LABELS[list.filters.kind]}
              </Typography>
              <Typography variant="body2" color="text.secondary">
                {RECONCILIATION_KIND_HELP[list.filters.kind]}
              </Typography>
            </div>
            <CsvDownloadButton download={() => exportCsv({ id: statementId, kind: list.filters.kind }).unwrap()} />
          </Stack>
          <PagedGrid label={`${RECONCILIATION_KIND_LABELS[list.filters.kind]} rows`} columns={columns} gridKey="reconciliation-rows" numberHeader={null} {...grid} />
          <IssueTicketDialog statementId={statementId} row={issuing} onClose={() => setIssuing(null)} />
          <ReviewRowDialog statementId={statementId} row={reviewing} onClose={() => setReviewing(null)} />
          <TransactionDetailsDrawer transaction={shown} onClose={() => setDetailsOf(null)} canResend onResent={() => undefined} />
        </>
      )}
    </>
  );
}
