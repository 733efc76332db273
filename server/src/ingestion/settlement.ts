import { MESSAGE_STATUS } from '../../../src/domain/transaction-events';
import type { Db, DbOrTx } from '../db/client';
import type { PaymentDecision } from '../providers/payment';
import { transactionEvent, transactionEventsRepository, type NewTransactionEvent } from '../repositories/transaction-events-repository';
import { transactionsRepository, type SettledValues, type SettlementCall } from '../repositories/transactions-repository';
import { voteIntegrityRepository } from '../repositories/vote-integrity-repository';
import { heldVoteConfirmation } from '../../../src/domain/vote-integrity';
import type { TicketSender } from './ticket-sms';

export type SettlementResult =
  | { result: 'settled'; transactionId: string; status: 'SUCCESSFUL' | 'FAILED' }
  | { result: 'already_settled'; transactionId: string }
  | { result: 'unknown' };

/** The ticket SMS of a campaign vote whose category level has no active content. */
export const voteConfirmation = (teamName: string) => `Thank you. Your vote for ${teamName} has been recorded.`;

export interface SettleOptions {
  /** The call of the reference when the caller has just read it (saves reading it again). */
  call?: SettlementCall;
  /** The event that brought the decision (a callback, a poll), recorded with it whether or not it settles. */
  along?: NewTransactionEvent;
}

export interface SettlementListeners {
  onVoteCounted: (campaignKey: string) => void;
  /** A vote of this number was settled, counted or held: its anomaly figures (and its prefix's bursts) may have changed. */
  onVoterChanged?: (campaignKey: string, phoneNumber: string) => void;
  onCallChanged: (transactionId: string) => void;
  onSaleSettled?: (serviceCode: string, status: 'SUCCESSFUL' | 'FAILED') => void;
}

export type SettlePayment = (decision: PaymentDecision, options?: SettleOptions) => Promise<SettlementResult>;

/** What a payment callback said, once its signature was checked. */
export interface PaymentCallback {
  reference: string;
  status: 'SUCCESSFUL' | 'FAILED' | 'PENDING';
  /** The provider's words on a failure, when its callback carries any. */
  failureReason?: string | null;
  /** A short hash of the raw body: the same callback repeated is recorded once. */
  bodyHash: string;
}

/** The ticket SMS of a paid call: its level's active content, or a vote's confirmation when its level has none; a held vote is told it is under review. */
function ticketOf(call: SettlementCall, held = false): string | undefined {
  if (held && call.teamName) return heldVoteConfirmation(call.teamName);
  const ticket = call.categoryId && call.categoryLevel ? (call.activeMessage ?? undefined) : undefined;
  return !ticket && call.campaignKey && call.teamName ? voteConfirmation(call.teamName) : ticket;
}

/** What a paid call becomes: processed with its ticket 'Sending', or 'No ticket content'; held out of the counts when `held`. */
const paidValues = (ticket: string | undefined, held = false): SettledValues => ({
  isComplete: true,
  isDeleted: false,
  ticketMessage: ticket ?? null,
  messageStatuses: ticket ? MESSAGE_STATUS.sending : MESSAGE_STATUS.noContent,
  voteHold: held ? 'held' : null,
});

/** 'Issue ticket' on a statement's paid-no-ticket row: the line that says the provider was paid, and who acts on it. */
export interface StatementPayment {
  reference: string;
  userId: string;
  /** The statement's file name, for the timeline. */
  statement: string | null;
  line: number | null;
  amount: number | null;
  completedAt: string | null;
}

export type ReconcileResult = { result: 'reconciled'; transactionId: string } | { result: 'already_processed'; transactionId: string } | { result: 'unknown' };

export interface ReconcileOptions {
  /** A write that must commit with the settlement or not at all (the statement row marked issued); it runs even when the call was processed already. */
  alongside?: (tx: DbOrTx) => Promise<unknown>;
}

/**
 * The one place a pending payment becomes processed or failed (DESIGN §6), used by the payment
 * callback, the providers that decide by themselves, a refused payment request and the sweeper.
 * Idempotent on the reference: the conditional UPDATE lets exactly one of any number of concurrent
 * or repeated decisions win, and only the winner records 'payment_settled' and sends the ticket, so
 * a call gets one ticket and one SMS. Once committed, `onVoteCounted` hears of each vote this makes
 * count (the answer cache drops the campaign's rankings, so this process shows its own votes at once)
 * and `onCallChanged` of each call it settles (the live feed).
 */
