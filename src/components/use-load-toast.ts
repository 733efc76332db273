import { useCallback, useEffect, useEffectEvent, useRef } from 'react';
import { useSnackbar, type SnackbarKey, type VariantType } from 'notistack';
import type { ReactNode } from 'react';

/** What a toast may carry besides its text: a control (given the toast's close) and a longer stay. */
export interface ToastExtras {
  action?: (close: () => void) => ReactNode;
  toastMs?: number;
}

/**
 * Toasts with a control on screen (Resolve's Undo). A list's 'loaded' toast would push one off a
 * screen that holds one or two toasts, taking the control with it, so it is not raised meanwhile.
 */
const heldToasts = new Set<SnackbarKey>();

/**
 * A toast slot: each toast it raises replaces the one it raised before, if still on screen, so a
 * list's repeated load toasts or a run of Resolve clicks do not pile up.
 */
export function useToastSlot(): (message: string, variant: VariantType, extras?: ToastExtras) => void {
  const { enqueueSnackbar, closeSnackbar } = useSnackbar();
  const shown = useRef<SnackbarKey | null>(null);
  // A screen that goes away holds nothing back any more (its toasts' own close may never come).
  useEffect(() => () => {
    if (shown.current !== null) heldToasts.delete(shown.current);
  }, []);
  return useCallback(
    (message: string, variant: VariantType, { action, toastMs }: ToastExtras = {}) => {
      if (shown.current !== null) {
        heldToasts.delete(shown.current);
        closeSnackbar(shown.current);
      }
      const key = enqueueSnackbar(message, {
        variant,
        ...(toastMs ? { toastMs } : {}),
        ...(action ? { action: (snackbar: SnackbarKey) => action(() => closeSnackbar(snackbar)), onClose: (_event, _reason, closed) => heldToasts.delete(closed ?? key) } : {}),
      });
      shown.current = key;
      if (action) heldToasts.add(key);
    },
    [enqueueSnackbar, closeSnackbar],
  );
}

/** What the toast reads of an RTK Query result. */
export interface LoadState {
  requestId?: string;
  isFetching: boolean;
  isError?: boolean;
}

/**
 * SPEC §8: each finished load raises 'Unexpected error' when it failed, and says what it loaded
 * when `successText` is given: the list's name ('Categories'), 'Transactions for {date}' and so on.
 * A list's next load replaces its toast on screen. A function is asked when the load ends (for a
 * screen that keeps its dialog's state apart, so that opening it does not render the screen again).
 */
export function useLoadToast({ requestId, isFetching, isError }: LoadState, successText?: string | (() => string | undefined)) {
  const toastSlot = useToastSlot();
  // The text is read when a request ends, not a reason to toast again.
  const toast = useEffectEvent((failed: boolean) => {
    const text = typeof successText === 'function' ? successText() : successText;
    if (failed) toastSlot('Unexpected error', 'error');
    else if (text && heldToasts.size === 0) toastSlot(text, 'success');
  });
  useEffect(() => {
    if (requestId && !isFetching) toast(Boolean(isError));
  }, [requestId, isFetching, isError]);
}
