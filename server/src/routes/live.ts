import type { FastifyInstance } from 'fastify';
import { SERVICE_CODE_PATTERN } from '../../../src/domain/schemas/catalogue';
import { readableCodes } from '../access/transaction-scope';
import { documented, textAnswer } from '../openapi';
import type { LiveScope } from '../live/live-stream';

const STREAM_DESCRIPTION =
  'Server-sent events, scoped like the lists: `event: transaction` (a call created, or its status or resolve changed: `{ _id, name, phoneNumber, status, isResolved }`), ' +
  '`event: incident` (`{ _id, serviceCode, kind, state }`) and `event: resync` (changes may have been missed: read again). ' +
  'With `?serviceCode=` (repeated for several), only those codes\' calls are sent (within the scope; incidents are not narrowed). ' +
  'A `: ping` comment at least every 15 s. The stream ends when the access token expires; the server replays nothing, so a client refetches what it shows whenever it (re)connects.';

/** The codes a screen shows: its stream carries their calls only (every console heard every code, issue 23's push cost). */
const liveQuery = {
  type: 'object',
  properties: {
    serviceCode: { type: 'array', items: { type: 'string', maxLength: 50, pattern: SERVICE_CODE_PATTERN.source }, minItems: 1, maxItems: 50 },
  },
} as const;

/** `GET /v1/live` (issue 23, DESIGN §7): the stream of changes a signed-in screen follows. */
export default async function liveRoutes(app: FastifyInstance) {
  const scopeOf = async (user: Parameters<typeof readableCodes>[1]): Promise<LiveScope> => {
    const codes = await readableCodes(app.db, user);
    return { codes: codes ? new Set(codes) : undefined };
  };

  app.get(
    '/v1/live',
    {
      schema: { tags: ['live'], summary: 'Follow new calls, status and resolve changes, and incidents as they happen', querystring: liveQuery },
      // A HEAD would open a stream with no body to read.
      exposeHeadRoute: false,
      onRequest: [app.authenticate],
      // The Afcon-only account follows AFCON's calls.
      config: { afcon: true, swaggerTransform: documented({ answer: textAnswer('text/event-stream', STREAM_DESCRIPTION) }) },
    },
    async (request, reply) => {
      const { user } = request;
      const { serviceCode: follow } = request.query as { serviceCode?: string[] };
      const scope = await scopeOf(user);
      const token = request.headers.authorization?.replace(/^Bearer\s+/i, '') ?? '';
      const exp = app.jwt.decode<{ exp?: number }>(token)?.exp;
      reply.hijack();
      reply.raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        // Proxies (nginx) must pass each event on at once rather than buffer the answer.
        'x-accel-buffering': 'no',
      });
      app.live.stream.add({
        sink: reply.raw,
        scope,
        follow: follow ? new Set(follow) : undefined,
        expiresAt: exp ? exp * 1000 : undefined,
        refreshScope: () => scopeOf(user),
      });
    },
  );
}
