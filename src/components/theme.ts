import { createTheme } from '@mui/material/styles';
import type { ColorMode } from '../state/ui-slice';

/** A dense admin look; the colour mode comes from the ui slice. */
export function buildTheme(mode: ColorMode) {
  return createTheme({
    palette: { mode, primary: { main: '#1565c0' }, secondary: { main: '#2e7d32' } },
    shape: { borderRadius: 6 },
    typography: { fontSize: 13 },
    components: {
      MuiButton: { defaultProps: { disableElevation: true } },
      MuiTextField: { defaultProps: { size: 'small' } },
    },
  });
}
