import type { Config } from '../config';
import type { Db } from '../db/client';
import { externalPaymentProvider, localDecisionStore, localPaymentProvider, type PaymentProvider, type SettleDecision } from './payment';
import { momoOptionsFromEnv, momoPaymentProvider } from './payment-momo';

/** A payment provider made once the settlement it hands its own decisions to exists (buildApp makes both). */
export type PaymentProviderFactory = (settle: SettleDecision, db: Db) => PaymentProvider;

/**
 * PAYMENT_PROVIDER (DESIGN §2): `local` (default) settles by itself after PAYMENT_LOCAL_DELAY_MS,
 * `external` only through signed callbacks, `momo` is MTN MoMo (MOMO_*). What a provider decides by
 * itself goes through `settle`, the same settlement as a callback.
 */
export function paymentProviderFromConfig(
  config: Pick<Config, 'paymentProvider' | 'paymentLocalDelayMs' | 'paymentLocalFailRate'>,
  env: NodeJS.ProcessEnv,
  onError: (error: unknown, reference: string) => void,
): PaymentProviderFactory {
  return (settle, db) => {
    switch (config.paymentProvider) {
      case 'external':
        return externalPaymentProvider();
      case 'momo':
        return momoPaymentProvider({ ...momoOptionsFromEnv(env), settle, onError });
      case 'local':
        return localPaymentProvider({ delayMs: config.paymentLocalDelayMs, failRate: config.paymentLocalFailRate, settle, onError, store: localDecisionStore(db) });
    }
  };
}
