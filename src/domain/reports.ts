import { csvLine } from './transaction-csv';

/** One service code's month: its calls by status, its revenue and its success rate. */
export interface MonthlyReportRow {
  name: string;
  calls: number;
  processed: number;
  failed: number;
  /** Sum of the processed calls' amounts. */
  revenue: number;
  /** What was paid back on the code's calls in the month. */
  refunded: number;
  /** Processed over all calls, in percent with one decimal (0 without calls). */
  successRate: number;
}

export interface MonthlyReport {
  month: string;
  rows: MonthlyReportRow[];
}

const COLUMNS: readonly { header: string; value: (row: MonthlyReportRow) => string }[] = [
  { header: 'Service code', value: (r) => r.name },
  { header: 'Calls', value: (r) => String(r.calls) },
  { header: 'Processed', value: (r) => String(r.processed) },
  { header: 'Failed', value: (r) => String(r.failed) },
  { header: 'Revenue', value: (r) => String(r.revenue) },
  { header: 'Refunded', value: (r) => String(r.refunded) },
  { header: 'Success rate (%)', value: (r) => String(r.successRate) },
];

export const MONTHLY_CSV_HEADER = csvLine(COLUMNS.map((c) => c.header));
export const monthlyCsvLine = (row: MonthlyReportRow) => csvLine(COLUMNS.map((c) => c.value(row)));

/** This month, `YYYY-MM`, from a day `YYYY-MM-DD`. */
export const monthOf = (day: string) => day.slice(0, 7);
