import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { eventually } from './helpers';

/** One server-sent event as a client reads it. */
export interface ReadEvent {
  id?: string;
  event: string;
  data: Record<string, unknown>;
}

/** The address of an app listening on a free port (once per app). */
export async function listening(app: FastifyInstance): Promise<string> {
  const address = app.server.address();
  if (address && typeof address === 'object') return `http://127.0.0.1:${address.port}`;
  await app.listen({ port: 0, host: '127.0.0.1' });
  return listening(app);
}

/**
 * Follows `GET /v1/live` as the SPA does (the token in the Authorization header, the body read as
 * it comes): the events and comment lines read so far, and whether the server ended the stream.
 * Node's own HTTP client, so that closing it leaves no spare connection behind (fetch's pool may open one).
 */
export async function follow(baseUrl: string, headers: Record<string, string>, path = '/v1/live') {
  const events: ReadEvent[] = [];
  const comments: string[] = [];
  let ended = false;
  let buffer = '';
  const request = http.get(`${baseUrl}${path}`, { headers, agent: false });
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => request.on('response', resolve).on('error', reject));
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => {
    buffer += chunk;
    for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const fields: Record<string, string> = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) comments.push(line.slice(1).trim());
        else {
          const at = line.indexOf(':');
          fields[line.slice(0, at)] = line.slice(at + 1).trimStart();
        }
      }
      if (fields.event) events.push({ id: fields.id, event: fields.event, data: JSON.parse(fields.data ?? '{}') });
    }
  });
  const reading = new Promise<void>((resolve) => {
    response.on('close', () => {
      ended = true;
      resolve();
    });
  });
  return {
    response,
    events,
    comments,
    get ended() {
      return ended;
    },
    /** The `transaction` events of one call, oldest first. */
    callEvents: (id: string) => events.filter((event) => event.event === 'transaction' && event.data._id === id).map((event) => event.data),
    /** Waits for an event that passes `match`. */
    async waitFor(match: (event: ReadEvent) => boolean) {
      await eventually(() => events.some(match));
      return events.find(match)!;
    },
    async close() {
      request.destroy();
      await reading;
    },
  };
}

export type Follower = Awaited<ReturnType<typeof follow>>;
