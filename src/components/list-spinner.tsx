import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import type { SxProps, Theme } from '@mui/material/styles';

/**
 * A list's loading spinner, centred in its box (the cards, the grid's placeholder, the grid's
 * overlay). `hidden` leaves it out of the accessibility tree where the list around it says it is
 * busy (aria-busy): axe flags a progressbar without a name inside the grid.
 */
export function ListSpinner({ hidden = false, sx = [] }: { hidden?: boolean; sx?: SxProps<Theme> }) {
  return (
    <Box aria-hidden={hidden || undefined} sx={[{ display: 'flex', alignItems: 'center', justifyContent: 'center' }, ...(Array.isArray(sx) ? sx : [sx])]}>
      <CircularProgress size={32} aria-label={hidden ? undefined : 'Loading'} />
    </Box>
  );
}
