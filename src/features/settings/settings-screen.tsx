import FormControlLabel from '@mui/material/FormControlLabel';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useAppDispatch, useAppSelector } from '../../state/hooks';
import { selectSettingsVisible, settingsVisibilitySet } from '../../state/ui-slice';
import { SettingsPanel } from '../../components/settings-panel';

/** DESIGN §5: /settings holds colour mode, grid density and the settings panel switch. */
export default function SettingsScreen() {
  const dispatch = useAppDispatch();
  const visible = useAppSelector(selectSettingsVisible);
  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        Settings
      </Typography>
      <Paper variant="outlined" sx={{ p: 2, maxWidth: 520 }}>
        <SettingsPanel />
        <FormControlLabel
          sx={{ mt: 2 }}
          control={<Switch checked={visible} onChange={(event) => dispatch(settingsVisibilitySet(event.target.checked))} />}
          label="Show the settings panel beside every page"
        />
      </Paper>
    </Stack>
  );
}
