import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import type { DashboardSummary } from '../../domain/dashboard-summary';
import { formatMoney } from '../../domain/format';

/** The day's figures as cards; each card is a labelled region so a reader finds it by name. */
export function SummaryCards({ summary }: { summary: DashboardSummary | undefined }) {
  const refunds = summary?.refunds ?? { count: 0, amount: 0 };
  // Net revenue rides under revenue rather than in a seventh card, so the six still share one row.
  const net = `Net UGX ${formatMoney(summary?.netRevenue ?? summary?.revenue ?? 0)} · ${
    refunds.count === 0 ? 'no refunds' : `${formatMoney(refunds.count)} ${refunds.count === 1 ? 'refund' : 'refunds'} (UGX ${formatMoney(refunds.amount)})`
  }`;
  const cards: [string, string, string?, string?][] = [
    ['Total calls', formatMoney(summary?.total ?? 0)],
    ['Processed', formatMoney(summary?.processed ?? 0), 'success.main'],
    ['Failed', formatMoney(summary?.failed ?? 0), 'error.main'],
    ['Pending', formatMoney(summary?.pending ?? 0), 'warning.main'],
    ['Success rate', `${summary?.successRate ?? 0}%`],
    ['Revenue', `UGX ${formatMoney(summary?.revenue ?? 0)}`, undefined, net],
  ];
  return (
    <Grid container spacing={2} sx={{ mb: 2 }}>
      {cards.map(([label, value, color, detail]) => (
        <Grid key={label} size={{ xs: 6, md: 4, lg: 2 }}>
          <Card component="section" aria-label={label} sx={{ height: '100%' }}>
            <CardContent>
              <Typography variant="body2" color="text.secondary">
                {label}
              </Typography>
              <Typography variant="h5" sx={{ color }}>
                {value}
              </Typography>
              {detail && (
                <Typography variant="caption" color="text.secondary" component="p">
                  {detail}
                </Typography>
              )}
            </CardContent>
          </Card>
        </Grid>
      ))}
    </Grid>
  );
}
