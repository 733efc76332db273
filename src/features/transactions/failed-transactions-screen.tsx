import Typography from '@mui/material/Typography';

/** Placeholder until the Failed transactions issue builds this screen. */
export default function FailedTransactionsScreen() {
  return (
    <Typography variant="h5" component="h1">
      Failed transactions
    </Typography>
  );
}
