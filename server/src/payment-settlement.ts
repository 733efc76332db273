import { TICKET_SMS_STATUS } from '../../src/domain/transaction-events';
import type { Db } from './db/client';
import type { SmsProvider } from './providers/sms';
import { transactionEventsRepository, type NewTransactionEvent } from './repositories/transaction-events-repository';
import { transactionsRepository, type SettlementCall } from './repositories/transactions-repository';
import { sendTicketSms } from './ticket-sms';

/** A final word on a payment: from a signed callback, the local provider, or a status poll. */
export interface PaymentDecision {
  reference: string;
  status: 'SUCCESSFUL' | 'FAILED';
  /** Who said so: 'provider:<name>' or 'sweeper'. */
  actor: string;
  via: 'callback' | 'local' | 'poll' | 'timeout';
  /** Why a payment failed when nobody said FAILED (timed out, provider unreachable). */
  reason?: string;
}

export type SettlementResult =
  | { result: 'settled'; transactionId: string; status: 'SUCCESSFUL' | 'FAILED' }
  | { result: 'already_settled'; transactionId: string }
  | { result: 'unknown' };

/** The ticket SMS of a campaign vote whose category level has no active content. */
export const voteConfirmation = (teamName: string) => `Thank you. Your vote for ${teamName} has been recorded.`;

/**
 * `messageStatuses` of a settled call between settling and the SMS provider's answer. A call left
 * in it (the process stopped in between) is sent its ticket by the sweeper.
 */
export const TICKET_SENDING_STATUS = 'Sending';

/** `messageStatuses` of a call whose payment the provider refused (as the demo data has it). */
export const PAYMENT_FAILED_STATUS = 'Payment failed';

/** What the sweeper writes on a payment it fails without a provider's word. */
export const TIMED_OUT_STATUS = 'Payment timed out';

/**
 * `call`: the call of the reference when the caller has just read it (saves reading it again);
 * `along`: events to record with the settlement (the callback or poll that decided), whether or not it settles.
 */
export type SettlePayment = (decision: PaymentDecision, call?: SettlementCall, along?: NewTransactionEvent[]) => Promise<SettlementResult>;

/**
 * The one place a pending payment becomes processed or failed (DESIGN §6), used by the payment
 * callback, the local provider and the sweeper. Idempotent on the reference: the conditional
 * UPDATE lets exactly one of any number of concurrent or repeated decisions win, and only the
 * winner records 'payment_settled' and sends the ticket, so a call gets one ticket and one SMS.
 * `onVoteCounted` hears of each vote this makes count, once committed (the answer cache drops the
 * campaign's rankings, so this process shows its own votes at once).
 */
export function paymentSettlement(db: Db, sms: SmsProvider, onVoteCounted: (campaignKey: string) => void = () => {}): SettlePayment {
  const events = transactionEventsRepository(db);
  const repo = transactionsRepository(db);

  return async function settlePayment(decision, known, along = []) {
    const call = known ?? (await repo.findForSettlement(decision.reference));
    if (!call) return { result: 'unknown' };
    if (call.isComplete || call.isDeleted) {
      await events.record(...along);
      return { result: 'already_settled', transactionId: call.id };
    }

    let ticket: string | undefined;
    if (decision.status === 'SUCCESSFUL') {
      ticket = call.categoryId && call.categoryLevel ? (call.activeMessage ?? undefined) : undefined;
      // A vote still gets a confirmation SMS when its level has no content.
      if (!ticket && call.campaignKey && call.teamName) ticket = voteConfirmation(call.teamName);
    }
    const values =
      decision.status === 'SUCCESSFUL'
        ? { isComplete: true, isDeleted: false, ticketMessage: ticket ?? null, messageStatuses: ticket ? TICKET_SENDING_STATUS : TICKET_SMS_STATUS.noContent }
        : { isComplete: false, isDeleted: true, ticketMessage: null, messageStatuses: decision.reason ?? PAYMENT_FAILED_STATUS };
    const settled = await repo.settleRecording(
      decision.reference,
      values,
      {
        kind: 'payment_settled',
        actor: decision.actor,
        detail: { status: decision.status, via: decision.via, reason: decision.reason ?? null },
        dedupeKey: `settled:${decision.reference}`,
      },
      along,
    );
    if (!settled) return { result: 'already_settled', transactionId: call.id };
    // Only a processed vote counts (migration 0005): failing a pending one changes no ranking.
    if (decision.status === 'SUCCESSFUL' && call.campaignKey) onVoteCounted(call.campaignKey);
    if (ticket) await sendTicketSms(db, sms, { id: settled.id, phoneNumber: settled.phoneNumber, ticketMessage: ticket }, { kind: 'sms_sent', actor: 'system' });
    return { result: 'settled', transactionId: settled.id, status: decision.status };
  };
}
