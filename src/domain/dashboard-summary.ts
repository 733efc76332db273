import { transactionStatus, type TransactionStatus } from './transaction-status';

/** The overview of one day (DESIGN §5, /dashboard). */
export interface DashboardSummary {
  date: string;
  name: string | null;
  total: number;
  processed: number;
  failed: number;
  pending: number;
  /** Processed over all calls, in percent with one decimal. */
  successRate: number;
  /** Sum of the amounts of processed calls. */
  revenue: number;
  revenueByLevel: { level: string; amount: number; count: number }[];
  perHour: ({ hour: number; total: number } & Record<TransactionStatus, number>)[];
  perNetwork: { network: string; total: number }[];
}

export interface SummaryGroup {
  isComplete: boolean;
  isDeleted: boolean;
  categoryLevel: string | null;
  network: string;
  hour: number;
  count: number;
  amount: number | string;
}

/** Folds the grouped counts of a day into the dashboard's figures. */
export function summarize(date: string, name: string | null, groups: readonly SummaryGroup[]): DashboardSummary {
  const counts: Record<TransactionStatus, number> = { processed: 0, failed: 0, pending: 0 };
  const levels = new Map<string, { amount: number; count: number }>();
  const networks = new Map<string, number>();
  const perHour = Array.from({ length: 24 }, (_, hour) => ({ hour, total: 0, processed: 0, failed: 0, pending: 0 }));
  for (const g of groups) {
    const status = transactionStatus(g);
    const n = Number(g.count);
    counts[status] += n;
    perHour[g.hour].total += n;
    perHour[g.hour][status] += n;
    networks.set(g.network, (networks.get(g.network) ?? 0) + n);
    if (status === 'processed') {
      const level = g.categoryLevel ?? 'unknown';
      const current = levels.get(level) ?? { amount: 0, count: 0 };
      levels.set(level, { amount: current.amount + Number(g.amount), count: current.count + n });
    }
  }
  const total = counts.processed + counts.failed + counts.pending;
  const revenueByLevel = [...levels].map(([level, v]) => ({ level, ...v })).sort((a, b) => b.amount - a.amount);
  return {
    date,
    name,
    total,
    ...counts,
    successRate: total ? Math.round((counts.processed / total) * 1000) / 10 : 0,
    revenue: revenueByLevel.reduce((sum, l) => sum + l.amount, 0),
    revenueByLevel,
    perHour,
    perNetwork: [...networks].map(([network, n]) => ({ network, total: n })).sort((a, b) => b.total - a.total),
  };
}
