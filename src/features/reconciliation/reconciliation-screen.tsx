import { useCallback, useMemo, useState } from 'react';
import { skipToken } from '@reduxjs/toolkit/query/react';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { GridRowId } from '@mui/x-data-grid';
import { useExportStatementCsvMutation, useGetStatementQuery, useGetStatementsQuery } from '../../api/reconciliation-api';
import { CsvDownloadButton } from '../../components/csv-download-button';
import { PagedGrid } from '../../components/paged-grid';
import type { RowSelection } from '../../components/paged-view';
import { useRowRefund } from '../../components/transactions/refund-dialog';
import { TransactionDetailsDrawer } from '../../components/transactions/transaction-details-drawer';
import { usePagedGrid } from '../../components/use-paged-grid';
import { idFilter, choiceFilter } from '../../domain/list-view';
import { byPeriodNewestFirst, canMarkReviewed, RECONCILIATION_KIND_HELP, RECONCILIATION_KIND_LABELS, RECONCILIATION_KINDS, type ReconciliationRow, type ReconciliationStatement } from '../../domain/reconciliation';
import { readsEveryCode } from '../../domain/roles';
import { useAppSelector } from '../../state/hooks';
import { selectSessionUser } from '../../state/session-slice';
import { IssueTicketDialog, ReviewRowDialog, ReviewRowsDialog } from './row-dialogs';
import { StatementCounts } from './statement-counts';
import { useStatementColumns } from './statement-columns';
import { StatementHeader } from './statement-header';
import { StatementUpload } from './statement-upload';
import { VoidStatementDialog } from './void-statement-dialog';

const SHOWN = ['standing', 'voided'] as const;

/**
 * Reconciliation (DESIGN §7): finance uploads the payment provider's statement; its lines are
 * matched to the calls and counted per kind; the rows of a kind are listed with what can be done:
 * 'Issue ticket' (or 'Refund', the money back instead) for a customer who paid and got nothing, 'Mark reviewed' (one row, or the selected
 * ones with one note) for every exception.
 * A statement uploaded by mistake is voided with a reason; the voided ones are listed apart.
 */
export default function ReconciliationScreen() {
  // '' is the newest statement of the list shown.
  const list = usePagedGrid({ filters: { shown: choiceFilter(SHOWN, 'standing'), statement: idFilter(), kind: choiceFilter(RECONCILIATION_KINDS, 'paidNoTicket') }, pageSize: 50 });
  const voidedShown = list.filters.shown === 'voided';
  const statements = useGetStatementsQuery({ page: 1, limit: 100, voided: voidedShown });
  const offered = useMemo(() => byPeriodNewestFirst(statements.data?.docs ?? []), [statements.data]);
  const statementId = list.filters.statement || offered[0]?._id || '';
  const query = useGetStatementQuery(statementId ? { id: statementId, kind: list.filters.kind, page: list.page, limit: list.pageSize } : skipToken);
  const statement = statementId && !query.isError ? query.data : undefined;
  const [exportCsv] = useExportStatementCsvMutation();

  const [issuing, setIssuing] = useState<ReconciliationRow | null>(null);
  const [reviewing, setReviewing] = useState<ReconciliationRow | null>(null);
  const [voiding, setVoiding] = useState<ReconciliationStatement | null>(null);
  const [detailsOf, setDetailsOf] = useState<string | null>(null);
  const [picked, setPicked] = useState<{ view: string; ids: GridRowId[] }>({ view: '', ids: [] });
  const [reviewingSelected, setReviewingSelected] = useState(false);
  const canAct = Boolean(statement && !statement.voidedAt);
  // Customer care and the managers may ask for money back (the API refuses anyone else).
  const mayRefund = readsEveryCode(useAppSelector(selectSessionUser)?.role);
  const { onRefund, dialog: refundDialog } = useRowRefund();
  const onRefundRow = useCallback((row: ReconciliationRow) => row.transaction && onRefund(row.transaction), [onRefund]);
  // A selection belongs to the rows shown: another statement, kind or page starts afresh.
  const view = `${statementId}|${list.filters.kind}|${list.page}`;
  const selected = picked.view === view ? picked.ids : [];
  const setSelected = (ids: GridRowId[]) => setPicked({ view, ids });
  const selectedRows = (statement?.rows.docs ?? []).filter((row) => selected.includes(row._id));
  const selection: RowSelection<ReconciliationRow> = {
    ids: selected,
    onChange: setSelected,
    isSelectable: (row) => canAct && canMarkReviewed(row),
    label: (row) => `Select the row of reference ${row.reference}`,
  };
  const columns = useStatementColumns({
    canAct,
    onIssueTicket: setIssuing,
    onRefund: mayRefund ? onRefundRow : undefined,
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
      {statements.data && statements.data.docs.length === 0 && !statementId && (
        <Typography color="text.secondary">{voidedShown ? 'No statement was voided.' : 'No statement uploaded yet.'}</Typography>
      )}
      {statements.data && (
        <StatementHeader
          statements={offered}
          voidedShown={voidedShown}
          onVoidedShown={(shown) => list.setFilters({ shown: shown ? 'voided' : 'standing', statement: '' })}
          statementId={statementId}
          onStatement={(id) => list.setFilters({ statement: id })}
          statement={statement}
          onVoid={setVoiding}
        />
      )}
      {statementId && (
        <>
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
            <Stack direction="row" spacing={1} sx={{ flexShrink: 0 }}>
              {canAct && list.filters.kind !== 'matched' && (
                <Button variant="contained" disabled={selectedRows.length === 0} onClick={() => setReviewingSelected(true)}>
                  {selectedRows.length > 0 ? `Review ${selectedRows.length} selected` : 'Review selected'}
                </Button>
              )}
              <CsvDownloadButton download={() => exportCsv({ id: statementId, kind: list.filters.kind }).unwrap()} />
            </Stack>
          </Stack>
          <PagedGrid
            label={`${RECONCILIATION_KIND_LABELS[list.filters.kind]} rows`}
            columns={columns}
            gridKey="reconciliation-rows"
            numberHeader={null}
            {...grid}
            selection={canAct && list.filters.kind !== 'matched' ? selection : undefined}
          />
          <ReviewRowsDialog statementId={statementId} rows={selectedRows} open={reviewingSelected} onClose={() => setReviewingSelected(false)} onReviewed={() => setSelected([])} />
          <IssueTicketDialog statementId={statementId} row={issuing} onClose={() => setIssuing(null)} />
          {refundDialog}
          <ReviewRowDialog statementId={statementId} row={reviewing} onClose={() => setReviewing(null)} />
          <VoidStatementDialog statement={voiding} onClose={() => setVoiding(null)} onVoided={(id) => list.setFilters({ shown: 'voided', statement: id })} />
          <TransactionDetailsDrawer transaction={shown} onClose={() => setDetailsOf(null)} canResend onResent={() => undefined} />
        </>
      )}
    </>
  );
}
