import type { FastifyBaseLogger } from 'fastify';
import type { Db } from './db/client';
import { transactionsRepository } from './repositories/transactions-repository';

export interface PaymentSweeperOptions {
  /** A payment still pending this long is failed. */
  timeoutMinutes: number;
  /** How often to look. */
  everyMs?: number;
  log: Pick<FastifyBaseLogger, 'info' | 'error'>;
}

/**
 * DESIGN §6: fails payments left pending too long, so that a customer whose mobile-money prompt
 * was never answered shows up in the failed list for support to follow up, instead of pending
 * for ever. Runs once at start, then every minute; the timer never keeps the process alive.
 */
export function startPaymentSweeper(db: Db, { timeoutMinutes, everyMs = 60_000, log }: PaymentSweeperOptions) {
  const repo = transactionsRepository(db);
  let running: Promise<void> | undefined;
  const sweep = () => {
    // One sweep at a time: a slow one is not stacked on.
    running ??= repo
      .failStalePayments(timeoutMinutes)
      .then((failed) => {
        if (failed > 0) log.info({ failed, timeoutMinutes }, 'failed payments left pending too long');
      })
      .catch((error: unknown) => log.error({ err: error }, 'payment sweep failed'))
      .finally(() => (running = undefined));
    return running;
  };
  const timer = setInterval(() => void sweep(), everyMs);
  timer.unref();
  void sweep();
  return {
    sweep,
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
