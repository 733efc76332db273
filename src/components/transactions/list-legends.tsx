import Alert from '@mui/material/Alert';

/** SPEC §2 Failed transactions: what Resolved Yes and No mean. */
export function FailedTransactionsLegend() {
  return (
    <Alert severity="info" sx={{ mb: 2 }}>
      Clients with failed transactions are engaged to help them succeed. Resolved <strong>Yes</strong> means the client was engaged and
      helped; <strong>No</strong> means the client is still to be engaged.
    </Alert>
  );
}

/** SPEC §2 Transaction search: what each status means. */
export function SearchStatusLegend() {
  return (
    <Alert severity="info" sx={{ mb: 2 }}>
      <strong>Processed</strong> means successful, <strong>Pending</strong> means not yet confirmed, <strong>Failed</strong> means failed
      and no money was deducted.
    </Alert>
  );
}
