import { useState } from 'react';
import Button from '@mui/material/Button';
import DownloadIcon from '@mui/icons-material/Download';
import { useSnackbar } from 'notistack';
import type { CsvFile } from '../api/csv-file';
import { saveFile } from './save-file';

/** 'Export CSV': fetches a whole list as CSV through the API (`download`) and hands it to the browser to save. */
export function CsvDownloadButton({ download, disabled = false }: { download: () => Promise<CsvFile>; disabled?: boolean }) {
  const [busy, setBusy] = useState(false);
  const { enqueueSnackbar } = useSnackbar();
  const onExport = async () => {
    setBusy(true);
    try {
      const { csv, fileName } = await download();
      saveFile(new Blob([csv], { type: 'text/csv' }), fileName);
    } catch {
      enqueueSnackbar('Unexpected error', { variant: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="outlined" startIcon={<DownloadIcon />} onClick={onExport} disabled={disabled || busy}>
      Export CSV
    </Button>
  );
}
