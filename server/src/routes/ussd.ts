import crypto from 'node:crypto';
import formBody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { normalizePhoneNumber } from '../../../src/domain/phone';
import { text } from '../../../src/domain/schemas/text';
import { documentedBody, validBody } from '../http';
import { PaymentProviderUnavailable } from '../providers/payment';
import { transactionEventsRepository } from '../repositories/transaction-events-repository';
import { transactionsRepository } from '../repositories/transactions-repository';
import { ussdRepository, type LoadedService, type UssdMenuCache } from '../repositories/ussd-repository';
import { USSD_REPLIES, ussdMenu, voteCapReply, type UssdAction } from '../ussd-menu';

/** Network operators by mobile network code (MCC 641, Uganda). */
const NETWORKS: Record<string, string> = { '64110': 'MTN', '64101': 'Airtel', '64111': 'UTL', '64114': 'Africell' };

export function networkName(networkCode: string | undefined): string {
  if (!networkCode) return 'Unknown';
  return NETWORKS[networkCode] ?? (/^\d+$/.test(networkCode) ? `Network ${networkCode}` : networkCode);
}

/** Africa's Talking's USSD form; `text` is every answer so far joined by `*`, a few dozen characters in practice. */
const ussdSchema = yup.object({
  sessionId: text(200).trim().required('sessionId is required'),
  serviceCode: text(50).trim().required('serviceCode is required'),
  phoneNumber: text(20)
    .trim()
    .required('phoneNumber is required')
    .test('phone', 'phoneNumber must be a phone number', (value) => !value || /^\d{9,15}$/.test(normalizePhoneNumber(value))),
  networkCode: text(20).trim().optional(),
  text: text(500).optional().default(''),
});

type UssdInput = yup.InferType<typeof ussdSchema>;

/**
 * The mobile network's USSD callback (DESIGN §6). The menu comes from the accumulated `text`
 * alone (ussd-menu.ts); a confirmed choice creates the pending call and requests its payment.
 * Every hop is recorded once on the call's timeline. Bad input is a 400; anything else that goes
 * wrong ends the session politely rather than with a 500.
 */
export default async function ussdRoutes(app: FastifyInstance, options: { menuCache?: UssdMenuCache }) {
  const ussd = ussdRepository(app.db, options.menuCache);
  const calls = transactionsRepository(app.db);
  const events = transactionEventsRepository(app.db);
  // Callbacks arrive form-encoded (Africa's Talking); parsed inside this plugin only.
  await app.register(formBody);

  /** Creates the call a confirmed menu asked for (once per session) and asks the provider to collect. */
  async function placeCall(input: UssdInput, loaded: LoadedService, action: UssdAction, confirmed: string) {
    const phoneNumber = normalizePhoneNumber(input.phoneNumber);
    const vote = action.kind === 'vote' ? action : null;
    const cap = loaded.service.kind === 'campaign' ? loaded.service.cap : null;
    const provider = app.providers.payment;
    const result = await ussd.createCall(
      {
        sessionId: input.sessionId,
        serviceCode: loaded.serviceCode,
        phoneNumber,
        network: networkName(input.networkCode),
        categoryId: loaded.categoryId,
        categoryLevel: vote ? loaded.voteLevel : action.kind === 'purchase' ? action.level : null,
        amount: action.amount,
        // Stored before the provider is asked, so a callback or a status poll always finds the call.
        paymentRef: crypto.randomUUID(),
        ...(vote ? { campaignKey: loaded.campaignKey, round: vote.round, teamName: vote.teamName, teamName2: vote.teamName2 } : {}),
      },
      { detail: { amount: action.amount, provider: provider.name } },
      vote && cap !== null && loaded.campaignKey ? { cap, campaignKey: loaded.campaignKey, round: vote.round, phoneNumber } : undefined,
    );
    if (result.capped) return { reply: voteCapReply(cap!, vote!.round), transactionId: null };
    const { call } = result;
    // The network repeating the confirming hop gets the same answer and requests nothing twice.
    if (!result.created) return { reply: confirmed, transactionId: call.id };

    // The session's hops are attached to the new call and its 'payment_requested' recorded with it.
    try {
      const collected = await provider.collect({ reference: call.paymentRef!, phoneNumber, amount: action.amount });
      if (collected.accepted) return { reply: confirmed, transactionId: call.id };
      await calls.markFailed(call.id);
    } catch (error) {
      // An unknown outcome may still have reached the customer's phone: failing the call could leave
      // a charged customer without a ticket, so it stays pending and the sweeper asks the provider.
      if (error instanceof PaymentProviderUnavailable) {
        app.log.warn({ err: error, transactionId: call.id }, 'payment request outcome unknown; left pending for the sweeper');
        return { reply: USSD_REPLIES.paymentUnconfirmed, transactionId: call.id };
      }
      app.log.error({ err: error }, 'payment collection failed');
      await calls.markFailed(call.id);
    }
    return { reply: USSD_REPLIES.paymentUnavailable, transactionId: call.id };
  }

  app.post('/v1/ussd/callback', { schema: { tags: ['ingestion'], summary: 'The mobile network\'s USSD callback' }, config: { swaggerTransform: documentedBody(ussdSchema, { form: true, answer: { contentType: 'text/plain', description: 'The next USSD screen: CON to go on, END to close' } }) } }, async (request, reply) => {
    const input = await validBody(ussdSchema, request.body);
    const answer = (message: string) => reply.type('text/plain; charset=utf-8').send(message);
    const answers = input.text ?? '';
    try {
      const loaded = await ussd.loadService(input.serviceCode, normalizePhoneNumber(input.phoneNumber), input.sessionId);
      const menu = ussdMenu(loaded?.service ?? null, answers);
      const placed = menu.action && loaded ? await placeCall(input, loaded, menu.action, menu.reply) : { reply: menu.reply, transactionId: null };
      await events.record({
        kind: 'ussd_hop',
        actor: 'customer',
        sessionId: input.sessionId,
        transactionId: placed.transactionId,
        detail: { input: answers.split('*').pop() ?? '', reply: placed.reply },
        dedupeKey: `hop:${input.sessionId}:${answers}`,
      });
      return answer(placed.reply);
    } catch (error) {
      request.log.error({ err: error }, 'USSD hop failed');
      return answer(USSD_REPLIES.busy);
    }
  });
}
