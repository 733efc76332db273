import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { MESSAGE_STATUS } from '../../../src/domain/transaction-events';
import type { Db } from '../db/client';
import type { PaymentProvider, PaymentStatus } from '../providers/payment';
import { transactionEvent, transactionEventsRepository } from '../repositories/transaction-events-repository';
import { transactionsRepository } from '../repositories/transactions-repository';
import type { SettlePayment } from './settlement';
import type { TicketSender } from './ticket-sms';

export interface PaymentSweeperOptions {
  /** A payment still pending this long is asked about, then settled or failed. */
  timeoutMinutes: number;
  /** A payment the provider could not be asked about is failed once this many timeouts old (default 4). */
  unreachableLimit?: number;
  payment: PaymentProvider;
  settle: SettlePayment;
  /** Sends the tickets of calls settled by a process that stopped before sending them. */
  tickets: TicketSender;
  /** A ticket 'Sending' this long is taken as never sent (default 30 s; the SMS provider times out in 10). */
  unsentTicketSeconds?: number;
  /** Hears of each call the sweeper fails without asking anyone (the live feed); settlement tells of the others. */
  onCallChanged?: (transactionId: string) => void;
  /** More to sweep each time, claimed across instances as payments are (the refunds the provider has not settled). */
  alsoSweep?: () => Promise<unknown>;
  /** How often to look. */
  everyMs?: number;
  /** Payments asked about per sweep, and how many questions at once. */
  batch?: number;
  concurrency?: number;
  log: Pick<FastifyBaseLogger, 'info' | 'error'>;
}

/**
 * DESIGN §6: a payment pending past PAYMENT_TIMEOUT_MINUTES is asked about before anything is
 * decided: the provider's SUCCESSFUL or FAILED settles it as a callback would ('payment_polled',
 * then the same settlement); still PENDING fails it as timed out, so support sees it in the failed
 * list; a provider that cannot be reached leaves it for the next sweep, until it is
 * `unreachableLimit` timeouts old, when it is failed as timed out too. A call pending past the
 * timeout that no payment was ever requested for has nobody to ask: it is failed as 'Payment never
 * requested'. Runs once at start, then every minute; one sweep at a time; the timer never keeps the
 * process alive.
 */
export function startPaymentSweeper(db: Db, options: PaymentSweeperOptions) {
  const { timeoutMinutes, payment, settle, log, everyMs = 60_000, batch = 500, concurrency = 8 } = options;
  const hardLimitMs = timeoutMinutes * (options.unreachableLimit ?? 4) * 60_000;
  const repo = transactionsRepository(db);
  const events = transactionEventsRepository(db);
  const providerActor = `provider:${payment.name}`;

  /** At most one ticket SMS per call: each is claimed before it is sent. */
  async function sendUnsentTickets() {
    let sent = 0;
    for (const call of await repo.unsentTickets(options.unsentTicketSeconds ?? 30, batch)) {
      const claim = `sweeper:${crypto.randomUUID()}`;
      if (!call.ticketMessage || !(await repo.claimUnsentTicket(call.id, claim))) continue;
      await options.tickets.send({ id: call.id, phoneNumber: call.phoneNumber, ticketMessage: call.ticketMessage }, { kind: 'sms_sent', actor: 'sweeper' });
      await repo.releaseTicketClaim(call.id, claim);
      sent += 1;
    }
    if (sent > 0) log.info({ sent }, 'sent tickets a stopped process had settled but not sent');
  }

  /** Fails, batch by batch, the calls pending past the timeout that never reached the payment step. */
  async function failNeverRequested() {
    let failed = 0;
    for (;;) {
      const ids = await repo.failNeverRequested(timeoutMinutes, batch);
      for (const id of ids) options.onCallChanged?.(id);
      failed += ids.length;
      if (ids.length < batch) break;
    }
    if (failed > 0) log.info({ failed, timeoutMinutes }, 'failed calls left pending with no payment requested');
  }

  async function sweepOnce() {
    await sendUnsentTickets();
    await failNeverRequested();
    // Claimed for longer than the questions can take (8 at a time, 10 s each at most).
    const stale = await repo.claimStalePayments(timeoutMinutes, batch, Math.max(120, Math.ceil(batch / concurrency) * 15));
    const counts = { settled: 0, failed: 0, kept: 0 };
    const ask = async ({ id, paymentRef: reference, createdAt }: (typeof stale)[number]) => {
      let said: PaymentStatus | undefined;
      let failureReason: string | null = null;
      try {
        if (payment.answer) ({ status: said, failureReason } = await payment.answer(reference));
        else said = await payment.status(reference);
      } catch (error) {
        log.error({ err: error, reference }, 'payment provider unreachable for a status poll');
      }
      const polled = transactionEvent.paymentPolled({ transactionId: id, provider: payment.name, said });
      // The poll is recorded in the statement that settles, or alone when nothing settles.
      if (said === 'SUCCESSFUL' || said === 'FAILED') {
        const outcome = await settle({ reference, status: said, actor: providerActor, via: 'poll', failureReason: said === 'FAILED' ? failureReason : null }, { along: polled });
        if (outcome.result === 'settled') counts[said === 'SUCCESSFUL' ? 'settled' : 'failed'] += 1;
      } else if (said === 'PENDING' || Date.now() - createdAt.getTime() >= hardLimitMs) {
        const outcome = await settle({ reference, status: 'FAILED', actor: 'sweeper', via: 'timeout', reason: MESSAGE_STATUS.paymentTimedOut }, { along: polled });
        if (outcome.result === 'settled') counts.failed += 1;
      } else {
        await events.record(polled);
        await repo.releaseSweepClaim(id);
        counts.kept += 1;
      }
    };
    for (let i = 0; i < stale.length; i += concurrency) await Promise.all(stale.slice(i, i + concurrency).map(ask));
    if (stale.length > 0) log.info({ ...counts, timeoutMinutes }, 'swept payments left pending too long');
    await options.alsoSweep?.();
    return counts;
  }

  let running: Promise<{ settled: number; failed: number; kept: number } | undefined> | undefined;
  const sweep = () => {
    running ??= sweepOnce()
      .catch((error: unknown) => {
        log.error({ err: error }, 'payment sweep failed');
        return undefined;
      })
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
