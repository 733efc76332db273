import Typography from '@mui/material/Typography';

/** Placeholder until the Transaction search issue builds this screen. */
export default function TransactionSearchScreen() {
  return (
    <Typography variant="h5" component="h1">
      Transaction search
    </Typography>
  );
}
