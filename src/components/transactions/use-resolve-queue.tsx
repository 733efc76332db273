import { Suspense, useCallback, useMemo, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { GridColDef } from '@mui/x-data-grid';
import type { Resolution, ResolveRequest } from '../../api/transactions-api';
import type { Transaction } from '../../domain/entities';
import { isOpenFailedCall } from '../../domain/transaction-status';
import { lazyNamed } from '../lazy-import';
import { visuallyHidden } from '../visually-hidden';
import { QueueShortcutsDialog } from './queue-shortcuts-dialog';
import { outcomeSummary, withResolveOutcomes } from './resolve-outcomes';
import { callText, useBulkResolve } from './use-bulk-resolve';
import { useQueueFocus } from './use-queue-focus';
import { useQueueKeys } from './use-queue-keys';

export interface ResolveQueueOptions {
  /** Off on the lists that are not a queue (a campaign's transactions and search): no keys, no checkboxes. */
  enabled: boolean;
  /** The page's rows, in the order shown. */
  rows: Transaction[];
  /** Resolves one call (useResolve over the list's own mutation); true when the server did. */
  resolveOne: (request: ResolveRequest) => Promise<boolean>;
  /** The list's bulk call; the regular one when left out. */
  bulkPath?: string;
  /** Opens a call's Details drawer (useTransactionDetails). */
  showDetails: (row: Transaction) => void;
  /** The list's columns, to which the outcomes of a Resolve selected are added. */
  columns: GridColDef<Transaction>[];
}

// The dialog's form (formik, yup) comes when the queue is first used, not with the list: the list
// shows as soon as it would without the queue, and a click racing the screen's arrival finds it there.
const loadResolveDialog = () => import(/* webpackChunkName: "resolve-dialog" */ './resolve-dialog');
const ResolveDialog = lazyNamed(loadResolveDialog, 'ResolveDialog');
const fetchResolveDialog = () => void loadResolveDialog();

type DialogState = { kind: 'one'; row: Transaction } | { kind: 'many'; ids: string[] } | { kind: 'shortcuts' } | null;

/** The ids of `rows` when they are not the ones of the last render (another page, day or code); else null. */
function useReplacedRows(rows: Transaction[]): ReadonlySet<string> | null {
  const shownIds = rows.map((row) => row._id).join();
  const [idsSeen, setIdsSeen] = useState(shownIds);
  if (idsSeen === shownIds) return null;
  setIdsSeen(shownIds);
  return new Set(rows.map((row) => row._id));
}

/**
 * The support agent's queue on the Failed lists, one implementation for the regular and the
 * campaign ones: the keys move a focus between rows and resolve the focused call through the
 * reason-and-note dialog, moving on to the next open one (useQueueKeys, useQueueFocus); checkboxes
 * pick several calls for 'Resolve selected', whose outcome per call shows beside its Resolved until
 * the next change (useBulkResolve).
 */
export function useResolveQueue({ enabled, rows, resolveOne, bulkPath, showDetails, columns }: ResolveQueueOptions) {
  const [announcement, setAnnouncement] = useState('');
  const [dialog, setDialog] = useState<DialogState>(null);
  // Kept apart from the dialog's state: the title stays while the dialog fades out.
  const [resolveTitle, setResolveTitle] = useState('Resolve');
  // Drawn from its first opening on, so that it can fade out; its code is fetched once the queue is used.
  const [dialogUsed, setDialogUsed] = useState(false);
  const askToResolve = useCallback((target: { row: Transaction } | { ids: string[] }) => {
    setDialogUsed(true);
    if ('row' in target) {
      setDialog({ kind: 'one', row: target.row });
      setResolveTitle(`Resolve ${callText(target.row)}`);
    } else {
      setDialog({ kind: 'many', ids: target.ids });
      setResolveTitle(`Resolve ${target.ids.length} ${target.ids.length === 1 ? 'call' : 'calls'}`);
    }
  }, []);

  const focus = useQueueFocus(rows, setAnnouncement);
  const bulk = useBulkResolve({ bulkPath, onPick: fetchResolveDialog, announce: setAnnouncement });
  const replaced = useReplacedRows(rows);
  if (replaced) {
    focus.keepShown(replaced);
    bulk.keepShown(replaced);
  }

  const { focusedRow } = focus;
  useQueueKeys(enabled && dialog === null, {
    next: () => {
      fetchResolveDialog();
      focus.step(1);
    },
    previous: () => {
      fetchResolveDialog();
      focus.step(-1);
    },
    resolve: () => {
      if (!focusedRow) setAnnouncement('Press j to choose a call first');
      else if (!isOpenFailedCall(focusedRow)) setAnnouncement(`The call from ${focusedRow.phoneNumber} is already resolved`);
      else askToResolve({ row: focusedRow });
    },
    details: () => focusedRow && showDetails(focusedRow),
    shortcuts: () => setDialog({ kind: 'shortcuts' }),
  });

  const close = useCallback(() => setDialog(null), []);
  const { clearOutcomes, resolveSelected } = bulk;
  const { moveOnFrom } = focus;
  const confirm = useCallback(
    async (resolving: DialogState, resolution: Resolution) => {
      if (resolving?.kind === 'many') return resolveSelected(resolving.ids, resolution);
      if (resolving?.kind !== 'one') return false;
      clearOutcomes();
      const done = await resolveOne({ id: resolving.row._id, ...resolution });
      if (done) moveOnFrom(resolving.row);
      return done;
    },
    [resolveSelected, clearOutcomes, resolveOne, moveOnFrom],
  );

  const { outcomes, selectedIds } = bulk;
  const columnsWithOutcomes = useMemo(() => (outcomes ? withResolveOutcomes(columns, outcomes) : columns), [outcomes, columns]);
  const summary = outcomes ? outcomeSummary(outcomes) : null;
  const resolving = dialog?.kind === 'one' || dialog?.kind === 'many' ? dialog : null;

  // Beside Refresh (ServiceCodeDayFilters' children): no line of its own above the rows, which keeps 20 rows in view at 1440×900.
  const toolbar: ReactNode = enabled ? (
    <>
      <Button variant="contained" disabled={selectedIds.length === 0} onClick={() => askToResolve({ ids: selectedIds })} sx={{ whiteSpace: 'nowrap' }}>
        {`Resolve selected (${selectedIds.length})`}
      </Button>
      {/* Keys are for a keyboard: a phone's screen keeps its room for the calls. */}
      <Button onClick={() => setDialog({ kind: 'shortcuts' })} aria-keyshortcuts="?" sx={{ display: { xs: 'none', md: 'inline-flex' }, whiteSpace: 'nowrap' }}>
        Keyboard shortcuts (?)
      </Button>
    </>
  ) : null;

  const pieces: ReactNode = enabled ? (
    <>
      {summary && (
        <Alert severity={summary.severity} onClose={clearOutcomes} sx={{ mb: 1, py: 0 }}>
          {summary.text}
        </Alert>
      )}
      <Box role="status" aria-live="polite" sx={visuallyHidden}>
        {announcement}
      </Box>
      {dialogUsed && (
        <Suspense fallback={null}>
          <ResolveDialog open={resolving !== null} title={resolveTitle} onClose={close} onConfirm={(resolution) => confirm(resolving, resolution)} />
        </Suspense>
      )}
      <QueueShortcutsDialog open={dialog?.kind === 'shortcuts'} onClose={close} />
    </>
  ) : null;

  return {
    /** Resolve selected (n) and the shortcuts' button, for the filters' line. */
    toolbar,
    /** Beside the grid: the outcome summary, the live announcement and the dialogs. */
    pieces,
    /** The list's columns, with the outcomes of the last Resolve selected. */
    columns: columnsWithOutcomes,
    /** PagedGrid's props: the focused row and the checkboxes. */
    gridProps: enabled ? { focusedRowId: focus.focusedId, selection: bulk.selection } : {},
  };
}
