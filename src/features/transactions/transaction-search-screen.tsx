import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useSearchTransactionsQuery } from '../../api/transactions-api';
import { PagedGrid } from '../../components/paged-grid';
import { useTransactionColumns } from '../../components/transactions/transaction-columns';
import { usePagedGrid } from '../../components/use-paged-grid';
import { useLoadToast } from '../../components/use-load-toast';

/** SPEC §2 Transaction search: one caller's calls, newest first, with the ticket to copy. */
export default function TransactionSearchScreen() {
  const [input, setInput] = useState('');
  const list = usePagedGrid({ filters: { phoneNumber: '' }, pageSize: 50 });
  const { phoneNumber } = list.filters;
  const query = useSearchTransactionsQuery(list.args, { skip: !phoneNumber });
  useLoadToast(query, 'Transactions');
  const columns = useTransactionColumns('search');
  const grid = list.gridProps(query);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    list.setFilters({ phoneNumber: input.trim() });
    if (input.trim() === phoneNumber && phoneNumber) query.refetch();
  };
  return (
    <>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        Transaction search
      </Typography>
      <Stack component="form" direction="row" spacing={2} sx={{ mb: 2 }} onSubmit={onSubmit}>
        <TextField size="small" label="Phone number" value={input} onChange={(e) => setInput(e.target.value)} />
        <Button type="submit" variant="contained" disabled={!input.trim()}>
          Search
        </Button>
      </Stack>
      <Alert severity="info" sx={{ mb: 2 }}>
        <strong>Processed</strong> means successful, <strong>Pending</strong> means not yet confirmed, <strong>Failed</strong> means failed
        and no money was deducted.
      </Alert>
      <PagedGrid label="Search results" columns={columns} gridKey="transaction-search" {...(phoneNumber ? grid : { ...grid, rows: [], rowCount: 0 })} />
    </>
  );
}
