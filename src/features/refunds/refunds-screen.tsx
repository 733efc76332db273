import { useCallback, useEffect, useMemo, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import MenuItem from '@mui/material/MenuItem';
import Pagination from '@mui/material/Pagination';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useApproveRefundMutation, useExportRefundsCsvMutation, useGetRefundsQuery, useRejectRefundMutation } from '../../api/refunds-api';
import { CsvDownloadButton } from '../../components/csv-download-button';
import { FormDialog } from '../../components/form-dialog';
import { FormTextField } from '../../components/form-fields';
import { ListSpinner } from '../../components/list-spinner';
import { QueueShortcutsDialog } from '../../components/transactions/queue-shortcuts-dialog';
import { useQueueKeys } from '../../components/transactions/use-queue-keys';
import { useUrlFilters } from '../../components/use-url-filters';
import { serverMessage, useSubmit } from '../../components/use-submit';
import { visuallyHidden } from '../../components/visually-hidden';
import { formatDateTime, formatMoney } from '../../domain/format';
import { choiceFilter } from '../../domain/list-view';
import { REFUND_NOTE_MAX, REFUND_STATE_COLOR, REFUND_STATE_LABELS, REFUND_STATES, refundReasonLabel, type Refund, type RefundState } from '../../domain/refunds';
import { refundRejectSchema } from '../../domain/schemas/refunds';
import { isManager } from '../../domain/roles';
import { useAppSelector } from '../../state/hooks';
import { selectSessionUser } from '../../state/session-slice';

const PAGE_SIZE = 20;

/** The state filter: every state ('' , the queue's own order) or one. */
const FILTERS = { state: choiceFilter<'' | RefundState>(['', ...REFUND_STATES], '') };

/** The queue's keys, as '?' lists them. */
const REFUND_SHORTCUTS = [
  { keys: ['j'], action: 'Next refund' },
  { keys: ['k'], action: 'Previous refund' },
  { keys: ['a'], action: 'Approve the refund' },
  { keys: ['x'], action: 'Reject the refund, with a reason' },
  { keys: ['?'], action: 'Show these shortcuts' },
] as const;

/** Whether the signed-in person may decide on this refund: a manager, on a request not their own. */
const mayDecide = (refund: Refund, user: { id: string; role: string } | null | undefined) =>
  refund.state === 'requested' && isManager(user?.role) && refund.requestedBy?._id !== user?.id;

