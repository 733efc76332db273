import { useExportRankingMutation } from '../../api/campaigns-api';
import { CsvDownloadButton } from '../../components/csv-download-button';
import type { RankingRound } from '../../domain/campaigns';

/** DESIGN §5: the whole ranking as CSV, through the re-auth base query like every call. */
export function ExportRankingButton({ campaignKey, round }: { campaignKey: string; round: RankingRound }) {
  const [exportRanking, { reset }] = useExportRankingMutation();
  // Once the file is handed over, the store need not keep its text.
  return <CsvDownloadButton download={() => exportRanking({ key: campaignKey, round }).unwrap().finally(reset)} />;
}
