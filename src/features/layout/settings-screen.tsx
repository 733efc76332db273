import Typography from '@mui/material/Typography';

export default function SettingsScreen() {
  return (
    <Typography variant="h5" component="h1">
      Settings
    </Typography>
  );
}
