import formBody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import * as yup from 'yup';
import { normalizePhoneNumber } from '../../../src/domain/phone';
import { text } from '../../../src/domain/schemas/text';
import { documentedBody, validBody } from '../http';

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

/** The mobile network's USSD callback (DESIGN §6): bad input is a 400, every other hop is answered by the ingestion wing. */
export default async function ussdRoutes(app: FastifyInstance) {
  // Callbacks arrive form-encoded (Africa's Talking); parsed inside this plugin only.
  await app.register(formBody);

  app.post(
    '/v1/ussd/callback',
    {
      schema: { tags: ['ingestion'], summary: "The mobile network's USSD callback" },
      config: { swaggerTransform: documentedBody(ussdSchema, { form: true, answer: { contentType: 'text/plain', description: 'The next USSD screen: CON to go on, END to close' } }) },
    },
    async (request, reply) => {
      const hop = await validBody(ussdSchema, request.body);
      const answer = await app.ingestion.answerHop({ ...hop, text: hop.text ?? '' });
      return reply.type('text/plain; charset=utf-8').send(answer);
    },
  );
}
