import type { Theme } from '@mui/material/styles';

/**
 * Where toasts stand, one rule for the page shown before the app loads (its toast host) and for
 * notistack's container in the app (TOAST_PROVIDER_PROPS), so the two cannot drift: below the
 * top bar, never over it or the phone's menu button; on a wide screen at the right,
 * where no control sits under it (the settings strip's toggles and the filters start at the
 * left), on a phone across the screen under the header.
 */
export const TOAST_STACK_CLASS = 'toast-stack';

/** The shell's top bar: a dense MUI Toolbar, 48 px at every width. */
export const TOP_BAR_HEIGHT = 48;
/** Between the top bar and the first toast, between two toasts, and from the screen's edge. */
export const TOAST_GAP = 8;
const EDGE = 16;

/** The class rules behind TOAST_STACK_CLASS, for the theme's global styles (CssBaseline). */
export function toastStackStyles(theme: Theme) {
  // The class twice: notistack's own container rules (one class each) lose whatever their order.
  const stack = `.${TOAST_STACK_CLASS}.${TOAST_STACK_CLASS}`;
  return {
    [stack]: {
      position: 'fixed',
      zIndex: theme.zIndex.snackbar,
      top: TOP_BAR_HEIGHT + TOAST_GAP,
      right: EDGE,
      bottom: 'auto',
      left: 'auto',
      transform: 'none',
      width: 'auto',
      maxWidth: `calc(100% - ${EDGE * 2}px)`,
      maxHeight: 'none',
      display: 'flex',
      flexDirection: 'column',
      alignItems: 'flex-end',
      // The stack takes no clicks; its toasts do (notistack's wrappers and the host's toast set their own).
      pointerEvents: 'none',
      '& > *': { pointerEvents: 'all' },
      // notistack pads each toast 6 px above and below: the first stands at the stack's top, as
      // the host's one toast does, and the gap follows each (collapsing with it when it leaves).
      '& .notistack-CollapseWrapper': { padding: `0 0 ${TOAST_GAP}px` },
      [theme.breakpoints.down('sm')]: { left: EDGE, alignItems: 'stretch', maxWidth: 'none' },
    },
  };
}
