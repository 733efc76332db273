import { useCallback, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import RefreshIcon from '@mui/icons-material/Refresh';
import ReportProblemOutlinedIcon from '@mui/icons-material/ReportProblemOutlined';
import { closeSnackbar } from 'notistack';
import { useGetCampaignResultsQuery, useGetRankingQuery } from '../../api/campaigns-api';
import { ALL_ROUNDS, campaignScreenPath } from '../../domain/campaigns';
import type { VoteRow } from '../../domain/entities';
import { choiceFilter, type ViewFilter } from '../../domain/list-view';
import type { CampaignDescriptor, CampaignScreen } from './campaign-descriptors';
import { ExportRankingButton } from './export-ranking-button';
import { RankingTable } from './ranking-table';
import { TeamResults } from './team-results';
import { usePagedGrid } from '../../components/use-paged-grid';
import { useLoadToast } from '../../components/use-load-toast';
import { useCampaignServiceCode } from './use-campaign';
import { VotesDialog, type VotesDialogProps } from './votes-dialog';

/** DESIGN §5: the 'Live' switch refreshes every 10 seconds, skipped while the tab is hidden. */
const LIVE_MS = 10_000;

/** 'Flagged only' in the URL: `flagged=true`, left out when off. */
const flaggedFilter: ViewFilter<boolean> = { initial: false, parse: (text) => (text === 'true' ? true : undefined), format: String };

type OpenVoter = (row: VoteRow) => void;

/**
 * A voter's votes over the ranking (View more). The open voter is this component's state, not the
 * screen's, so that opening and closing the dialog re-render neither the ranking's 50 rows nor its chart.
 */
function VoterVotes({ openerRef, isOpenRef, campaignKey, round }: Pick<VotesDialogProps, 'campaignKey' | 'round'> & { openerRef: RefObject<OpenVoter | null>; isOpenRef: RefObject<boolean> }) {
  const [voter, setVoter] = useState<VoteRow | null>(null);
  useLayoutEffect(() => {
    openerRef.current = setVoter;
    isOpenRef.current = voter !== null;
  }, [openerRef, isOpenRef, voter]);
  return voter && <VotesDialog campaignKey={campaignKey} round={round} voter={voter} onClose={() => setVoter(null)} />;
}

export interface RankingScreenProps {
  campaign: CampaignDescriptor;
  screen: Extract<CampaignScreen, { kind: 'ranking' }>;
}

/**
 * SPEC §2 ranking by number of votes, with DESIGN §5's team chart, Live switch and CSV export, an
 * anomaly column and 'Flagged only' (vote integrity). A keyed campaign's one ranking screen chooses
 * its round (`?round=`, overall by default); SPEC's campaigns have a screen per round.
 */
export default function RankingScreen({ campaign, screen }: RankingScreenProps) {
  const rounds = campaign.rounds;
  const filters = useMemo(
    () => ({ flagged: flaggedFilter, round: rounds ? choiceFilter([ALL_ROUNDS, ...rounds.map((r) => r.key)], ALL_ROUNDS) : choiceFilter([screen.round], screen.round) }),
    [rounds, screen.round],
  );
  const list = usePagedGrid({ filters, pageSize: 50 });
  const { flagged, round } = list.filters;
  const roundName = round === ALL_ROUNDS ? 'Overall' : (rounds?.find((r) => r.key === round)?.label ?? round);
  const title = rounds ? `${campaign.name} ${roundName} Ranking` : screen.title;
  const [live, setLive] = useState(false);
  const openVoterRef = useRef<OpenVoter | null>(null);
  const voterOpenRef = useRef(false);
  const code = useCampaignServiceCode(campaign.key);
  const polling = { pollingInterval: live ? LIVE_MS : 0, skipPollingIfUnfocused: true };
  const ranking = useGetRankingQuery(
    { call: screen.call, serviceCode: code.serviceCode ?? '', page: list.page, limit: list.pageSize, ...(rounds ? { round } : {}), flagged },
    { ...polling, skip: !code.serviceCode },
  );
  const results = useGetCampaignResultsQuery({ key: campaign.key, round }, polling);
  const isError = ranking.isError || code.isError;
  // A live ranking does not toast its success every 10 seconds, nor over an open voter's dialog.
  useLoadToast({ requestId: ranking.requestId, isFetching: ranking.isFetching, isError }, live ? undefined : () => (voterOpenRef.current ? undefined : 'User ranking by votes'));
  const onViewMore = useCallback((row: VoteRow) => {
    // A toast at the top would cover the dialog's title.
    closeSnackbar();
    openVoterRef.current?.(row);
  }, []);
  const refresh = () => {
    void ranking.refetch();
    void results.refetch();
  };
  const suspicious = `${campaignScreenPath(campaign.key, 'suspicious')}${round === ALL_ROUNDS ? '' : `?round=${encodeURIComponent(round)}`}`;
  return (
    <>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {title}
      </Typography>
      <Stack direction="row" spacing={2} useFlexGap sx={{ mb: 2, alignItems: 'center', flexWrap: 'wrap' }}>
        <TextField size="small" label="Service code" value={code.serviceCode ?? ''} disabled sx={{ width: 160 }} />
        {rounds && (
          <TextField select size="small" label="Round" value={round} onChange={(e) => list.setFilters({ round: e.target.value })} sx={{ minWidth: 160 }}>
            <MenuItem value={ALL_ROUNDS}>Overall</MenuItem>
            {rounds.map((r) => (
              <MenuItem key={r.key} value={r.key}>
                {r.label}
              </MenuItem>
            ))}
          </TextField>
        )}
        <Button variant="outlined" startIcon={<RefreshIcon />} onClick={refresh} disabled={ranking.isFetching || !code.serviceCode}>
          Refresh
        </Button>
        <ExportRankingButton campaignKey={campaign.key} round={round} />
        <FormControlLabel control={<Switch checked={live} onChange={(e) => setLive(e.target.checked)} />} label="Live" />
        <FormControlLabel control={<Switch checked={flagged} onChange={(e) => list.setFilters({ flagged: e.target.checked })} />} label="Flagged only" />
        <Button component={RouterLink} to={suspicious} startIcon={<ReportProblemOutlinedIcon />}>
          Suspicious numbers
        </Button>
      </Stack>
      <TeamResults results={results.isError ? undefined : results.data} isError={results.isError} />
      <RankingTable label={title} grid={list.gridProps({ ...ranking, isError })} onViewMore={onViewMore} />
      <VoterVotes openerRef={openVoterRef} isOpenRef={voterOpenRef} campaignKey={campaign.key} round={round} />
    </>
  );
}
