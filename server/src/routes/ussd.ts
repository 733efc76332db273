import formBody from '@fastify/formbody';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import * as yup from 'yup';
import { normalizePhoneNumber } from '../../../src/domain/phone';
import { text } from '../../../src/domain/schemas/text';
import { sourceList } from '../config';
import { HttpError } from '../http/http-error';
import { documentedBody } from '../http/route-schemas';
import { validBody } from '../http/valid-body';
import { authenticatedCallback } from '../ingestion/callback-auth';

/** Africa's Talking's USSD form; `text` is every answer so far joined by `*`, a few dozen characters in practice. */
const ussdSchema = yup.object({
  sessionId: text(200).trim().required('sessionId is required'),
  serviceCode: text(50).trim().required('serviceCode is required'),
  phoneNumber: text(20)
    .trim()
    .required('phoneNumber is required')
    .test('phone', 'phoneNumber must be a phone number', (value) => !value || /^\d{9,15}$/.test(normalizePhoneNumber(value))),
  // The operator's MCC and MNC (64110 is MTN Uganda); shown in the Network column.
  networkCode: text(6)
    .trim()
    .optional()
    .test('mcc-mnc', 'networkCode must be a mobile network code (5 or 6 digits)', (value) => !value || /^\d{5,6}$/.test(value)),
  text: text(500).optional().default(''),
});

export interface UssdDoor {
  /** USSD_CALLBACK_TOKEN: the callback URL's `?token=`, checked before the body is read. */
  token: string;
  /** USSD_ALLOWED_SOURCES: where callbacks may come from; any address when unset. */
  allowedSources?: string[];
}

/**
 * The mobile network's USSD callback (DESIGN §4, §6): from an allowed source (403 otherwise), with
 * the token in its URL (401 otherwise, nothing read or recorded), as Africa's Talking's form (415 for
 * anything else); bad input is a 400, every other hop is answered by the ingestion wing.
 */
export default async function ussdRoutes(app: FastifyInstance, door: UssdDoor) {
  // Callbacks arrive form-encoded (Africa's Talking), and only so: this plugin parses nothing else.
  app.removeAllContentTypeParsers();
  await app.register(formBody);
  const sources = door.allowedSources ? sourceList(door.allowedSources) : undefined;
  const fromAllowedSource = async (request: FastifyRequest) => {
    if (sources && !sources.check(request.ip, request.ip.includes(':') ? 'ipv6' : 'ipv4')) {
      request.log.warn({ ip: request.ip }, 'USSD callback from a source not allowed');
      throw new HttpError(403, 'Unknown source');
    }
  };

  app.post(
    '/v1/ussd/callback',
    {
      schema: {
        tags: ['ingestion'],
        summary: "The mobile network's USSD callback",
        description: 'Authenticated by `?token=<USSD_CALLBACK_TOKEN>` in the URL (401 otherwise), optionally from USSD_ALLOWED_SOURCES only (403). A form, as Africa\'s Talking posts it.',
        querystring: { type: 'object', properties: { token: { type: 'string' } } },
      },
      onRequest: fromAllowedSource,
      preParsing: authenticatedCallback({ kind: 'query-token', token: door.token }),
      config: { swaggerTransform: documentedBody(ussdSchema, { form: 'only', errors: { 403: 'From an address outside USSD_ALLOWED_SOURCES' }, answer: { contentType: 'text/plain', description: 'The next USSD screen: CON to go on, END to close' } }) },
    },
    async (request, reply) => {
      const hop = await validBody(ussdSchema, request.body);
      const answer = await app.ingestion.answerHop({ ...hop, text: hop.text ?? '' });
      return reply.type('text/plain; charset=utf-8').send(answer);
    },
  );
}
