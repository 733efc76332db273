import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { GridDensity } from '@mui/x-data-grid';
import { useAppDispatch, useAppSelector } from '../state/hooks';
import { colorModeSet, densitySet, selectColorMode, selectDensity, type ColorMode } from '../state/ui-slice';

/** Colour mode and grid density; a strip in the shell's panel, a column on /settings. */
export function SettingsPanel({ orientation = 'column' }: { orientation?: 'row' | 'column' }) {
  const dispatch = useAppDispatch();
  const colorMode = useAppSelector(selectColorMode);
  const density = useAppSelector(selectDensity);
  const row = orientation === 'row';
  const setting = { spacing: row ? 1.5 : 0.5, direction: row ? 'row' : 'column', sx: { alignItems: row ? 'center' : 'stretch' } } as const;
  return (
    <Stack spacing={row ? 4 : 2} direction={row ? 'row' : 'column'} sx={{ flexWrap: 'wrap', alignItems: row ? 'center' : 'stretch' }}>
      {row && (
        // Not a heading: the panel sits above the page's h1, and the aside is named already.
        <Typography variant="subtitle2" component="span">
          Settings
        </Typography>
      )}
      <Stack {...setting}>
        <Typography variant="subtitle2" id="color-mode-label">
          Colour mode
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          value={colorMode}
          aria-labelledby="color-mode-label"
          onChange={(_event, value: ColorMode | null) => value && dispatch(colorModeSet(value))}
        >
          <ToggleButton value="light">Light</ToggleButton>
          <ToggleButton value="dark">Dark</ToggleButton>
        </ToggleButtonGroup>
      </Stack>
      <Stack {...setting}>
        <Typography variant="subtitle2" id="density-label">
          Table density
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          fullWidth={!row}
          sx={{ '& .MuiToggleButton-root': { px: 1, fontSize: '0.7rem' } }}
          value={density}
          aria-labelledby="density-label"
          onChange={(_event, value: GridDensity | null) => value && dispatch(densitySet(value))}
        >
          <ToggleButton value="compact">Compact</ToggleButton>
          <ToggleButton value="standard">Standard</ToggleButton>
          <ToggleButton value="comfortable">Comfortable</ToggleButton>
        </ToggleButtonGroup>
      </Stack>
    </Stack>
  );
}
