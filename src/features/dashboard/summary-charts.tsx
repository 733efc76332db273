import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import { PieChart } from '@mui/x-charts/PieChart';
import type { ReactNode } from 'react';
import { HorizontalBarChart } from '../../components/horizontal-bar-chart';
import { categoryLevelLabel } from '../../domain/category-levels';
import type { DashboardSummary } from '../../domain/dashboard-summary';
import { formatMoney } from '../../domain/format';

const HEIGHT = 280;

function ChartCard({ title, children, wide = false }: { title: string; children: ReactNode; wide?: boolean }) {
  return (
    <Grid size={{ xs: 12, md: wide ? 12 : 6 }}>
      <Card component="section" aria-label={title} sx={{ height: '100%' }}>
        <CardContent>
          <Typography variant="h6" component="h2">
            {title}
          </Typography>
          {children}
        </CardContent>
      </Card>
    </Grid>
  );
}

/** DESIGN §5: revenue by category level, volume per hour (service zone) and calls per network. */
export function SummaryCharts({ summary }: { summary: DashboardSummary }) {
  const hours = summary.perHour.map((h) => `${String(h.hour).padStart(2, '0')}h`);
  return (
    <Grid container spacing={2}>
      <ChartCard title="Revenue by category level">
        <HorizontalBarChart
          labels={summary.revenueByLevel.map((l) => categoryLevelLabel(l.level))}
          values={summary.revenueByLevel.map((l) => l.amount)}
          seriesLabel="UGX"
          valueFormatter={formatMoney}
          tickFormatter={(v) => (v >= 1000 ? `${formatMoney(v / 1000)}k` : formatMoney(v))}
        />
      </ChartCard>
      <ChartCard title="Calls per network">
        <PieChart height={HEIGHT} series={[{ data: summary.perNetwork.map((n, id) => ({ id, label: n.network, value: n.total })), innerRadius: 40 }]} />
      </ChartCard>
      <ChartCard title="Calls per hour" wide>
        <BarChart
          height={HEIGHT}
          xAxis={[{ scaleType: 'band', data: hours }]}
          series={(['processed', 'failed', 'pending'] as const).map((status) => ({
            data: summary.perHour.map((h) => h[status]),
            label: status,
            stack: 'calls',
            color: { processed: '#2e7d32', failed: '#d32f2f', pending: '#ed6c02' }[status],
          }))}
        />
      </ChartCard>
    </Grid>
  );
}
