import type { FastifyInstance } from 'fastify';
import { SERVICE_CODE_PATTERN } from '../../../src/domain/schemas/catalogue';
import { readableCodes } from '../access/transaction-scope';
import type { SessionHolder } from '../auth/session-check';
import { HttpError } from '../http/http-error';
import { documented, textAnswer } from '../openapi';
import { bearerToken } from '../plugins/auth';
import type { LiveScope, LiveSession, LiveStreamsFull } from '../live/live-stream';

const STREAM_DESCRIPTION =
  'Server-sent events, scoped like the lists: `event: transaction` (a call created, or its status or resolve changed: `{ _id, name, phoneNumber, status, isResolved }`), ' +
  '`event: incident` (`{ _id, serviceCode, kind, state }`) and `event: resync` (changes may have been missed: read again). ' +
  'With `?serviceCode=` (repeated for several), only those codes\' calls are sent (within the scope; incidents are not narrowed). ' +
  'A `: ping` comment at least every 15 s. The stream ends when the access token expires, and within 5 s of its session ending (logout, a new password) or its holder\'s role or Afcon switch changing; ' +
  'the server replays nothing, so a client refetches what it shows whenever it (re)connects. A session holds a few streams at once (LIVE_STREAMS_PER_SESSION, 5 by default): past it, or past its user\'s or the server\'s limit, 429.';

const FULL: Record<LiveStreamsFull, string> = {
  session: 'This sign-in already follows as many live streams as it may: close a tab or another console',
  user: 'This user already follows as many live streams as it may: close a tab or sign out elsewhere',
  process: 'This server follows as many live streams as it can: try again in a minute',
};

/** The codes a screen shows: its stream carries their calls only (sending every console every code cost the push most of its CPU). */
const liveQuery = {
  type: 'object',
  properties: {
    serviceCode: { type: 'array', items: { type: 'string', maxLength: 50, pattern: SERVICE_CODE_PATTERN.source }, minItems: 1, maxItems: 50 },
  },
} as const;

/** `GET /v1/live` (DESIGN §7): the stream of changes a signed-in screen follows. */
export default async function liveRoutes(app: FastifyInstance) {
  const scopeOf = async ({ userId, role, isAfcon }: SessionHolder): Promise<LiveScope> => {
    const codes = await readableCodes(app.db, { id: userId, role, isAfcon });
    return { codes: codes ? new Set(codes) : undefined };
  };
  /** Refuses a stream past its session's, its user's or this process's limit. */
  const mustHaveRoom = (session: LiveSession) => {
    const full = app.live.stream.full(session);
    if (full) throw new HttpError(429, FULL[full]);
  };

  app.get(
    '/v1/live',
    {
      schema: { tags: ['live'], summary: 'Follow new calls, status and resolve changes, and incidents as they happen', querystring: liveQuery },
      // A HEAD would open a stream with no body to read.
      exposeHeadRoute: false,
      onRequest: [app.authenticate],
      // The Afcon-only account follows AFCON's calls.
      config: {
        afcon: true,
        swaggerTransform: documented({ answer: textAnswer('text/event-stream', STREAM_DESCRIPTION), errors: { 429: 'Too many live streams for this sign-in, this user or this server' } }),
      },
    },
    async (request, reply) => {
      const { user } = request;
      const { serviceCode: follow } = request.query as { serviceCode?: string[] };
      const holder: SessionHolder = { userId: user.id, userName: user.userName, role: user.role, isAfcon: user.isAfcon, twoFactorEnabled: user.twoFactorEnabled };
      const session = { id: user.sessionId, holder };
      mustHaveRoom(session);
      const scope = await scopeOf(holder);
      // Again with nothing awaited before add(): streams asked for at once all pass the first check while their scopes are read.
      mustHaveRoom(session);
      // authenticate took the token, so the header holds one.
      const exp = app.jwt.decode<{ exp?: number }>(bearerToken(request.headers.authorization)!)?.exp;
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
        session,
        refreshScope: (now = holder) => scopeOf(now),
      });
    },
  );
}
