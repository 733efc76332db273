import { useState } from 'react';
import Button from '@mui/material/Button';
import DownloadIcon from '@mui/icons-material/Download';
import { useSnackbar } from 'notistack';
import { useStore } from 'react-redux';
import { fetchTransactionsCsv, type TransactionFilter } from '../../api/transactions-api';
import type { AppDispatch } from '../../app/store';
import { saveFile } from './save-file';

/** Downloads the whole filtered set as CSV (not just the page on screen). */
export function ExportCsvButton({ filter }: { filter: TransactionFilter }) {
  const store = useStore();
  const { enqueueSnackbar } = useSnackbar();
  const [busy, setBusy] = useState(false);
  const onExport = async () => {
    setBusy(true);
    try {
      const { blob, fileName } = await fetchTransactionsCsv(filter, { dispatch: store.dispatch as AppDispatch, getState: store.getState });
      saveFile(blob, fileName);
    } catch {
      enqueueSnackbar('Unexpected error', { variant: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="outlined" startIcon={<DownloadIcon />} onClick={onExport} disabled={busy}>
      Export CSV
    </Button>
  );
}
