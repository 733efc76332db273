import { useState } from 'react';
import Button from '@mui/material/Button';
import DownloadIcon from '@mui/icons-material/Download';
import type { CsvFile } from '../api/csv-file';
import { saveFile } from './save-file';
import { useSubmit } from './use-submit';

/** 'Export CSV': fetches a whole list as CSV through the API (`download`) and hands it to the browser to save. */
export function CsvDownloadButton({ download, disabled = false }: { download: () => Promise<CsvFile>; disabled?: boolean }) {
  const [busy, setBusy] = useState(false);
  const submit = useSubmit();
  const onExport = async () => {
    setBusy(true);
    const save = async () => {
      const { csv, fileName } = await download();
      saveFile(new Blob([csv], { type: 'text/csv' }), fileName);
    };
    await submit(save, { success: null, failure: 'Unexpected error' });
    setBusy(false);
  };
  return (
    <Button variant="outlined" startIcon={<DownloadIcon />} onClick={onExport} disabled={disabled || busy}>
      Export CSV
    </Button>
  );
}
