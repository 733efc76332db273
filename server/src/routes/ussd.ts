import crypto from 'node:crypto';
import formBody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { CATEGORY_LEVELS, categoryLevelLabel } from '../../../src/domain/category-levels';
import { formatMoney } from '../../../src/domain/format';
import { normalizePhoneNumber } from '../../../src/domain/phone';
import { documentedBody, validBody } from '../http';
import { serviceCodesRepository } from '../repositories/service-codes-repository';
import { text } from '../../../src/domain/schemas/text';
import { transactionsRepository } from '../repositories/transactions-repository';

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
  phoneNumber: text(20).trim().required('phoneNumber is required'),
  networkCode: text(20).trim().optional(),
  text: text(500).optional().default(''),
});

/** The mobile network's USSD callback (DESIGN §6): a menu of priced levels, then a payment prompt. */
export default async function ussdRoutes(app: FastifyInstance) {
  const repo = transactionsRepository(app.db);
  const serviceCodes = serviceCodesRepository(app.db);
  // Callbacks arrive form-encoded (Africa's Talking); parsed inside this plugin only.
  await app.register(formBody);

  app.post('/v1/ussd/callback', { schema: { tags: ['ingestion'], summary: 'The mobile network\'s USSD callback' }, config: { swaggerTransform: documentedBody(ussdSchema, { form: true, answer: { contentType: 'text/plain', description: 'The next USSD screen: CON to go on, END to close' } }) } }, async (request, reply) => {
    const input = await validBody(ussdSchema, request.body);
    const answer = (text: string) => reply.type('text/plain; charset=utf-8').send(text);
    const prompt = (amount: number | null) => answer(`END You will receive a prompt to pay UGX ${formatMoney(amount ?? 0)}`);

    const already = await repo.findBySession(input.sessionId);
    if (already) return prompt(already.amount);

    const found = await serviceCodes.findWithCategory(input.serviceCode);
    const category = found?.category;
    if (!category) return answer('END This service is not available');
    const priced = CATEGORY_LEVELS.filter((level) => (category[level] ?? 0) > 0);
    if (priced.length === 0) return answer('END This service is not available');

    const choice = (input.text ?? '').split('*')[0].trim();
    if (choice === '') {
      const lines = priced.map((level, i) => `${i + 1}. ${categoryLevelLabel(level)} UGX ${formatMoney(category[level])}`);
      return answer(`CON Choose your ticket\n${lines.join('\n')}`);
    }
    const level = priced[Number(choice) - 1];
    if (!/^\d+$/.test(choice) || !level) return answer('END Invalid choice');

    const amount = category[level] ?? 0;
    const phoneNumber = normalizePhoneNumber(input.phoneNumber);
    const created = await repo.createPending({
      sessionId: input.sessionId,
      serviceCode: found.code.name,
      phoneNumber,
      network: networkName(input.networkCode),
      categoryId: category.id,
      categoryLevel: level,
      amount,
      paymentRef: crypto.randomUUID(),
    });
    if (!created) return answer('END Please try again');
    try {
      const collected = await app.providers.payment.collect({ reference: created.paymentRef!, phoneNumber, amount });
      if (!collected.accepted) await repo.markFailed(created.id);
    } catch (error) {
      request.log.error({ err: error }, 'payment collection failed');
      await repo.markFailed(created.id);
      return answer('END Payment is unavailable, please try again later');
    }
    return prompt(created.amount);
  });
}
