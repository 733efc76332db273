import crypto from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { FastifyRequest, preParsingAsyncHookHandler } from 'fastify';
import { CALLBACK_SIGNATURE_HEADER, isSignedBy, SIGNATURE_SHAPE } from './callback-signature';
import { HttpError } from '../http/http-error';

declare module 'fastify' {
  interface FastifyRequest {
    /** The raw bytes of an authenticated callback's body. */
    callbackBody?: Buffer;
  }
}

/** Callback bodies are a few fields; anything larger is refused before it is held in memory. */
const CALLBACK_BODY_LIMIT = 16 * 1024;

/** How a provider's callback proves who sent it (DESIGN §4). */
export type CallbackAuth =
  /** X-Callback-Signature: sha256=<HMAC-SHA256 of the raw body with the secret>. */
  | { kind: 'signature'; secret: string }
  /** A token in the callback URL's query (`?token=`), for providers that sign nothing (Africa's Talking). */
  | { kind: 'query-token'; token: string };

function sameText(given: unknown, wanted: string): boolean {
  if (typeof given !== 'string') return false;
  // Hashed first, so the comparison takes the same time whatever the lengths.
  const digest = (text: string) => crypto.createHash('sha256').update(text).digest();
  return crypto.timingSafeEqual(digest(given), digest(wanted));
}

/** What can be checked before the body is read: the signature's shape, or the token itself. */
function plausible(auth: CallbackAuth, request: FastifyRequest): boolean {
  if (auth.kind === 'signature') return SIGNATURE_SHAPE.test(String(request.headers[CALLBACK_SIGNATURE_HEADER] ?? ''));
  return sameText((request.query as Record<string, unknown> | undefined)?.token, auth.token);
}

function authentic(auth: CallbackAuth, request: FastifyRequest, raw: Buffer): boolean {
  return auth.kind === 'query-token' || isSignedBy(request.headers[CALLBACK_SIGNATURE_HEADER], raw, auth.secret);
}

function refuse(auth: CallbackAuth, request: FastifyRequest): never {
  request.log.warn({ url: request.routeOptions.url, ip: request.ip, scheme: auth.kind }, 'unauthenticated callback refused');
  throw new HttpError(401, 'Unknown caller');
}

/**
 * A preParsing hook: reads the raw body bytes, checks the caller before anything is parsed,
 * validated or looked up, and hands the same bytes on to the body parser. An unauthenticated
 * callback is logged and answered 401; nothing else happens.
 */
export function authenticatedCallback(auth: CallbackAuth): preParsingAsyncHookHandler {
  return async function checkCaller(request, _reply, payload) {
    // A caller without a signature or token is refused before its body is read.
    if (!plausible(auth, request)) refuse(auth, request);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of payload) {
      size += (chunk as Buffer).length;
      if (size > CALLBACK_BODY_LIMIT) throw new HttpError(413, 'The callback body is too large');
      chunks.push(chunk as Buffer);
    }
    const raw = Buffer.concat(chunks);
    if (!authentic(auth, request, raw)) refuse(auth, request);
    request.callbackBody = raw;
    const replay = new PassThrough() as PassThrough & { receivedEncodedLength?: number };
    replay.receivedEncodedLength = raw.length;
    replay.end(raw);
    return replay;
  };
}

/** A short hash of a callback's raw body, so an identical callback repeated is recognised. */
export const callbackBodyHash = (request: FastifyRequest) =>
  crypto.createHash('sha256').update(request.callbackBody ?? Buffer.alloc(0)).digest('hex').slice(0, 16);
