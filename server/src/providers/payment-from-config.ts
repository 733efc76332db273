import type { Config } from '../config';
import type { SettlePayment } from '../payment-settlement';
import { externalPaymentProvider, localPaymentProvider, type PaymentProvider } from './payment';
import { momoOptionsFromEnv, momoPaymentProvider } from './payment-momo';

/**
 * PAYMENT_PROVIDER (DESIGN §2): `local` (default) settles by itself after PAYMENT_LOCAL_DELAY_MS,
 * `external` only through signed callbacks, `momo` is MTN MoMo (MOMO_*). What a provider decides by
 * itself goes through `settle`, the same settlement as a callback.
 */
export function paymentProviderFromConfig(
  config: Pick<Config, 'paymentProvider' | 'paymentLocalDelayMs' | 'paymentLocalFailRate'>,
  env: NodeJS.ProcessEnv,
  settle: SettlePayment,
  onError: (error: unknown, reference: string) => void,
): PaymentProvider {
  switch (config.paymentProvider) {
    case 'external':
      return externalPaymentProvider();
    case 'momo':
      return momoPaymentProvider({
        ...momoOptionsFromEnv(env),
        settle: (reference, status) => settle({ reference, status, actor: 'provider:momo', via: 'poll' }),
        onError,
      });
    case 'local':
      return localPaymentProvider({
        delayMs: config.paymentLocalDelayMs,
        failRate: config.paymentLocalFailRate,
        settle: (reference, status) => settle({ reference, status, actor: 'provider:local', via: 'local' }),
        onError,
      });
  }
}
