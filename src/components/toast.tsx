import { forwardRef } from 'react';
import { closeSnackbar, type CustomContentProps, type SnackbarProviderProps } from 'notistack';
import { ToastView } from './toast-view';

/** notistack's content for every variant: our toast with its time bar, pause, click and swipe. */
const NotistackToast = forwardRef<HTMLDivElement, CustomContentProps>(function NotistackToast({ id, message, variant, style, className }, ref) {
  return <ToastView ref={ref} message={message} variant={variant} style={style} className={className} messageId="notistack-snackbar" onClose={() => closeSnackbar(id)} />;
});

/**
 * SPEC §8 toast settings for the SnackbarProvider: top-center, newest below the older ones
 * (notistack's order at the top), at most three. The toast counts its own 5000 ms
 * (ToastView), so notistack's timer, which restarts at half time after a pause, is off.
 */
export const TOAST_PROVIDER_PROPS = {
  maxSnack: 3,
  autoHideDuration: null,
  anchorOrigin: { vertical: 'top', horizontal: 'center' },
  Components: { default: NotistackToast, success: NotistackToast, error: NotistackToast, warning: NotistackToast, info: NotistackToast },
} satisfies Partial<SnackbarProviderProps>;
