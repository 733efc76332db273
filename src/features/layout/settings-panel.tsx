import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import type { GridDensity } from '@mui/x-data-grid';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { colorModeSet, densitySet, selectColorMode, selectDensity, type ColorMode } from '../../app/ui-slice';

/** Colour mode and grid density; shown in the shell's panel and on /settings. */
export function SettingsPanel() {
  const dispatch = useAppDispatch();
  const colorMode = useAppSelector(selectColorMode);
  const density = useAppSelector(selectDensity);
  return (
    <Stack spacing={2}>
      <Stack spacing={0.5}>
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
      <Stack spacing={0.5}>
        <Typography variant="subtitle2" id="density-label">
          Table density
        </Typography>
        <ToggleButtonGroup
          size="small"
          exclusive
          fullWidth
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
