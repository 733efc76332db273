import Typography from '@mui/material/Typography';

/** Placeholder until the Sms issue builds this screen. */
export default function SmsScreen() {
  return (
    <Typography variant="h5" component="h1">
      Sms
    </Typography>
  );
}
