import Button from '@mui/material/Button';
import DownloadIcon from '@mui/icons-material/Download';
import { useSnackbar } from 'notistack';
import { useExportTransactionsCsvMutation, type CsvExportQuery } from '../../api/transactions-api';
import { saveFile } from '../save-file';

/** Downloads the whole filtered set as CSV (not just the page on screen); `filter.path` picks another export. */
export function ExportCsvButton({ filter }: { filter: CsvExportQuery }) {
  const [exportCsv, { isLoading }] = useExportTransactionsCsvMutation();
  const { enqueueSnackbar } = useSnackbar();
  const onExport = async () => {
    try {
      const { csv, fileName } = await exportCsv(filter).unwrap();
      saveFile(new Blob([csv], { type: 'text/csv' }), fileName);
    } catch {
      enqueueSnackbar('Unexpected error', { variant: 'error' });
    }
  };
  return (
    <Button variant="outlined" startIcon={<DownloadIcon />} onClick={onExport} disabled={isLoading}>
      Export CSV
    </Button>
  );
}
