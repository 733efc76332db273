import { Navigate, Link as RouterLink, useParams } from 'react-router-dom';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useGetCampaignsQuery } from '../../api/campaigns-api';
import { PageFallback } from '../../components/page-fallback';
import { ALL_ROUNDS, CAMPAIGNS, type CampaignScreenKind } from '../../domain/campaigns';
import { descriptorOf } from './campaign-descriptors';
import CampaignListScreen from './campaign-list-screen';
import RankingScreen from './ranking-screen';
import SuspiciousScreen from './suspicious-screen';

function UnknownCampaign() {
  return (
    <Box sx={{ py: 6, display: 'grid', justifyItems: 'center', gap: 1.5, textAlign: 'center' }}>
      <Typography variant="h5" component="h1">
        No campaign has this key
      </Typography>
      <Typography color="text.secondary">It may have been renamed, or the link mistyped.</Typography>
      <Button component={RouterLink} to="/campaigns" variant="contained" sx={{ mt: 1 }}>
        Go to All campaigns
      </Button>
    </Box>
  );
}

/**
 * A campaign's screen under `/campaigns/{key}/{kind}`, built from `GET /v1/campaigns`: the same
 * list, ranking and suspicious screens for every campaign. SPEC's two keep SPEC's paths, so their
 * lists and overall ranking here lead there; their suspicious numbers are shown here.
 */
export default function KeyedCampaignScreen({ kind }: { kind: CampaignScreenKind }) {
  const { key = '' } = useParams();
  const campaigns = useGetCampaignsQuery();
  if (!campaigns.data) return campaigns.isError ? <Typography color="error">Unexpected error</Typography> : <PageFallback />;
  const campaign = campaigns.data.find((c) => c.key === key);
  if (!campaign) return <UnknownCampaign />;
  // Keyed by path: another campaign's screen starts on its own first page and round.
  if (kind === 'suspicious') return <SuspiciousScreen key={key} campaign={campaign} />;
  const spec = CAMPAIGNS.find((c) => c.key === key);
  if (spec) {
    const same = spec.screens.find((entry) => entry.kind === kind && (entry.kind !== 'ranking' || entry.round === ALL_ROUNDS));
    return same ? <Navigate to={same.path} replace /> : <UnknownCampaign />;
  }
  const descriptor = descriptorOf(campaign);
  const screen = descriptor.screens.find((entry) => entry.kind === kind);
  if (!screen) return <UnknownCampaign />;
  return screen.kind === 'ranking' ? (
    <RankingScreen key={screen.path} campaign={descriptor} screen={screen} />
  ) : (
    <CampaignListScreen key={screen.path} campaign={descriptor} screen={screen} />
  );
}
