import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { hasLoneSurrogate, INVALID_VALUE } from '../../../src/domain/schemas/text';
import { HttpError } from '../http/http-error';

/** Deeper than any body, query or parameter a route takes; yup and error printers recurse. */
export const MAX_INPUT_DEPTH = 8;

const unacceptableText = (text: string) => text.includes('\u0000') || hasLoneSurrogate(text);

/**
 * The field of a request part (params, query or body) holding what no route takes, or undefined:
 * NUL, which PostgreSQL text cannot hold (it was a 500 wherever it reached a query), a lone
 * surrogate, or nesting deeper than MAX_INPUT_DEPTH. Walked without recursion, so any depth is safe.
 */
export function unacceptableField(input: unknown): string | undefined {
  if (typeof input === 'string') return unacceptableText(input) ? '' : undefined;
  if (input === null || typeof input !== 'object') return undefined;
  const pending: { value: unknown; field: string; depth: number }[] = [{ value: input, field: '', depth: 0 }];
  while (pending.length > 0) {
    const { value, field, depth } = pending.pop()!;
    if (typeof value === 'string') {
      if (unacceptableText(value)) return field;
    } else if (value !== null && typeof value === 'object') {
      if (depth >= MAX_INPUT_DEPTH) return field;
      for (const [key, inner] of Object.entries(value)) {
        if (unacceptableText(key)) return field || '';
        pending.push({ value: inner, field: depth === 0 ? key : field, depth: depth + 1 });
      }
    }
  }
  return undefined;
}

/** Refuses such input on every route, before its own validation, with a field error (DESIGN §4). */
export default fp(async function inputGuard(app: FastifyInstance) {
  app.addHook('preValidation', (request, _reply, done) => {
    for (const part of [request.params, request.query, request.body]) {
      const field = unacceptableField(part);
      if (field !== undefined) return done(new HttpError(400, INVALID_VALUE, [{ field, message: INVALID_VALUE }]));
    }
    done();
  });
});
