import type { FastifyReply } from 'fastify';
import type { AnyObjectSchema, InferType } from 'yup';
import type { FieldError } from '../../src/domain/entities';
import { validate } from '../../src/domain/validation';

/** An error a route means to answer with; the error handler shapes it into the envelope. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors: FieldError[] = [],
  ) {
    super(message);
  }
}

export const notFound = (what: string) => new HttpError(404, `${what} not found`);
export const forbidden = (message = 'You are not allowed to do this') => new HttpError(403, message);

/** The success envelope (DESIGN §3). */
export function ok<T>(reply: FastifyReply, message: string, results: T, statusCode = 200) {
  return reply.code(statusCode).send({ status: true, message, results });
}

/** Validates a body with a domain schema; a bad body is a 400 with SPEC's words per field. */
export async function validBody<S extends AnyObjectSchema>(schema: S, body: unknown): Promise<InferType<S>> {
  const result = await validate(schema, body);
  if (!result.ok) throw new HttpError(400, result.errors[0]?.message ?? 'Invalid input', result.errors);
  return result.value;
}

/** True when a PostgreSQL error is a unique-constraint violation. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

export const uuidParams = {
  type: 'object',
  properties: { id: { type: 'string', format: 'uuid' } },
  required: ['id'],
} as const;

export const pagingQuery = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, default: 1 },
    limit: { type: 'integer', minimum: 1, maximum: 100 },
  },
} as const;
