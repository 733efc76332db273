import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import type { DashboardSummary } from '../../domain/dashboard-summary';
import { formatMoney } from '../../domain/format';

/** The day's figures as cards; each card is a labelled region so a reader finds it by name. */
export function SummaryCards({ summary }: { summary: DashboardSummary | undefined }) {
  const cards: [string, string, string?][] = [
    ['Total calls', formatMoney(summary?.total ?? 0)],
    ['Processed', formatMoney(summary?.processed ?? 0), 'success.main'],
    ['Failed', formatMoney(summary?.failed ?? 0), 'error.main'],
    ['Pending', formatMoney(summary?.pending ?? 0), 'warning.main'],
    ['Success rate', `${summary?.successRate ?? 0}%`],
    ['Revenue', `UGX ${formatMoney(summary?.revenue ?? 0)}`],
  ];
  return (
    <Grid container spacing={2} sx={{ mb: 2 }}>
      {cards.map(([label, value, color]) => (
        <Grid key={label} size={{ xs: 6, md: 4, lg: 2 }}>
          <Card component="section" aria-label={label}>
            <CardContent>
              <Typography variant="body2" color="text.secondary">
                {label}
              </Typography>
              <Typography variant="h5" sx={{ color }}>
                {value}
              </Typography>
            </CardContent>
          </Card>
        </Grid>
      ))}
    </Grid>
  );
}
