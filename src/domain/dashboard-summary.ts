import type { TransactionStatus } from './transaction-status';

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
  /** Refunds completed on the day, of the day's or earlier calls. */
  refunds: { count: number; amount: number };
  /** Revenue less the day's completed refunds. */
  netRevenue: number;
  revenueByLevel: { level: string; amount: number; count: number }[];
  perHour: ({ hour: number; total: number } & Record<TransactionStatus, number>)[];
  perNetwork: { network: string; total: number }[];
}
