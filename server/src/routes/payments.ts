import formBody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { text } from '../../../src/domain/schemas/text';
import { authenticatedCallback, callbackBodyHash, type CallbackAuth } from '../callback-auth';
import { documentedBody, notFound, ok, validBody } from '../http';
import { paymentSettlement } from '../payment-settlement';
import { transactionEventsRepository } from '../repositories/transaction-events-repository';
import { transactionsRepository } from '../repositories/transactions-repository';

const STATUSES = ['SUCCESSFUL', 'FAILED', 'PENDING'] as const;

const callbackSchema = yup.object({
  reference: text(200).trim().required('reference is required'),
  status: text(20)
    .transform((value: unknown) => (typeof value === 'string' ? value.trim().toUpperCase() : value))
    .required('status is required')
    .oneOf([...STATUSES], 'status must be SUCCESSFUL, FAILED or PENDING'),
});

/** Providers name the reference differently (MoMo's callback carries our externalId); other fields are ignored. */
function callbackFields(body: unknown) {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const fields = body as Record<string, unknown>;
  return { reference: fields.reference ?? fields.referenceId ?? fields.externalId, status: fields.status };
}

/**
 * The payment provider's callback (DESIGN §6): authenticated before anything else, idempotent on
 * the reference (a repeated, late or out-of-order callback changes nothing twice), PENDING recorded
 * and nothing settled.
 */
export default async function paymentsRoutes(app: FastifyInstance, options: { callbackAuth: CallbackAuth }) {
  const repo = transactionsRepository(app.db);
  const events = transactionEventsRepository(app.db);
  const settle = paymentSettlement(app.db, app.providers.sms, app.answerCache.dropCampaign);
  // Providers may post form-encoded; parsed inside this plugin only.
  await app.register(formBody);

  app.post(
    '/v1/payments/callback',
    {
      schema: {
        tags: ['ingestion'],
        summary: "The payment provider's callback",
        description:
          'The payment provider settles a payment. Authenticated by `X-Callback-Signature: sha256=<hex HMAC-SHA256 of the raw body with PAYMENT_CALLBACK_SECRET>`, checked before anything else (401 otherwise). Idempotent on `reference`.',
      },
      preParsing: authenticatedCallback(options.callbackAuth),
      config: {
        swaggerTransform: documentedBody(callbackSchema, {
          form: true,
          results: { type: 'object', properties: { _id: { type: 'string', format: 'uuid' } }, required: ['_id'] },
          errors: { 401: 'Missing or wrong X-Callback-Signature (PAYMENT_CALLBACK_SECRET)', 404: 'No payment with this reference' },
        }),
      },
    },
    async (request, reply) => {
      const { reference, status } = await validBody(callbackSchema, callbackFields(request.body));
      const call = await repo.findForSettlement(reference);
      if (!call) throw notFound('Payment');
      const actor = `provider:${app.providers.payment.name}`;
      const callback = {
        transactionId: call.id,
        kind: 'payment_callback' as const,
        actor,
        detail: { status },
        dedupeKey: `callback:${reference}:${status}:${callbackBodyHash(request)}`,
      };
      if (status === 'PENDING') {
        await events.record(callback);
        return ok(reply, 'Payment pending', { _id: call.id });
      }
      // The callback's event is recorded in the same statement that settles (one commit).
      const settled = await settle({ reference, status, actor, via: 'callback' }, call, [callback]);
      if (settled.result !== 'settled') return ok(reply, 'Payment already settled', { _id: call.id });
      return ok(reply, status === 'FAILED' ? 'Payment failed' : 'Payment recorded', { _id: call.id });
    },
  );
}
