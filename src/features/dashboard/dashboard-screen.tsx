import Typography from '@mui/material/Typography';

/** Placeholder until the Dashboard issue builds this screen. */
export default function DashboardScreen() {
  return (
    <Typography variant="h5" component="h1">
      Dashboard
    </Typography>
  );
}
