import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import type { NewCalls } from './use-live-list';

/** The dense top bar's height, under which the chip stays in view while the page scrolls. */
const TOP_BAR_PX = 48;

/**
 * 'n new calls' at the top of a list: floats over the list's first rows and follows the
 * reader down the page, taking no room of its own, so nothing moves when it appears. Clicking it
 * goes to page 1, at the top, read again.
 */
export function NewCallsChip({ count, onShow }: NewCalls) {
  return (
    <Box
      role="status"
      sx={{ position: 'sticky', top: TOP_BAR_PX + 8, height: 0, zIndex: (theme) => theme.zIndex.appBar - 1, display: 'flex', justifyContent: 'center' }}
    >
      {count > 0 && (
        <Chip
          color="primary"
          icon={<ArrowUpwardIcon />}
          label={`${count} new ${count === 1 ? 'call' : 'calls'}`}
          onClick={onShow}
          sx={{ mt: 1, boxShadow: 3 }}
        />
      )}
    </Box>
  );
}
