import crypto from 'node:crypto';
import formBody from '@fastify/formbody';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as yup from 'yup';
import { documentedBody, HttpError, notFound, ok, validBody } from '../http';
import { contentsRepository } from '../repositories/contents-repository';
import { text } from '../../../src/domain/schemas/text';
import { transactionsRepository } from '../repositories/transactions-repository';

const paymentSchema = yup.object({
  reference: text(200).trim().required('reference is required'),
  status: text(20)
    .required('status is required')
    .oneOf(['SUCCESSFUL', 'FAILED'], 'status must be SUCCESSFUL or FAILED'),
});

/** With PAYMENT_CALLBACK_SECRET set, only the provider that knows it may settle payments. */
function checkSecret(request: FastifyRequest) {
  const secret = process.env.PAYMENT_CALLBACK_SECRET;
  if (!secret) return;
  const given = Buffer.from(String(request.headers['x-callback-secret'] ?? ''));
  const wanted = Buffer.from(secret);
  if (given.length !== wanted.length || !crypto.timingSafeEqual(given, wanted)) throw new HttpError(401, 'Unknown caller');
}

/** The payment provider's callback (DESIGN §6), idempotent on the reference. */
export default async function paymentsRoutes(app: FastifyInstance) {
  const repo = transactionsRepository(app.db);
  const contents = contentsRepository(app.db);
  // Providers may post form-encoded; parsed inside this plugin only.
  await app.register(formBody);

  app.post('/v1/payments/callback', { schema: { tags: ['ingestion'], summary: 'The payment provider\'s callback' }, config: { swaggerTransform: documentedBody(paymentSchema, { form: true, results: { type: 'object', properties: { _id: { type: 'string', format: 'uuid' } }, required: ['_id'] }, errors: { 401: 'Wrong x-callback-secret (PAYMENT_CALLBACK_SECRET)', 404: 'No payment with this reference' } }) } }, async (request, reply) => {
    checkSecret(request);
    const { reference, status } = await validBody(paymentSchema, request.body);
    const found = await repo.findByPaymentRef(reference);
    if (!found) throw notFound('Payment');

    if (status === 'FAILED') {
      const settled = await repo.settle(reference, { isDeleted: true, callbackTime: new Date() });
      return ok(reply, settled ? 'Payment failed' : 'Payment already settled', { _id: found.id });
    }

    const ticket = found.categoryId && found.categoryLevel ? await contents.activeMessage(found.categoryId, found.categoryLevel) : undefined;
    const settled = await repo.settle(reference, {
      isComplete: true,
      callbackTime: new Date(),
      ticketMessage: ticket ?? null,
      messageStatuses: ticket ? 'Sending' : 'No ticket content',
    });
    if (!settled) return ok(reply, 'Payment already settled', { _id: found.id });
    if (ticket) {
      // Only the callback that settled the payment sends the ticket, so a retry sends nothing twice.
      const sent = await app.providers.sms.send({ phoneNumber: settled.phoneNumber, message: ticket }).catch(() => ({ status: 'failed' as const }));
      await repo.setMessageStatus(settled.id, sent.status === 'failed' ? 'Failed' : 'Delivered');
    }
    return ok(reply, 'Payment recorded', { _id: found.id });
  });
}
