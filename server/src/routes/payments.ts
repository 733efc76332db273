import formBody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { text } from '../../../src/domain/schemas/text';
import { authenticatedCallback, callbackBodyHash, type CallbackAuth } from '../ingestion/callback-auth';
import { ok } from '../http/envelope';
import { notFound } from '../http/http-error';
import { documentedBody } from '../http/route-schemas';
import { validBody } from '../http/valid-body';
import { FAILURE_REASON_MAX, providerFailureReason } from '../providers/payment';

const STATUSES = ['SUCCESSFUL', 'FAILED', 'PENDING'] as const;

const callbackSchema = yup.object({
  reference: text(200).trim().required('reference is required'),
  status: text(20)
    .transform((value: unknown) => (typeof value === 'string' ? value.trim().toUpperCase() : value))
    .required('status is required')
    .oneOf([...STATUSES], 'status must be SUCCESSFUL, FAILED or PENDING'),
  reason: text(FAILURE_REASON_MAX).nullable(),
});

/** A refund's callback names our refund reference instead of a payment's. */
const refundCallbackSchema = yup.object({
  refundReference: text(200).trim().required('refundReference is required'),
  status: callbackSchema.fields.status,
});

const isRefundCallback = (body: unknown) => !!body && typeof body === 'object' && !Array.isArray(body) && (body as Record<string, unknown>).refundReference !== undefined;

const REFUND_ANSWERS = { pending: 'Refund pending', already_settled: 'Refund already settled', completed: 'Refund completed', failed: 'Refund failed' } as const;

/** Providers name the reference differently (MoMo's callback carries our externalId); other fields but `reason` are ignored. */
function callbackFields(body: unknown) {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const fields = body as Record<string, unknown>;
  // The reason a provider gives for a failure is kept as words, whatever shape it comes in.
  return { reference: fields.reference ?? fields.referenceId ?? fields.externalId, status: fields.status, reason: providerFailureReason(fields.reason) };
}

const ANSWERS = { pending: 'Payment pending', already_settled: 'Payment already settled', SUCCESSFUL: 'Payment recorded', FAILED: 'Payment failed' } as const;

/**
 * The payment provider's callback (DESIGN §6): authenticated before anything else, then handed to
 * the settlement, idempotent on the reference (a repeated, late or out-of-order callback changes
 * nothing twice).
 */
export default async function paymentsRoutes(app: FastifyInstance, options: { callbackAuth: CallbackAuth }) {
  // Providers may post form-encoded; parsed inside this plugin only.
  await app.register(formBody);

  app.post(
    '/v1/payments/callback',
    {
      schema: {
        tags: ['ingestion'],
        summary: "The payment provider's callback",
        description:
          'The payment provider settles a payment, or a refund when the body carries `refundReference` (the refund\'s `providerRef`; `_id` is then the refund\'s). Authenticated by `X-Callback-Signature: sha256=<hex HMAC-SHA256 of the raw body with PAYMENT_CALLBACK_SECRET>`, checked before anything else (401 otherwise). Idempotent on `reference`.',
      },
      preParsing: authenticatedCallback(options.callbackAuth),
      config: {
        swaggerTransform: documentedBody(callbackSchema, {
          form: true,
          results: { type: 'object', properties: { _id: { type: 'string', format: 'uuid' } }, required: ['_id'] },
          errors: { 401: 'Missing or wrong X-Callback-Signature (PAYMENT_CALLBACK_SECRET)', 404: 'No payment (or refund) with this reference' },
        }),
      },
    },
    async (request, reply) => {
      if (isRefundCallback(request.body)) {
        const { refundReference, status } = await validBody(refundCallbackSchema, request.body);
        const outcome = await app.ingestion.refunds.receiveCallback(refundReference, status as (typeof STATUSES)[number], app.ingestion.payment.name);
        if (!outcome) throw notFound('Refund');
        const message = outcome.result === 'settled' ? REFUND_ANSWERS[outcome.state] : REFUND_ANSWERS[outcome.result];
        return ok(reply, message, { _id: outcome.refund.id });
      }
      const { reference, status, reason } = await validBody(callbackSchema, callbackFields(request.body));
      const outcome = await app.ingestion.receiveCallback({ reference, status: status as (typeof STATUSES)[number], failureReason: reason ?? null, bodyHash: callbackBodyHash(request) });
      if (!outcome || outcome.result === 'unknown') throw notFound('Payment');
      const message = outcome.result === 'settled' ? ANSWERS[outcome.status] : ANSWERS[outcome.result];
      return ok(reply, message, { _id: outcome.transactionId });
    },
  );
}
