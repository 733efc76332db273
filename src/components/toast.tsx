import { forwardRef } from 'react';
import { closeSnackbar, type CustomContentProps, type SnackbarProviderProps, type VariantType } from 'notistack';
import { TOAST_STACK_CLASS } from './toast-stack';
import { ToastView } from './toast-view';

/** notistack's content for every variant: our toast with its time bar, pause, click and swipe. */
declare module 'notistack' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the parameter must match notistack's own
  interface OptionsObject<V extends VariantType = VariantType> {
    /** How long the toast stays, when not SPEC's 5000 ms (ToastView's `durationMs`). */
    toastMs?: number;
  }
}

const NotistackToast = forwardRef<HTMLDivElement, CustomContentProps>(function NotistackToast({ id, message, variant, style, className, action, toastMs }, ref) {
  return (
    <ToastView
      ref={ref}
      message={message}
      variant={variant}
      style={style}
      className={className}
      messageId="notistack-snackbar"
      onClose={() => closeSnackbar(id)}
      action={typeof action === 'function' ? action(id) : action}
      durationMs={toastMs}
    />
  );
});

/** Two at most on a wide screen (notistack's default is three), one on a phone, where a second would cover the filters. */
export const MAX_TOASTS = { wide: 2, phone: 1 } as const;

/**
 * SPEC §8 toast settings for the SnackbarProvider: newest below the older ones (notistack's order
 * at the top). Where they stand is toast-stack.ts's rule, shared with the page shown before the
 * app loads: below the top bar, at the right (the anchor sets the side they slide in from). The
 * toast counts its own 5000 ms (ToastView), so notistack's timer, which restarts at
 * half time after a pause, is off.
 */
export const TOAST_PROVIDER_PROPS = {
  autoHideDuration: null,
  anchorOrigin: { vertical: 'top', horizontal: 'right' },
  classes: { containerRoot: TOAST_STACK_CLASS },
  Components: { default: NotistackToast, success: NotistackToast, error: NotistackToast, warning: NotistackToast, info: NotistackToast },
} satisfies Partial<SnackbarProviderProps>;
