import Typography from '@mui/material/Typography';

/** Placeholder for the campaign lists (transactions, failed, search) until they are built on the shared transaction pieces. */
export default function CampaignPlaceholderScreen({ title }: { title: string }) {
  return (
    <Typography variant="h5" component="h1">
      {title}
    </Typography>
  );
}