function RefundCard({
  refund,
  focused,
  decides,
  onApprove,
  onReject,
  busy,
}: {
  refund: Refund;
  focused: boolean;
  decides: boolean;
  onApprove: () => void;
  onReject: () => void;
  busy: boolean;
}) {
  const who = [refund.requestedBy?.userName && `Requested by ${refund.requestedBy.userName}`, formatDateTime(refund.createdAt)].filter(Boolean).join(' · ');
  const decided = refund.decidedBy && `${refund.state === 'rejected' ? 'Rejected' : 'Approved'} by ${refund.decidedBy.userName}${refund.decisionReason ? `: ${refund.decisionReason}` : ''}`;
  return (
    <Paper
      component="li"
      variant="outlined"
      data-id={refund._id}
      aria-current={focused ? 'true' : undefined}
      sx={{ p: 1.5, listStyle: 'none', outline: focused ? 2 : 0, outlineColor: 'primary.main', outlineOffset: -1 }}
    >
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 1, sm: 2 }} sx={{ alignItems: { sm: 'center' } }}>
        <Box sx={{ minWidth: 0, flexGrow: 1 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
            <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
              UGX {formatMoney(refund.amount)}
            </Typography>
            <Typography variant="body2">
              {refund.phoneNumber} · {refund.serviceCode}
            </Typography>
            <Chip size="small" color={REFUND_STATE_COLOR[refund.state]} variant={refund.state === 'rejected' ? 'outlined' : 'filled'} label={REFUND_STATE_LABELS[refund.state]} />
          </Stack>
          <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
            {refundReasonLabel(refund.reason)}
            {refund.note ? ` — ${refund.note}` : ''}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {who}
          </Typography>
          {decided && (
            <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
              {decided}
            </Typography>
          )}
          {refund.failureReason && (
            <Typography variant="body2" color="error">
              {refund.failureReason}
            </Typography>
          )}
        </Box>
        {decides && (
          <Stack direction="row" spacing={1} sx={{ flexShrink: 0 }}>
            <Button size="small" variant="contained" onClick={onApprove} disabled={busy} aria-keyshortcuts="a">
              Approve
            </Button>
            <Button size="small" variant="outlined" color="error" onClick={onReject} disabled={busy} aria-keyshortcuts="x">
              Reject
            </Button>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * Refunds: the queue, awaiting approval first, then in flight, then done; live (the stream's
 * `event: refund` reads it again). A manager approves or rejects (with a reason) a request that is
 * not their own, by button or from the keyboard as on Failed: j/k move, a approves, x rejects, ? lists
 * the keys. The state filter and page are in the URL.
 */
export default function RefundsScreen() {
  const user = useAppSelector(selectSessionUser);
  const { filters, page, setFilters, setPage } = useUrlFilters({ filters: FILTERS });
  const list = useGetRefundsQuery({ page, limit: PAGE_SIZE, ...(filters.state ? { state: filters.state } : {}) });
  const rows = useMemo(() => list.data?.docs ?? [], [list.data]);
  const [approveRefund, approving] = useApproveRefundMutation();
  const [rejectRefund] = useRejectRefundMutation();
  const [exportCsv] = useExportRefundsCsvMutation();
  const submit = useSubmit({ replacePrevious: true });
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const [rejecting, setRejecting] = useState<Refund | null>(null);
  const [shortcuts, setShortcuts] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const manager = isManager(user?.role);

  const focused = rows.find((row) => row._id === focusedId);
  const focus = useCallback(
    (row: Refund, index: number, count: number) => {
      setFocusedId(row._id);
      setAnnouncement(`Refund ${index + 1} of ${count}: UGX ${formatMoney(row.amount)} to ${row.phoneNumber}, ${REFUND_STATE_LABELS[row.state]}`);
    },
    [setFocusedId],
  );
  useEffect(() => {
    if (!focusedId) return;
    document.querySelector(`[data-id="${CSS.escape(focusedId)}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [focusedId]);

  const step = (by: 1 | -1) => {
    if (rows.length === 0) return;
    const index = rows.findIndex((row) => row._id === focusedId);
    const next = index < 0 ? 0 : Math.min(rows.length - 1, Math.max(0, index + by));
    focus(rows[next], next, rows.length);
  };

  const approve = (refund: Refund) =>
    submit(() => approveRefund(refund._id).unwrap(), {
      success: ({ refund: now }) => `Refund approved: ${REFUND_STATE_LABELS[now.state].toLowerCase()}`,
      failure: serverMessage,
    });

  const refuseKey = (refund: Refund | undefined) => {
    if (!refund) setAnnouncement('Move to a refund first (j, k)');
    else if (!mayDecide(refund, user)) setAnnouncement(refund.state === 'requested' ? 'You cannot decide on a refund you requested' : 'This refund is not awaiting approval');
    else return false;
    return true;
  };

  useQueueKeys(rejecting === null && !shortcuts, {
    next: () => step(1),
    previous: () => step(-1),
    shortcuts: () => setShortcuts(true),
    more: manager
      ? {
          a: () => {
            if (!refuseKey(focused) && focused) void approve(focused);
          },
          x: () => {
            if (!refuseKey(focused) && focused) setRejecting(focused);
          },
        }
      : undefined,
  });

  return (
    <>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ mb: 2, alignItems: { sm: 'center' } }}>
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
          Refunds
        </Typography>
        <TextField
          select
          size="small"
          label="State"
          value={filters.state}
          onChange={(event) => setFilters({ state: event.target.value as '' | RefundState })}
          sx={{ minWidth: 220 }}
          id="refund-state-filter"
          slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
        >
          <MenuItem value="">All, awaiting approval first</MenuItem>
          {REFUND_STATES.map((state) => (
            <MenuItem key={state} value={state}>
              {REFUND_STATE_LABELS[state]}
            </MenuItem>
          ))}
        </TextField>
        <CsvDownloadButton download={() => exportCsv(filters.state ? { state: filters.state } : {}).unwrap()} />
        <Button onClick={() => setShortcuts(true)} aria-keyshortcuts="?" sx={{ display: { xs: 'none', md: 'inline-flex' }, whiteSpace: 'nowrap' }}>
          Keyboard shortcuts (?)
        </Button>
      </Stack>
      <Box role="status" aria-live="polite" sx={visuallyHidden}>
        {announcement}
      </Box>
      {list.isError && <Typography color="error">Unexpected error</Typography>}
      {list.isLoading && <ListSpinner sx={{ py: 3 }} />}
      {list.data && rows.length === 0 && <Typography color="text.secondary">No refunds{filters.state ? ` ${REFUND_STATE_LABELS[filters.state].toLowerCase()}` : ''}.</Typography>}
      {rows.length > 0 && (
        <Stack component="ol" aria-label="Refunds, awaiting approval first" spacing={1} sx={{ m: 0, p: 0, opacity: list.isFetching ? 0.7 : 1 }} aria-busy={list.isFetching}>
          {rows.map((refund) => (
            <RefundCard
              key={refund._id}
              refund={refund}
              focused={refund._id === focusedId}
              decides={mayDecide(refund, user)}
              busy={approving.isLoading}
              onApprove={() => void approve(refund)}
              onReject={() => setRejecting(refund)}
            />
          ))}
        </Stack>
      )}
      {(list.data?.pages ?? 1) > 1 && (
        <Pagination aria-label="Refund pages" count={list.data?.pages ?? 1} page={page} onChange={(_event, next) => setPage(next)} siblingCount={0} sx={{ display: 'flex', justifyContent: 'center', mt: 2 }} />
      )}
      <FormDialog
        open={rejecting !== null}
        onClose={() => setRejecting(null)}
        title={rejecting ? `Reject UGX ${formatMoney(rejecting.amount)} to ${rejecting.phoneNumber}` : 'Reject'}
        schema={refundRejectSchema}
        initialValues={{ reason: '' }}
        submitLabel="Reject"
        onSubmit={async ({ reason }, helpers) =>
          rejecting ? submit(() => rejectRefund({ id: rejecting._id, reason: reason.trim() }).unwrap(), { success: 'Refund rejected', failure: serverMessage, helpers }) : false
        }
      >
        <FormTextField name="reason" label="Reason" autoFocus helperText={`Why, in one line of at most ${REFUND_NOTE_MAX} characters`} slotProps={{ htmlInput: { maxLength: REFUND_NOTE_MAX } }} />
      </FormDialog>
      <QueueShortcutsDialog open={shortcuts} onClose={() => setShortcuts(false)} shortcuts={REFUND_SHORTCUTS} />
    </>
  );
}
