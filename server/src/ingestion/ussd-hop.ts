import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { normalizePhoneNumber } from '../../../src/domain/phone';
import type { Db } from '../db/client';
import { PaymentProviderUnavailable, type PaymentProvider } from '../providers/payment';
import { transactionEvent, transactionEventsRepository } from '../repositories/transaction-events-repository';
import { ussdRepository } from '../repositories/ussd-repository';
import type { SettlePayment } from './settlement';
import { ussdCatalogue, type LoadedService, type UssdMenuCache } from './ussd-catalogue';
import { MAX_SESSION_ANSWERS, roundClosedReply, USSD_REPLIES, ussdMenu, voteCapReply, type UssdAction } from './ussd-menu';

/** One hop of a USSD session as the network sends it (Africa's Talking's form, validated by the route). */
export interface UssdHop {
  sessionId: string;
  serviceCode: string;
  phoneNumber: string;
  networkCode?: string;
  /** Every answer so far joined by '*'. */
  text: string;
}

/** Network operators by mobile network code (MCC 641, Uganda). */
const NETWORKS: Record<string, string> = { '64110': 'MTN', '64101': 'Airtel', '64111': 'UTL', '64114': 'Africell' };

export function networkName(networkCode: string | undefined): string {
  if (!networkCode) return 'Unknown';
  return NETWORKS[networkCode] ?? (/^\d+$/.test(networkCode) ? `Network ${networkCode}` : networkCode);
}

interface HopDeps {
  db: Db;
  payment: PaymentProvider;
  settle: SettlePayment;
  menuCache: UssdMenuCache;
  /** USSD_CONFIRMS_PER_MINUTE: confirmed payments one phone number may ask for in a minute. */
  confirmsPerMinute: number;
  /** Hears of each call created (the live feed). */
  onCallChanged: (transactionId: string) => void;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
}

/**
 * Answers a USSD hop (DESIGN §6): the menu comes from the code's catalogue and the accumulated
 * `text` alone (ussd-menu.ts), so any instance answers any hop; a confirmed choice creates the
 * pending call and requests its payment. Every hop is recorded once on the call's timeline.
 * Anything that goes wrong ends the session politely rather than with an error.
 */
export function ussdHops({ db, payment, settle, menuCache, confirmsPerMinute, onCallChanged, log }: HopDeps) {
  const repo = ussdRepository(db);
  const events = transactionEventsRepository(db);
  const loadService = ussdCatalogue(repo, menuCache);

  /** Creates the call a confirmed menu asked for (once per session) and asks the provider to collect. */
  async function placeCall(hop: UssdHop, phoneNumber: string, loaded: LoadedService, action: UssdAction, confirmed: string) {
    const vote = action.kind === 'vote' ? action : null;
    const cap = loaded.service.kind === 'campaign' ? loaded.service.cap : null;
    const result = await repo.createCall(
      {
        sessionId: hop.sessionId,
        serviceCode: loaded.serviceCode,
        phoneNumber,
        network: networkName(hop.networkCode),
        categoryId: loaded.categoryId,
        categoryLevel: vote ? loaded.voteLevel : action.kind === 'purchase' ? action.level : null,
        amount: action.amount,
        // Stored before the provider is asked, so a callback or a status poll always finds the call.
        paymentRef: crypto.randomUUID(),
        ...(vote ? { campaignKey: loaded.campaignKey, round: vote.round, teamName: vote.teamName, teamName2: vote.teamName2 } : {}),
      },
      { amount: action.amount, provider: payment.name },
      { confirmsPerMinute, voteCap: vote && cap !== null && loaded.campaignKey ? { cap, campaignKey: loaded.campaignKey, round: vote.round, phoneNumber } : undefined },
    );
    const roundLabel = () => (loaded.service.kind === 'campaign' && loaded.service.rounds.find((round) => round.key === vote!.round)?.label) || vote!.round;
    if (result.outcome === 'capped') return { reply: voteCapReply(cap!, roundLabel()), transactionId: null };
    if (result.outcome === 'closed') return { reply: roundClosedReply(roundLabel()), transactionId: null };
    if (result.outcome === 'limited') return { reply: USSD_REPLIES.tooManyPayments, transactionId: null };
    const { call } = result;
    if (result.outcome === 'existing') {
      // A session belongs to its phone: another number's hop on it asks for nothing and is not recorded on its call.
      if (call.phoneNumber !== phoneNumber) return { reply: USSD_REPLIES.foreignSession, transactionId: null, foreign: true };
      // The network repeating the confirming hop gets the same answer and requests nothing twice.
      return { reply: confirmed, transactionId: call.id };
    }
    onCallChanged(call.id);

    const reference = call.paymentRef!;
    try {
      const collected = await payment.collect({ reference, phoneNumber, amount: action.amount });
      if (collected.accepted) return { reply: confirmed, transactionId: call.id };
    } catch (error) {
      // An unknown outcome may still have reached the customer's phone: failing the call could leave
      // a charged customer without a ticket, so it stays pending and the sweeper asks the provider.
      if (error instanceof PaymentProviderUnavailable) {
        log.warn({ err: error, transactionId: call.id }, 'payment request outcome unknown; left pending for the sweeper');
        return { reply: USSD_REPLIES.paymentUnconfirmed, transactionId: call.id };
      }
      log.error({ err: error }, 'payment collection failed');
    }
    await settle({ reference, status: 'FAILED', actor: `provider:${payment.name}`, via: 'request', reason: 'Payment request refused' });
    return { reply: USSD_REPLIES.paymentUnavailable, transactionId: call.id };
  }

  return async function answerHop(hop: UssdHop): Promise<string> {
    const phoneNumber = normalizePhoneNumber(hop.phoneNumber);
    // A session's hops are bounded: past any menu's length nothing is read or recorded.
    if (hop.text.split('*').length > MAX_SESSION_ANSWERS) return USSD_REPLIES.tooLong;
    try {
      const loaded = await loadService(hop.serviceCode, phoneNumber, hop.sessionId, hop.text === '');
      const menu = ussdMenu(loaded?.service ?? null, hop.text);
      const placed: { reply: string; transactionId: string | null; foreign?: boolean } =
        menu.action && loaded ? await placeCall(hop, phoneNumber, loaded, menu.action, menu.reply) : { reply: menu.reply, transactionId: null };
      if (placed.foreign) return placed.reply;
      await events.record(transactionEvent.ussdHop({ sessionId: hop.sessionId, text: hop.text, reply: placed.reply, transactionId: placed.transactionId }));
      return placed.reply;
    } catch (error) {
      log.error({ err: error }, 'USSD hop failed');
      return USSD_REPLIES.busy;
    }
  };
}
