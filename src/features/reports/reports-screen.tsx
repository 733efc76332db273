import { useMemo } from 'react';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { BarChart } from '@mui/x-charts/BarChart';
import type { GridColDef } from '@mui/x-data-grid';
import { useExportMonthlyReportCsvMutation, useGetMonthlyReportQuery } from '../../api/customers-api';
import { CsvDownloadButton } from '../../components/csv-download-button';
import { FigureCards } from '../../components/figure-cards';
import { PagedGrid } from '../../components/paged-grid';
import type { CardLayout } from '../../components/paged-view';
import { usePagedGrid } from '../../components/use-paged-grid';
import { useLoadToast } from '../../components/use-load-toast';
import { isMonth } from '../../domain/day-range';
import { formatMoney, todayInServiceZone } from '../../domain/format';
import type { ViewFilter } from '../../domain/list-view';
import { monthOf, type MonthlyReportRow } from '../../domain/reports';

/** A month `YYYY-MM` in the URL, this month (service zone) by default. */
const monthFilter = (initial: string): ViewFilter<string> => ({ initial, parse: (text) => (isMonth(text) ? text : undefined), format: (value) => value });

const CARD: CardLayout = { title: 'name', aside: ['successRate'] };
const BAND_HEIGHT = 28;
const STATUS_COLORS = { processed: '#2e7d32', failed: '#d32f2f', pending: '#ed6c02' } as const;

const number = (field: keyof MonthlyReportRow, headerName: string, format: (row: MonthlyReportRow) => string): GridColDef<MonthlyReportRow> => ({
  field,
  headerName,
  flex: 1,
  minWidth: 90,
  sortable: false,
  align: 'right',
  headerAlign: 'right',
  valueGetter: (_value, row) => format(row),
});

const COLUMNS: GridColDef<MonthlyReportRow>[] = [
  { field: 'name', headerName: 'Service code', flex: 1, minWidth: 110, sortable: false },
  number('calls', 'Calls', (r) => formatMoney(r.calls)),
  number('processed', 'Processed', (r) => formatMoney(r.processed)),
  number('failed', 'Failed', (r) => formatMoney(r.failed)),
  number('revenue', 'Revenue (UGX)', (r) => formatMoney(r.revenue)),
  number('refunded', 'Refunded (UGX)', (r) => formatMoney(r.refunded)),
  number('successRate', 'Success rate', (r) => `${r.successRate}%`),
];

/** A month per service code in the person's scope: a chart of the calls, the figures as a grid, and the CSV. */
export default function ReportsScreen() {
  const list = usePagedGrid({ filters: { month: monthFilter(monthOf(todayInServiceZone())) } });
  const { month } = list.filters;
  const query = useGetMonthlyReportQuery({ month });
  useLoadToast(query, `Report for ${month}`);
  const [exportCsv] = useExportMonthlyReportCsvMutation();
  const rows = useMemo(() => query.data ?? [], [query.data]);
  const totals = useMemo(
    () => rows.reduce((sum, r) => ({ calls: sum.calls + r.calls, processed: sum.processed + r.processed, failed: sum.failed + r.failed, revenue: sum.revenue + r.revenue }), { calls: 0, processed: 0, failed: 0, revenue: 0 }),
    [rows],
  );
  const chartRows = rows.slice(0, 25);
  return (
    <>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        Monthly report
      </Typography>
      <Stack direction="row" spacing={2} useFlexGap sx={{ mb: 2, flexWrap: 'wrap', alignItems: 'center' }}>
        <TextField
          size="small"
          type="month"
          label="Month"
          value={month}
          onChange={(event) => isMonth(event.target.value) && list.setFilters({ month: event.target.value })}
          slotProps={{ inputLabel: { shrink: true } }}
          sx={{ width: 180 }}
        />
        <CsvDownloadButton download={() => exportCsv({ month }).unwrap()} disabled={rows.length === 0} />
      </Stack>
      <FigureCards
        label="Month totals"
        figures={[
          { label: 'Calls', value: formatMoney(totals.calls) },
          { label: 'Processed', value: formatMoney(totals.processed), color: 'success.main' },
          { label: 'Failed', value: formatMoney(totals.failed), color: 'error.main' },
          { label: 'Revenue', value: `UGX ${formatMoney(totals.revenue)}` },
        ]}
      />
      {chartRows.length > 0 && (
        <Card component="section" aria-label="Calls per service code" variant="outlined" sx={{ mb: 2, minWidth: 0 }}>
          <CardContent>
            <Typography variant="h6" component="h2">
              Calls per service code
            </Typography>
            <BarChart
              layout="horizontal"
              height={chartRows.length * BAND_HEIGHT + 72}
              yAxis={[{ scaleType: 'band', data: chartRows.map((r) => r.name), width: 'auto', tickLabelInterval: () => true }]}
              xAxis={[{ valueFormatter: (v: number) => (v >= 1000 ? `${formatMoney(v / 1000)}k` : formatMoney(v)) }]}
              series={(['processed', 'failed', 'pending'] as const).map((status) => ({
                data: chartRows.map((r) => (status === 'pending' ? r.calls - r.processed - r.failed : r[status])),
                label: status,
                stack: 'calls',
                color: STATUS_COLORS[status],
              }))}
            />
          </CardContent>
        </Card>
      )}
      <PagedGrid
        label="Service codes of the month"
        columns={COLUMNS}
        card={CARD}
        gridKey="monthly-report"
        getRowId={(row) => row.name}
        rows={rows}
        rowCount={rows.length}
        loading={query.isFetching}
        page={1}
        pageSize={Math.max(rows.length, 1)}
        onPageChange={() => undefined}
      />
    </>
  );
}