export function paymentSettlement(db: Db, tickets: TicketSender, hear: SettlementListeners, providerName: () => string) {
  const events = transactionEventsRepository(db);
  const repo = transactionsRepository(db);
  const integrity = voteIntegrityRepository(db);

  /**
   * Whether a paid vote settles held: its campaign holds suspicious votes and the number is flagged
   * in the round, this vote included. Costs nothing for a campaign that does not hold.
   */
  const holds = async (call: SettlementCall) =>
    Boolean(call.holdSuspicious && call.campaignKey && call.round) && (await integrity.isFlagged(call.campaignKey!, call.round!, call.phoneNumber, call.id));

  const settle: SettlePayment = async (decision, { call: known, along } = {}) => {
    const call = known ?? (await repo.findForSettlement(decision.reference));
    if (!call) return { result: 'unknown' };
    if (call.isComplete || call.isDeleted) {
      if (along) await events.record(along);
      return { result: 'already_settled', transactionId: call.id };
    }

    const held = decision.status === 'SUCCESSFUL' && (await holds(call));
    const ticket = decision.status === 'SUCCESSFUL' ? ticketOf(call, held) : undefined;
    const values: SettledValues =
      decision.status === 'SUCCESSFUL'
        ? paidValues(ticket, held)
        : {
            isComplete: false,
            isDeleted: true,
            ticketMessage: null,
            messageStatuses: decision.via === 'timeout' ? MESSAGE_STATUS.paymentTimedOut : MESSAGE_STATUS.paymentFailed,
            failureReason: decision.failureReason ?? null,
          };
    const settled = await repo.settleRecording(decision.reference, values, transactionEvent.paymentSettled(decision), along);
    if (!settled) return { result: 'already_settled', transactionId: call.id };
    hear.onCallChanged(settled.id);
    hear.onSaleSettled?.(settled.serviceCode, decision.status);
    // Only a processed vote counts (migration 0005): failing a pending one changes no ranking, nor does a held one.
    if (decision.status === 'SUCCESSFUL' && call.campaignKey && !held) hear.onVoteCounted(call.campaignKey);
    if (decision.status === 'SUCCESSFUL' && call.campaignKey) hear.onVoterChanged?.(call.campaignKey, settled.phoneNumber);
    if (ticket) await tickets.send({ id: settled.id, phoneNumber: settled.phoneNumber, ticketMessage: ticket }, { kind: 'sms_sent', actor: 'system' });
    return { result: 'settled', transactionId: settled.id, status: decision.status };
  };

  /**
   * A signed payment callback (DESIGN §6): recorded on the call's timeline once per distinct body,
   * PENDING recorded and nothing settled, a final word settling in the same statement that records it.
   * Undefined for a reference no call has.
   */
  async function receiveCallback({ reference, status, bodyHash, failureReason }: PaymentCallback): Promise<SettlementResult | { result: 'pending'; transactionId: string } | undefined> {
    const callback = transactionEvent.paymentCallback({ provider: providerName(), reference, status, bodyHash });
    // Recorded by this read when nothing will settle the call; else with the settlement below.
    const call = await repo.findRecordingCallback(reference, callback, status === 'PENDING');
    if (!call) return undefined;
    if (status === 'PENDING') return { result: 'pending', transactionId: call.id };
    if (call.isComplete || call.isDeleted) return { result: 'already_settled', transactionId: call.id };
    const along = { ...callback, transactionId: call.id };
    return settle({ reference, status, actor: `provider:${providerName()}`, via: 'callback', failureReason: status === 'FAILED' ? (failureReason ?? null) : null }, { call, along });
  }

  /**
   * Settles a call as the provider's statement says it was paid (DESIGN §7, 'Issue ticket'): a failed
   * or pending call becomes processed exactly once, with a 'reconciled' event naming who and which
   * line, and its ticket SMS is sent once. The only settlement that may take back a failure: the
   * statement is the provider's own record of the money, where a callback or poll was a message about
   * it. A call already processed (by a click before, a late callback) changes nothing and sends nothing.
   * `alongside` commits in the same transaction as the settlement; the ticket goes once both have.
   */
  async function reconcile(payment: StatementPayment, { alongside }: ReconcileOptions = {}): Promise<ReconcileResult> {
    const call = await repo.findForSettlement(payment.reference);
    if (!call) return { result: 'unknown' };
    if (call.isComplete && !alongside) return { result: 'already_processed', transactionId: call.id };
    const held = !call.isComplete && (await holds(call));
    const ticket = ticketOf(call, held);
    const event = transactionEvent.reconciled({ transactionId: call.id, ...payment });
    const settled = await db.transaction(async (tx) => {
      const done = call.isComplete ? undefined : await repo.settleReconciled(payment.reference, paidValues(ticket, held), event, tx);
      await alongside?.(tx);
      return done;
    });
    if (!settled) return { result: 'already_processed', transactionId: call.id };
    if (call.campaignKey && !held) hear.onVoteCounted(call.campaignKey);
    if (call.campaignKey) hear.onVoterChanged?.(call.campaignKey, settled.phoneNumber);
    hear.onCallChanged(settled.id);
    hear.onSaleSettled?.(settled.serviceCode, 'SUCCESSFUL');
    if (ticket) await tickets.send({ id: settled.id, phoneNumber: settled.phoneNumber, ticketMessage: ticket }, { kind: 'sms_sent', actor: 'user', actorUserId: payment.userId });
    return { result: 'reconciled', transactionId: settled.id };
  }

  return { settle, receiveCallback, reconcile };
}
