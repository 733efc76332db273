import { useCallback, useState } from 'react';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import RefreshIcon from '@mui/icons-material/Refresh';
import { closeSnackbar } from 'notistack';
import { useGetCampaignResultsQuery, useGetRankingQuery } from '../../api/campaigns-api';
import type { VoteRow } from '../../domain/entities';
import type { CampaignDescriptor, CampaignScreen } from './campaign-descriptors';
import { ExportRankingButton } from './export-ranking-button';
import { RankingTable } from './ranking-table';
import { TeamResults } from './team-results';
import { usePagedGrid } from '../../components/use-paged-grid';
import { useLoadToast } from '../../components/use-load-toast';
import { useCampaignServiceCode } from './use-campaign';
import { VotesDialog } from './votes-dialog';

/** DESIGN §5: the 'Live' switch refreshes every 10 seconds, skipped while the tab is hidden. */
const LIVE_MS = 10_000;

export interface RankingScreenProps {
  campaign: CampaignDescriptor;
  screen: Extract<CampaignScreen, { kind: 'ranking' }>;
}

/** SPEC §2 ranking by number of votes, with DESIGN §5's team chart, Live switch and CSV export. */
export default function RankingScreen({ campaign, screen }: RankingScreenProps) {
  const list = usePagedGrid({ filters: {}, pageSize: 50 });
  const [live, setLive] = useState(false);
  const [voter, setVoter] = useState<VoteRow | null>(null);
  const code = useCampaignServiceCode(campaign.key);
  const polling = { pollingInterval: live ? LIVE_MS : 0, skipPollingIfUnfocused: true };
  const ranking = useGetRankingQuery({ call: screen.call, serviceCode: code.serviceCode ?? '', page: list.page, limit: list.pageSize }, { ...polling, skip: !code.serviceCode });
  const results = useGetCampaignResultsQuery({ key: campaign.key, round: screen.round }, polling);
  const isError = ranking.isError || code.isError;
  // A live ranking does not toast its success every 10 seconds, nor over an open voter's dialog.
  useLoadToast({ requestId: ranking.requestId, isFetching: ranking.isFetching, isError }, live || voter ? undefined : 'User ranking by votes');
  const onViewMore = useCallback((row: VoteRow) => {
    // A toast at the top would cover the dialog's title.
    closeSnackbar();
    setVoter(row);
  }, []);
  const refresh = () => {
    void ranking.refetch();
    void results.refetch();
  };
  return (
    <>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {screen.title}
      </Typography>
      <Stack direction="row" spacing={2} useFlexGap sx={{ mb: 2, alignItems: 'center', flexWrap: 'wrap' }}>
        <TextField size="small" label="Service code" value={code.serviceCode ?? ''} disabled sx={{ width: 160 }} />
        <Button variant="outlined" startIcon={<RefreshIcon />} onClick={refresh} disabled={ranking.isFetching || !code.serviceCode}>
          Refresh
        </Button>
        <ExportRankingButton campaignKey={campaign.key} round={screen.round} />
        <FormControlLabel control={<Switch checked={live} onChange={(e) => setLive(e.target.checked)} />} label="Live" />
      </Stack>
      <TeamResults results={results.isError ? undefined : results.data} isError={results.isError} />
      <RankingTable label={screen.title} grid={list.gridProps({ ...ranking, isError })} onViewMore={onViewMore} />
      {voter && <VotesDialog campaignKey={campaign.key} round={screen.round} voter={voter} onClose={() => setVoter(null)} />}
    </>
  );
}
