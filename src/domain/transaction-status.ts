import type { Transaction } from './entities';

export type TransactionStatus = 'processed' | 'failed' | 'pending';

/** SPEC §4: complete is processed; else deleted is failed; else pending. */
export function transactionStatus(t: Pick<Transaction, 'isComplete' | 'isDeleted'>): TransactionStatus {
  if (t.isComplete) return 'processed';
  if (t.isDeleted) return 'failed';
  return 'pending';
}

/** The flags a status is read from (transactionStatus's inverse): what a row holds once told its status. */
export function statusFlags(status: TransactionStatus): Pick<Transaction, 'isComplete' | 'isDeleted'> {
  return { isComplete: status === 'processed', isDeleted: status === 'failed' };
}

/** A call support still has to follow up (the Failed queue): failed and not yet resolved. */
export const awaitsResolve = (status: TransactionStatus, isResolved: boolean): boolean => status === 'failed' && !isResolved;

/** A call as a list holds it that the Failed queue can still resolve. */
export const isOpenFailedCall = (call: Pick<Transaction, 'isComplete' | 'isDeleted' | 'isResolved'>) => awaitsResolve(transactionStatus(call), call.isResolved);

export const STATUS_COLOR: Record<TransactionStatus, 'success' | 'error' | 'warning'> = {
  processed: 'success',
  failed: 'error',
  pending: 'warning',
};

