import Typography from '@mui/material/Typography';
import { useGetDashboardSummaryQuery } from '../../api/dashboard-api';
import { ServiceCodeDayFilters, useServiceCodeDayView } from '../../components/transactions/service-code-day-filters';
import { useUrlFilters } from '../../components/use-url-filters';
import { formatDay } from '../../domain/format';
import { SummaryCards } from './summary-cards';
import { SummaryCharts } from './summary-charts';

/** DESIGN §5: the overview of one day for the chosen service code. */
export default function DashboardScreen() {
  const view = useServiceCodeDayView();
  const { filters: filter, setFilters } = useUrlFilters({ filters: view.filters });
  const query = useGetDashboardSummaryQuery({ name: filter.name || undefined, date: filter.date });
  const summary = query.isError ? undefined : query.data;
  return (
    <>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        Overview for {formatDay(filter.date)}
      </Typography>
      <ServiceCodeDayFilters value={filter} onChange={setFilters} canChooseCode={view.canChooseCode} onRefresh={() => query.refetch()} refreshing={query.isFetching} />
      {query.isError && (
        <Typography color="error" sx={{ mb: 2 }}>
          Unexpected error
        </Typography>
      )}
      <SummaryCards summary={summary} />
      {summary && <SummaryCharts summary={summary} />}
    </>
  );
}
