import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { MailProvider } from '../providers/mail';
import type { PaymentProvider } from '../providers/payment';
import type { SmsProvider } from '../providers/sms';

export interface Providers {
  mail: MailProvider;
  sms: SmsProvider;
  payment: PaymentProvider;
}

declare module 'fastify' {
  interface FastifyInstance {
    providers: Providers;
  }
}

/** Outbound adapters (SMS, mail, mobile money) behind small interfaces. */
export default fp(
  async function providers(app: FastifyInstance, options: { providers: Providers }) {
    app.decorate('providers', options.providers);
    // The local and MoMo providers hold timers and settlements in flight.
    app.addHook('onClose', async () => {
      await options.providers.payment.close?.();
    });
  },
  { name: 'providers' },
);
