import Typography from '@mui/material/Typography';

/** Placeholder until the Transactions issue builds this screen. */
export default function TransactionsScreen() {
  return (
    <Typography variant="h5" component="h1">
      Transactions
    </Typography>
  );
}
