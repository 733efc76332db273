import { MESSAGE_STATUS } from '../../../src/domain/transaction-events';
import type { Db } from '../db/client';
import type { SmsProvider } from '../providers/sms';
import { transactionEvent, transactionEventsRepository } from '../repositories/transaction-events-repository';
import { transactionsRepository } from '../repositories/transactions-repository';

export interface TicketSmsCall {
  id: string;
  phoneNumber: string;
  ticketMessage: string;
}

export interface TicketSmsCause {
  /** 'sms_sent' when a settled payment (or the sweeper, for one a stopped process settled) sends it, 'ticket_resent' when staff send it again. */
  kind: 'sms_sent' | 'ticket_resent';
  actor: string;
  actorUserId?: string | null;
}

/**
 * Sends a call's ticket through the SMS provider (DESIGN §6) and records what happened: the call's
 * `messageStatuses` ('Sent' or 'Failed', later moved by the delivery report), the provider's id in
 * `ticketSmsRef`, and an event on the call's timeline. Used by settlement, the sweeper and 'Resend
 * ticket', so all leave the same trace. A provider that throws counts as a failed send, never an error.
 */
export function ticketSender(db: Db, sms: SmsProvider) {
  const repo = transactionsRepository(db);
  const events = transactionEventsRepository(db);
  return {
    async send(call: TicketSmsCall, cause: TicketSmsCause) {
      const sent = await sms
        .send({ phoneNumber: call.phoneNumber, message: call.ticketMessage })
        .catch((error: unknown) => ({ status: 'failed' as const, providerRef: null, failureReason: error instanceof Error ? error.message.slice(0, 200) : 'SMS provider error' }));
      const status = sent.status === 'failed' ? MESSAGE_STATUS.failed : MESSAGE_STATUS.sent;
      const providerRef = sent.providerRef ?? null;
      const event = transactionEvent.ticketSms(cause, { status, provider: sms.name, providerRef, failureReason: sent.failureReason ?? null });
      await repo.recordTicketSms(call.id, { status, providerRef }, event);
      return { status, providerRef };
    },

    /**
     * A delivery report of a ticket SMS (found by the provider's id): recorded on its call's timeline
     * once per status, and its status moved to 'Delivered' or 'Failed' (never back from 'Delivered').
     * Answers whether the id was a ticket's.
     */
    async landDeliveryReport(report: { providerRef: string; reported: string; delivery: 'sent' | 'delivered' | 'failed'; failureReason: string | null }) {
      const call = await repo.findByTicketSmsRef(report.providerRef);
      if (!call) return false;
      await events.record(
        transactionEvent.smsDelivery({ transactionId: call.id, provider: sms.name, providerRef: report.providerRef, reported: report.reported, failureReason: report.failureReason }),
      );
      if (report.delivery !== 'sent') await repo.landTicketDelivery(report.providerRef, report.delivery === 'delivered' ? MESSAGE_STATUS.delivered : MESSAGE_STATUS.failed);
      return true;
    },
  };
}

export type TicketSender = ReturnType<typeof ticketSender>;
