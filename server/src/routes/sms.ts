import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { parsePaging, toPagedList } from '../../../src/domain/paged-list';
import { isManager } from '../../../src/domain/roles';
import { normalizePhoneNumber } from '../../../src/domain/phone';
import { smsSchema } from '../../../src/domain/schemas/catalogue';
import { authenticatedCallback, type CallbackAuth } from '../ingestion/callback-auth';
import { ok } from '../http/envelope';
import { HttpError } from '../http/http-error';
import { pagingQuery, type PagingQuery } from '../http/route-schemas';
import { validBody } from '../http/valid-body';
import { text } from '../../../src/domain/schemas/text';
import { auditedSms } from '../audit/audited-records';
import { auditWho, recordChange } from '../audit/record-audit';
import { documented, results } from '../openapi';
import { deliveryStatusOf } from '../providers/africastalking-sms';
import type { SmsSendResult } from '../providers/sms';
import { smsRepository } from '../repositories/sms-repository';

const FINAL_STATUSES = new Set(['delivered', 'failed']);

/** An Africa's Talking delivery report; other fields of the form are ignored. */
const deliveryReportSchema = yup.object({
  id: text(200).trim().required('id is required'),
  status: text(50).required('Unknown delivery status'),
  failureReason: text(200).optional(),
});

/**
 * `deliveryReportAuth`: how a delivery report proves its sender (DESIGN §4). Africa's Talking signs
 * nothing, so with SMS_PROVIDER=africastalking its callback URL carries AT_CALLBACK_TOKEN
 * (`?token=`); any other sender signs the body like a payment callback.
 */
export default async function smsRoutes(app: FastifyInstance, options: { deliveryReportAuth: CallbackAuth }) {
  const repo = smsRepository(app.db);

  // Africa's Talking posts delivery reports as a form; scoped to this plugin.
  if (!app.hasContentTypeParser('application/x-www-form-urlencoded')) {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(String(body))));
    });
  }

  app.get<{ Querystring: PagingQuery }>(
    '/v1/sms',
    {
      schema: { tags: ['sms'], summary: 'List the SMS sent (an agent sees its own)', querystring: pagingQuery },
      onRequest: [app.authenticate],
      config: { swaggerTransform: documented({ results: results.page('SmsRecord') }) },
    },
    async (request, reply) => {
      const { page, limit, offset } = parsePaging(request.query);
      const userId = isManager(request.user.role) ? undefined : request.user.id;
      const { docs, total } = await repo.list({ offset, limit, userId });
      return ok(reply, 'Messages', toPagedList(docs, page, limit, total));
    },
  );

  app.post(
    '/v1/sms',
    {
      schema: { tags: ['sms'], summary: 'Send one SMS' },
      onRequest: [app.authenticate, app.refuseCustomerCare],
      config: { swaggerTransform: documented({ body: smsSchema, results: results.entity('SmsRecord'), status: 201, errors: { 502: 'The SMS gateway refused or failed to send it' } }) },
    },
    async (request, reply) => {
      // The number in the API's one form first (+256…, 00256…, 0… are 256…); SPEC's rule then holds it to 2567xxxxxxxx.
      const body = request.body as Record<string, unknown> | null;
      const phoneNumber = body && typeof body === 'object' && typeof body.phoneNumber === 'string' ? normalizePhoneNumber(body.phoneNumber) : body?.phoneNumber;
      const input = await validBody(smsSchema, body && typeof body === 'object' ? { ...body, phoneNumber } : body);
      // The row is the outbox: it exists before the gateway is asked, so nothing sent goes unrecorded.
      const row = await app.db.transaction(async (tx) => {
        const queued = await smsRepository(tx).create({
          userId: request.user.id,
          phoneNumber: input.phoneNumber,
          message: input.message,
          categoryLevel: input.categoryLevel,
          status: 'queued',
          provider: app.providers.sms.name,
        });
        await recordChange(tx, auditWho(request), 'sms.send', { after: auditedSms(queued) });
        return queued;
      });
      let result: SmsSendResult;
      try {
        result = await app.providers.sms.send({ phoneNumber: input.phoneNumber, message: input.message });
      } catch (error) {
        result = { status: 'failed', providerRef: null, failureReason: (error as Error).message };
      }
      await repo.update(row.id, { status: result.status, providerRef: result.providerRef, failureReason: result.failureReason ?? null });
      if (result.status === 'failed') throw new HttpError(502, 'Unable to send sms');
      return ok(reply, 'Successfully sent the message!', await repo.findView(row.id), 201);
    },
  );

  /**
   * Delivery reports, authenticated before their body is read. They land on the SMS they report:
   * a row of the SMS screen, or a call's ticket SMS (found by ticketSmsRef), whose status moves
   * to 'Delivered' or 'Failed' with an 'sms_delivery' event on its timeline. Unknown ids are
   * acknowledged and ignored.
   */
  app.post(
    '/v1/sms/delivery-report',
    {
      schema: { tags: ['sms'], summary: 'Delivery report of an SMS (signed, or with the Africa\'s Talking token)' },
      preParsing: authenticatedCallback(options.deliveryReportAuth),
      config: { swaggerTransform: documented({ body: deliveryReportSchema, form: true }) },
    },
    async (request, reply) => {
      const { id, status: reported, failureReason: reason } = await validBody(deliveryReportSchema, request.body);
      const status = deliveryStatusOf(reported);
      if (!status) throw new HttpError(400, 'Unknown delivery status', [{ field: 'status', message: 'Unknown delivery status' }]);
      const failureReason = status === 'failed' ? (reason ?? null) : null;

      const row = await repo.findByProviderRef(id);
      // Reports may repeat or arrive out of order: a final status is never stepped back to 'sent'.
      if (row && !(FINAL_STATUSES.has(row.status) && status === 'sent')) await repo.update(row.id, { status, failureReason });

      const ticket = await app.ingestion.tickets.landDeliveryReport({ providerRef: id, reported, delivery: status, failureReason });
      return ok(reply, row || ticket ? 'Recorded' : 'Ignored', null);
    },
  );
}
