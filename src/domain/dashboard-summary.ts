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

/**
 * A day's calls counted along one dimension (by hour, by category level or by network) for one
 * status: every call is counted once in each dimension, so each dimension alone adds up to the day.
 */
export interface DailyStat {
  dimension: 'hour' | 'level' | 'network';
  /** The hour '0'…'23', the category level ('' for none) or the network. */
  key: string;
  isComplete: boolean;
  isDeleted: boolean;
  calls: number;
  amount: number | string;
}

/** Folds a day's counts into the dashboard's figures. */
export function summarize(date: string, name: string | null, stats: readonly DailyStat[]): DashboardSummary {
  const counts: Record<TransactionStatus, number> = { processed: 0, failed: 0, pending: 0 };
  const levels = new Map<string, { amount: number; count: number }>();
  const networks = new Map<string, number>();
  const perHour = Array.from({ length: 24 }, (_, hour) => ({ hour, total: 0, processed: 0, failed: 0, pending: 0 }));
  for (const stat of stats) {
    const n = Number(stat.calls);
    if (n === 0) continue;
    const status = transactionStatus(stat);
    if (stat.dimension === 'network') {
      counts[status] += n;
      networks.set(stat.key, (networks.get(stat.key) ?? 0) + n);
    } else if (stat.dimension === 'hour') {
      const hour = perHour[Number(stat.key)];
      hour.total += n;
      hour[status] += n;
    } else if (status === 'processed') {
      const level = stat.key || 'unknown';
      const current = levels.get(level) ?? { amount: 0, count: 0 };
      levels.set(level, { amount: current.amount + Number(stat.amount), count: current.count + n });
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
