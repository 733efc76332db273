import { Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import type { GridColDef, GridRowId } from '@mui/x-data-grid';
import { useHotkeys } from 'react-hotkeys-hook';
import { useResolveTransactionsMutation, type Resolution, type ResolveRequest } from '../../api/transactions-api';
import type { Transaction } from '../../domain/entities';
import { BULK_RESOLVE_MAX, type BulkResolveOutcome } from '../../domain/resolution';
import { awaitsResolve, transactionStatus } from '../../domain/transaction-status';
import { CellChip, type CellColor } from '../cell-controls';
import type { RowSelection } from '../paged-view';
import { useToastSlot } from '../use-load-toast';
import { visuallyHidden } from '../visually-hidden';
import { QueueShortcutsDialog } from './queue-shortcuts-dialog';
import { lazyNamed } from '../lazy-import';

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
// shows as soon as before (issue 11), and a click racing the screen's arrival finds it there.
const loadResolveDialog = () => import(/* webpackChunkName: "resolve-dialog" */ './resolve-dialog');
const ResolveDialog = lazyNamed(loadResolveDialog, 'ResolveDialog');

type Outcomes = ReadonlyMap<string, BulkResolveOutcome>;

const OUTCOME_CHIPS: Record<BulkResolveOutcome, { label: string; color: CellColor }> = {
  resolved: { label: 'Resolved', color: 'success' },
  'already-resolved': { label: 'Already resolved', color: 'info' },
  refused: { label: 'Refused', color: 'error' },
};

/** A call the queue can still resolve: failed and not resolved. */
export const isOpenFailedCall = (row: Transaction) => awaitsResolve(transactionStatus(row), row.isResolved);

/**
 * Keys are the queue's only where nobody is typing and no dialog, drawer or menu is open: a text
 * field, a select or a modal keeps its own keys. A checkbox (the grid's selection) does not.
 */
function keysBelongElsewhere(event: KeyboardEvent): boolean {
  const target = event.target;
  if (!(target instanceof HTMLElement)) return false;
  if (target.closest('[role="dialog"], [aria-modal="true"], .MuiModal-root, [role="menu"], [role="listbox"]')) return true;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type);
  return ['combobox', 'textbox', 'searchbox', 'spinbutton'].includes(target.getAttribute('role') ?? '');
}

/** Enter opens Details only when it would not press a control (a button, a link, a checkbox). */
const enterBelongsElsewhere = (event: KeyboardEvent) =>
  keysBelongElsewhere(event) ||
  (event.target instanceof HTMLElement && event.target.closest('button, a[href], input, [role="button"], [role="checkbox"], [role="link"], [role="tab"]') !== null);

const callText = (row: Transaction) => `the call from ${row.phoneNumber}`;

/** The first open failed call after `index`, or else the nearest before it. */
function nextOpenCall(rows: Transaction[], index: number, skip: string): Transaction | undefined {
  const open = (row: Transaction) => row._id !== skip && isOpenFailedCall(row);
  return rows.slice(index + 1).find(open) ?? rows.slice(0, Math.max(index, 0)).reverse().find(open);
}

function outcomeSummary(outcomes: Outcomes): { text: string; severity: 'success' | 'warning' } {
  const counts = { resolved: 0, 'already-resolved': 0, refused: 0 };
  for (const outcome of outcomes.values()) counts[outcome] += 1;
  const parts = [
    `${counts.resolved} resolved`,
    counts['already-resolved'] > 0 ? `${counts['already-resolved']} already resolved` : '',
    counts.refused > 0 ? `${counts.refused} refused (not failed, or not yours to resolve)` : '',
  ].filter(Boolean);
  return { text: `Resolve selected: ${parts.join(', ')}.`, severity: counts.refused > 0 ? 'warning' : 'success' };
}

type DialogState = { kind: 'one'; row: Transaction } | { kind: 'many'; ids: string[] } | { kind: 'shortcuts' } | null;

/**
 * The support agent's queue on the Failed lists (issue 23), one implementation for the regular
 * and the campaign ones: `j`/`k` move a focus between rows (outlined, aria-current, announced),
 * `r` resolves the focused call through the reason-and-note dialog and moves on to the next open
 * one, `o` or Enter opens its Details, `?` lists the keys. Checkboxes pick several calls for
 * 'Resolve selected', whose outcome per call shows beside its Resolved until the next change.
 */
