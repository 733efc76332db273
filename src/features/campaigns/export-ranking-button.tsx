import Button from '@mui/material/Button';
import DownloadIcon from '@mui/icons-material/Download';
import { useSnackbar } from 'notistack';
import { useExportRankingMutation } from '../../api/campaigns-api';
import { saveFile } from '../../components/save-file';
import type { CampaignKey, RankingRound } from '../../domain/campaigns';

/** DESIGN §5: the whole ranking as CSV, through the re-auth base query like every call. */
export function ExportRankingButton({ campaignKey, round }: { campaignKey: CampaignKey; round: RankingRound }) {
  const { enqueueSnackbar } = useSnackbar();
  const [exportRanking, { isLoading, reset }] = useExportRankingMutation();
  const onExport = async () => {
    try {
      const { csv, fileName } = await exportRanking({ key: campaignKey, round }).unwrap();
      saveFile(new Blob([csv], { type: 'text/csv' }), fileName);
    } catch {
      enqueueSnackbar('Unexpected error', { variant: 'error' });
    } finally {
      // The file is saved; the store need not keep its text.
      reset();
    }
  };
  return (
    <Button variant="outlined" startIcon={<DownloadIcon />} onClick={onExport} disabled={isLoading}>
      Export CSV
    </Button>
  );
}
