import Alert from '@mui/material/Alert';

// A line, not a banner: it sits above a list whose rows are counted per screen.
const LEGEND = { mb: 2, py: 0, '& .MuiAlert-icon, & .MuiAlert-message': { py: 0.5 } } as const;

/** SPEC §2 Failed transactions: what Resolved Yes and No mean. */
export function FailedTransactionsLegend() {
  return (
    <Alert severity="info" sx={LEGEND}>
      Clients with failed transactions are engaged to help them succeed. Resolved <strong>Yes</strong> means the client was engaged and
      helped; <strong>No</strong> means the client is still to be engaged.
    </Alert>
  );
}

/** SPEC §2 Transaction search: what each status means. */
export function SearchStatusLegend() {
  return (
    <Alert severity="info" sx={LEGEND}>
      <strong>Processed</strong> means successful, <strong>Pending</strong> means not yet confirmed, <strong>Failed</strong> means failed
      and no money was deducted.
    </Alert>
  );
}
