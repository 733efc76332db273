import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import type { PaymentProvider } from '../providers/payment';
import type { PaymentProviderFactory } from '../providers/payment-from-config';
import type { SmsProvider } from '../providers/sms';
import { startPaymentSweeper, type PaymentSweeperOptions } from './payment-sweeper';
import { paymentSettlement } from './settlement';
import { ticketSender } from './ticket-sms';
import { ussdMenuCache } from './ussd-catalogue';
import { ussdHops } from './ussd-hop';
import { DEFAULT_REFUND_SMS_TEXT } from '../../../src/domain/refunds';
import { refundFlow, type RefundChange } from '../refunds/refund-flow';

export interface IngestionDeps {
  db: Db;
  sms: SmsProvider;
  /** A provider, or one made with the settlement it hands its own decisions to (the local provider, MoMo's polls). */
  payment: PaymentProvider | PaymentProviderFactory;
  /** Hears of each vote a settlement counts (the answer cache drops the campaign's rankings). */
  onVoteCounted: (campaignKey: string) => void;
  /** Hears of each vote settled, counted or held, by number (the answer cache drops that number's anomaly figures). */
  onVoterChanged?: (campaignKey: string, phoneNumber: string) => void;
  /** Hears of each call created or settled, once committed (the live feed, DESIGN §7); called on the hot path, so it must be cheap. */
  onCallChanged: (transactionId: string) => void;
  /** Hears of each sale settled or reconciled, with its code and outcome (the metrics); on the hot path, so it must be cheap. */
  onSaleSettled?: (serviceCode: string, status: 'SUCCESSFUL' | 'FAILED') => void;
  /** How long the USSD menu keeps a code's catalogue (USSD_MENU_CACHE_MS). */
  ussdMenuCacheMs: number;
  /** USSD_CONFIRMS_PER_MINUTE: confirmed payments one phone number may ask for in a minute. */
  confirmsPerMinute: number;
  /** REFUND_SMS_TEXT and REFUND_SELF_APPROVE_BELOW. */
  refunds?: { smsText?: string; selfApproveBelow?: number };
  /** Hears of each refund that moved, once committed (the live feed's `event: refund`). */
  onRefundChanged?: (refund: RefundChange) => void;
  log: FastifyBaseLogger;
}

/**
 * The money path as one part (DESIGN §1), built once per app: a USSD hop (menu, call placement,
 * payment request), the settlement every final word goes through (callbacks, providers, the
 * sweeper), the ticket SMS, and the sweeper. Routes above only call it; providers and repositories
 * below know nothing of it.
 */
export function ingestion(deps: IngestionDeps) {
  const { db, log } = deps;
  const tickets = ticketSender(db, deps.sms);
  // The callback's actor names the provider, made just below with this settlement.
  const settlement = paymentSettlement(db, tickets, { onVoteCounted: deps.onVoteCounted, onVoterChanged: deps.onVoterChanged, onCallChanged: deps.onCallChanged, onSaleSettled: deps.onSaleSettled }, () => payment.name);
  const refunds = refundFlow({
    db,
    sms: deps.sms,
    payment: () => payment,
    smsText: deps.refunds?.smsText ?? DEFAULT_REFUND_SMS_TEXT,
    selfApproveBelow: deps.refunds?.selfApproveBelow ?? 0,
    onRefundChanged: (refund) => deps.onRefundChanged?.(refund),
    onCallChanged: deps.onCallChanged,
    log,
  });
  const payment = typeof deps.payment === 'function' ? deps.payment(settlement.settle, db, refunds.settle) : deps.payment;
  const menuCache = ussdMenuCache(deps.ussdMenuCacheMs);

  return {
    payment,
    answerHop: ussdHops({ db, payment, settle: settlement.settle, menuCache, confirmsPerMinute: deps.confirmsPerMinute, onCallChanged: deps.onCallChanged, log }),
    settle: settlement.settle,
    receiveCallback: settlement.receiveCallback,
    /** 'Issue ticket' from a provider statement: a failed or pending call settled as paid, once. */
    reconcile: settlement.reconcile,
    tickets,
    /** Money back: request, decide, send to the provider, settle (refunds/refund-flow.ts). */
    refunds,
    /** The catalogue changed through this API (categories, service codes, ticket contents): menus read it again. */
    forgetCatalogue: () => menuCache.forget(),
    /** The sweeper of payments left pending and of tickets a stopped process never sent (main.ts; tests start their own). */
    startSweeper: (options: Omit<PaymentSweeperOptions, 'payment' | 'settle' | 'tickets' | 'onCallChanged' | 'log' | 'alsoSweep'>) =>
      startPaymentSweeper(db, { ...options, payment, settle: settlement.settle, tickets, onCallChanged: deps.onCallChanged, log, alsoSweep: () => refunds.sweep(options.timeoutMinutes) }),
  };
}

export type Ingestion = ReturnType<typeof ingestion>;
