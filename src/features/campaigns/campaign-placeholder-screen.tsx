import Typography from '@mui/material/Typography';

/** Placeholder until the Campaigns issue builds this screen. */
export default function CampaignPlaceholderScreen() {
  return (
    <Typography variant="h5" component="h1">
      Campaigns
    </Typography>
  );
}
