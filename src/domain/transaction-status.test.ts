import { awaitsResolve, statusFlags, transactionStatus, type TransactionStatus } from './transaction-status';

describe('transaction status', () => {
  it.each<TransactionStatus>(['processed', 'failed', 'pending'])('reads %s back from the flags it is written as', (status) => {
    expect(transactionStatus(statusFlags(status))).toBe(status);
  });

  it('awaits a resolve only for a failed call not yet resolved', () => {
    expect(awaitsResolve('failed', false)).toBe(true);
    expect(awaitsResolve('failed', true)).toBe(false);
    expect(awaitsResolve('pending', false)).toBe(false);
    expect(awaitsResolve('processed', false)).toBe(false);
  });
});
