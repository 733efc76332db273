import type { Db } from '../db/client';
import { externalPaymentProvider, localDecisionStore, localPaymentProvider, type PaymentProvider, type SettleDecision, type SettleRefund } from './payment';
import { momoPaymentProvider, type MomoSettings } from './payment-momo';
import { momoDisbursementRefunds, type MomoDisbursementSettings } from './refund-momo';

/** A payment provider made once the settlement it hands its own decisions to exists (buildApp makes both). */
export type PaymentProviderFactory = (settle: SettleDecision, db: Db, settleRefund?: SettleRefund) => PaymentProvider;

/** PAYMENT_PROVIDER's choice with what it needs (config.ts reads them from the environment). */
export type PaymentSettings = { kind: 'local'; delayMs: number; failRate: number; refundFailRate?: number } | { kind: 'external' } | ({ kind: 'momo'; disbursement?: MomoDisbursementSettings } & MomoSettings);

/**
 * PAYMENT_PROVIDER (DESIGN §2): `local` (default) settles by itself after PAYMENT_LOCAL_DELAY_MS,
 * `external` only through signed callbacks, `momo` is MTN MoMo (MOMO_*). What a provider decides by
 * itself goes through `settle`, the same settlement as a callback.
 */
export function paymentProviderFor(settings: PaymentSettings, onError: (error: unknown, reference: string) => void): PaymentProviderFactory {
  return (settle, db, settleRefund) => {
    switch (settings.kind) {
      case 'external':
        return externalPaymentProvider();
      case 'momo': {
        const { kind: _kind, disbursement, ...momo } = settings;
        const collections = momoPaymentProvider({ ...momo, settle, onError });
        if (!disbursement) return collections;
        // Refunds go through the Disbursement product, with its own key and API user.
        const refunds = momoDisbursementRefunds({ ...disbursement, settleRefund, onError });
        return {
          ...collections,
          refund: refunds.refund,
          refundStatus: refunds.refundStatus,
          async close() {
            await Promise.all([collections.close?.(), refunds.close()]);
          },
        };
      }
      case 'local':
        return localPaymentProvider({ delayMs: settings.delayMs, failRate: settings.failRate, refundFailRate: settings.refundFailRate, settle, settleRefund, onError, store: localDecisionStore(db) });
    }
  };
}
