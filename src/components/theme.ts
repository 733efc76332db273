import { createTheme } from '@mui/material/styles';
import type { ColorMode } from '../state/ui-slice';
import { transitionsOn } from './motion';

/** No transition and no ripple: what the web tests render (src/components/motion.ts), the same screens without the animation timers. */
const STILL = {
  transitions: {
    create: () => 'none',
    getAutoHeightDuration: () => 0,
    duration: { shortest: 0, shorter: 0, short: 0, standard: 0, complex: 0, enteringScreen: 0, leavingScreen: 0 },
  },
  buttonBase: { MuiButtonBase: { defaultProps: { disableRipple: true } } },
};

/** A dense admin look; the colour mode comes from the ui slice. */
export function buildTheme(mode: ColorMode) {
  const still = !transitionsOn();
  return createTheme({
    ...(still ? { transitions: STILL.transitions } : {}),
    palette: { mode, primary: { main: '#1565c0' }, secondary: { main: '#2e7d32' } },
    shape: { borderRadius: 6 },
    typography: { fontSize: 13 },
    components: {
      MuiButton: { defaultProps: { disableElevation: true } },
      MuiTextField: { defaultProps: { size: 'small' } },
      ...(still ? STILL.buttonBase : {}),
    },
  });
}
