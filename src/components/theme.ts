import { createTheme, type PaletteOptions, type Theme } from '@mui/material/styles';
import type { ColorMode } from '../state/ui-slice';
import { transitionsOn } from './motion';
import { toastStackStyles } from './toast-stack';
import { voteTextStyles } from './transactions/vote-text';

/** No transition and no ripple: what the web tests render (src/components/motion.ts), the same screens without the animation timers. */
const STILL = {
  transitions: {
    create: () => 'none',
    getAutoHeightDuration: () => 0,
    duration: { shortest: 0, shorter: 0, short: 0, standard: 0, complex: 0, enteringScreen: 0, leavingScreen: 0 },
  },
  buttonBase: { MuiButtonBase: { defaultProps: { disableRipple: true } } },
};

/**
 * WCAG 2.1 AA (4.5:1) for the status colours in both modes (SPEC §4: processed green, failed
 * red, pending amber). In light mode each main colour reads at 4.5:1 or more both as text on
 * white and under white text (a chip, a toast); MUI's own amber (#ed6c02) and light blue
 * (#0288d1) do not, so amber-700 and a darker light blue stand in. Dark mode keeps MUI's light
 * tones, and `contrastThreshold: 4.5` makes their text dark where white would not reach AA.
 */
const STATUS_PALETTE: Record<ColorMode, PaletteOptions> = {
  light: {
    primary: { main: '#1565c0' },
    secondary: { main: '#2e7d32' },
    success: { main: '#2e7d32' },
    error: { main: '#d32f2f' },
    warning: { main: '#b45309' },
    info: { main: '#0277bd' },
  },
  dark: {
    primary: { main: '#90caf9' },
    secondary: { main: '#81c784' },
  },
};

/** A dense admin look; the colour mode comes from the ui slice. */
export function buildTheme(mode: ColorMode) {
  const still = !transitionsOn();
  return createTheme({
    ...(still ? { transitions: STILL.transitions } : {}),
    palette: { mode, contrastThreshold: 4.5, ...STATUS_PALETTE[mode] },
    shape: { borderRadius: 6 },
    typography: { fontSize: 13 },
    components: {
      // Where toasts stand (components/toast-stack.ts), one rule for the app and the page before it; the votes' pick and game (transactions/vote-text.ts).
      MuiCssBaseline: { styleOverrides: (theme) => ({ ...toastStackStyles(theme as Theme), ...voteTextStyles(theme as Theme) }) },
      MuiButton: { defaultProps: { disableElevation: true } },
      MuiTextField: { defaultProps: { size: 'small' } },
      ...(still ? STILL.buttonBase : {}),
    },
  });
}
