import { useExportTransactionsCsvMutation, type CsvExportQuery } from '../../api/transactions-api';
import { CsvDownloadButton } from '../csv-download-button';

/** Downloads the whole filtered set as CSV (not just the page on screen); `filter.path` picks another export. */
export function ExportCsvButton({ filter }: { filter: CsvExportQuery }) {
  const [exportCsv] = useExportTransactionsCsvMutation();
  return <CsvDownloadButton download={() => exportCsv(filter).unwrap()} />;
}
