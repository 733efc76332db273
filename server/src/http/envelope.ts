import type { FastifyReply } from 'fastify';
import type { FieldError } from '../../../src/domain/entities';
import { toPagedList } from '../../../src/domain/paged-list';

/** The success envelope (DESIGN §3). */
export function ok<T>(reply: FastifyReply, message: string, results: T, statusCode = 200) {
  return reply.code(statusCode).send({ status: true, message, results });
}

/** The success envelope's text around results that are JSON text already. */
export function envelopeJson(message: string, resultsJson: string) {
  return `{"status":true,"message":${JSON.stringify(message)},"results":${resultsJson}}`;
}

/**
 * The success envelope's text around a paged list whose docs arrive as JSON text (built by
 * PostgreSQL): the text goes into the body as it is, without being parsed and serialized again.
 */
export function pagedJson(message: string, docsJson: string, page: number, limit: number, total: number) {
  const { docs: _docs, ...rest } = toPagedList([], page, limit, total);
  return envelopeJson(message, `{"docs":${docsJson},${JSON.stringify(rest).slice(1)}`);
}

/** A 200 whose JSON body is ready: text, or bytes (a cached answer, sent without encoding it again). */
export function sendJson(reply: FastifyReply, body: string | Buffer) {
  return reply.code(200).type('application/json; charset=utf-8').send(body);
}

/** A paged list whose docs are JSON text, sent in the success envelope. */
export function okPagedJson(reply: FastifyReply, message: string, docsJson: string, page: number, limit: number, total: number) {
  return sendJson(reply, pagedJson(message, docsJson, page, limit, total));
}

/** Bounds of an error answer: it never grows with the input (DESIGN §4). */
const MESSAGE_MAX = 200;
const FIELD_MAX = 64;
const FIELD_ERRORS_BUDGET = 3000;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * The failure envelope (DESIGN §3), clipped so that no answer is more than a few kB whatever the request was.
 * A server error (5xx) also names its request (`requestId`, the answer's X-Request-Id), so support can
 * find the log lines of a failure a user quotes.
 */
export function failureBody(message: string, errors: FieldError[] = [], requestId?: string) {
  const kept: FieldError[] = [];
  let size = 0;
  for (const error of errors) {
    const clipped = { field: clip(String(error.field), FIELD_MAX), message: clip(String(error.message), MESSAGE_MAX) };
    size += clipped.field.length + clipped.message.length + 24;
    if (size > FIELD_ERRORS_BUDGET) break;
    kept.push(clipped);
  }
  return { status: false as const, message: clip(String(message), MESSAGE_MAX), errors: kept, ...(requestId === undefined ? {} : { requestId }) };
}
