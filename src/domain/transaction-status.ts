import type { Transaction } from './entities';

export type TransactionStatus = 'processed' | 'failed' | 'pending';

/** SPEC §4: complete is processed; else deleted is failed; else pending. */
export function transactionStatus(t: Pick<Transaction, 'isComplete' | 'isDeleted'>): TransactionStatus {
  if (t.isComplete) return 'processed';
  if (t.isDeleted) return 'failed';
  return 'pending';
}

export const STATUS_COLOR: Record<TransactionStatus, 'success' | 'error' | 'warning'> = {
  processed: 'success',
  failed: 'error',
  pending: 'warning',
};

