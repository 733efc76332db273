import Typography from '@mui/material/Typography';

/** Placeholder until the Service codes issue builds this screen. */
export default function ServiceCodesScreen() {
  return (
    <Typography variant="h5" component="h1">
      Service codes
    </Typography>
  );
}