export function useResolveQueue({ enabled, rows, resolveOne, bulkPath, showDetails, columns }: ResolveQueueOptions) {
  const [focusedId, setFocusedId] = useState<string | null>(null);
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
  const [selected, setSelected] = useState<GridRowId[]>([]);
  const [outcomes, setOutcomes] = useState<Outcomes | null>(null);
  const [resolveMany] = useResolveTransactionsMutation();
  const toastSlot = useToastSlot();
  // The confirm of a dialog opened before the rows were read again reads them as they are now.
  const rowsNow = useRef(rows);
  useEffect(() => {
    rowsNow.current = rows;
  }, [rows]);

  // Another page, day or code: the focus, the selection and the outcomes were of rows no longer shown.
  const shownIds = rows.map((row) => row._id).join();
  const [idsSeen, setIdsSeen] = useState(shownIds);
  if (idsSeen !== shownIds) {
    setIdsSeen(shownIds);
    const stillShown = new Set(rows.map((row) => row._id));
    if (focusedId && !stillShown.has(focusedId)) setFocusedId(null);
    setSelected((ids) => ids.filter((id) => stillShown.has(String(id))));
    setOutcomes(null);
  }

  const focusRow = useCallback((row: Transaction | undefined) => {
    if (!row) return;
    const list = rowsNow.current;
    const index = list.findIndex((candidate) => candidate._id === row._id);
    void loadResolveDialog();
    setFocusedId(row._id);
    setAnnouncement(`Call ${index + 1} of ${list.length}: from ${row.phoneNumber}, ${row.isResolved ? 'resolved' : 'not resolved'}`);
  }, []);

  useEffect(() => {
    if (!focusedId) return;
    const element = document.querySelector(`[data-id="${CSS.escape(focusedId)}"]`);
    // jsdom draws no layout and has no scrollIntoView.
    element?.scrollIntoView?.({ block: 'nearest' });
  }, [focusedId]);

  const focusedRow = rows.find((row) => row._id === focusedId);
  const keys = { enabled: enabled && dialog === null, enableOnFormTags: true, ignoreEventWhen: keysBelongElsewhere, preventDefault: true };
  const step = (by: 1 | -1) => {
    if (rows.length === 0) return;
    const index = rows.findIndex((row) => row._id === focusedId);
    focusRow(rows[index < 0 ? 0 : Math.min(rows.length - 1, Math.max(0, index + by))]);
  };
  useHotkeys('j', () => step(1), keys, [rows, focusedId, focusRow]);
  useHotkeys('k', () => step(-1), keys, [rows, focusedId, focusRow]);
  useHotkeys(
    'r',
    () => {
      if (!focusedRow) setAnnouncement('Press j to choose a call first');
      else if (!isOpenFailedCall(focusedRow)) setAnnouncement(`The call from ${focusedRow.phoneNumber} is already resolved`);
      else askToResolve({ row: focusedRow });
    },
    keys,
    [focusedRow, askToResolve],
  );
  useHotkeys('o', () => focusedRow && showDetails(focusedRow), keys, [focusedRow, showDetails]);
  useHotkeys('enter', () => focusedRow && showDetails(focusedRow), { ...keys, ignoreEventWhen: enterBelongsElsewhere, preventDefault: false }, [focusedRow, showDetails]);
  // The key '?' wherever the layout puts it (Shift and / on most, not all), so Shift is not asked for.
  useHotkeys('?', () => setDialog({ kind: 'shortcuts' }), { ...keys, useKey: true, ignoreModifiers: true });

  const close = useCallback(() => setDialog(null), []);
  const confirmOne = useCallback(
    async (row: Transaction, resolution: Resolution) => {
      setOutcomes(null);
      const done = await resolveOne({ id: row._id, ...resolution });
      if (done) {
        const list = rowsNow.current;
        const next = nextOpenCall(list, list.findIndex((candidate) => candidate._id === row._id), row._id);
        if (next) focusRow(next);
        else setAnnouncement('No call left to resolve on this page');
      }
      return done;
    },
    [resolveOne, focusRow],
  );
  const confirmMany = useCallback(
    async (ids: string[], resolution: Resolution) => {
      try {
        const results = await resolveMany({ ids, path: bulkPath, ...resolution }).unwrap();
        const answered = new Map(results.map(({ _id, outcome }) => [_id.toLowerCase(), outcome]));
        const byRow = new Map(ids.map((id) => [id, answered.get(id.toLowerCase()) ?? ('refused' as const)]));
        setOutcomes(byRow);
        setSelected([]);
        setAnnouncement(outcomeSummary(byRow).text);
        return true;
      } catch {
        toastSlot('Unexpected error', 'error');
        return false;
      }
    },
    [resolveMany, bulkPath, toastSlot],
  );

  const selection = useMemo<RowSelection<Transaction>>(
    () => ({
      ids: selected,
      onChange: (ids) => {
        void loadResolveDialog();
        setOutcomes(null);
        setSelected(ids.slice(0, BULK_RESOLVE_MAX));
      },
      isSelectable: isOpenFailedCall,
      label: (row) => `Select ${callText(row)}`,
    }),
    [selected],
  );

  // Each call's outcome beside its Resolved, once a Resolve selected has answered.
  const columnsWithOutcomes = useMemo(
    () => {
      if (!outcomes) return columns;
      return columns.map((column) => {
        if (column.field !== 'isResolved') return column;
        const renderResolved = column.renderCell;
        return {
          ...column,
          minWidth: 170,
          renderCell: (params: Parameters<NonNullable<GridColDef<Transaction>['renderCell']>>[0]) => {
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
    },
    [outcomes, columns],
  );

  const summary = outcomes ? outcomeSummary(outcomes) : null;
  const resolving = dialog?.kind === 'one' || dialog?.kind === 'many' ? dialog : null;
  const selectedIds = selected.map(String);
  // Beside Refresh (ServiceCodeDayFilters' children): no line of its own above the rows (issue 24: 20 rows at 1440×900).
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
        <Alert severity={summary.severity} onClose={() => setOutcomes(null)} sx={{ mb: 1, py: 0 }}>
          {summary.text}
        </Alert>
      )}
      <Box role="status" aria-live="polite" sx={visuallyHidden}>
        {announcement}
      </Box>
      {dialogUsed && (
        <Suspense fallback={null}>
          <ResolveDialog
            open={resolving !== null}
            title={resolveTitle}
            onClose={close}
            onConfirm={(resolution) => {
              if (resolving?.kind === 'one') return confirmOne(resolving.row, resolution);
              if (resolving?.kind === 'many') return confirmMany(resolving.ids, resolution);
              return Promise.resolve(false);
            }}
          />
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
    gridProps: enabled ? { focusedRowId: focusedId, selection } : {},
  };
}
