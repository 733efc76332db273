import type { SwaggerTransform } from '@fastify/swagger';
import type { AnyObjectSchema } from 'yup';
import { documented, type RouteDocs } from '../openapi';

/** A path's `:id`, as `uuidParams` validates it. */
export type IdParams = { id: string };

export const uuidParams = {
  type: 'object',
  properties: { id: { type: 'string', format: 'uuid' } },
  required: ['id'],
} as const;

export const pagingQuery = {
  type: 'object',
  properties: {
    // Capped so that a huge page cannot overflow the SQL offset.
    page: { type: 'integer', minimum: 1, maximum: 1000000, default: 1 },
    limit: { type: 'integer', minimum: 1, maximum: 100 },
  },
} as const;

/** A list's `?page=&limit=`, as `pagingQuery` validates and coerces it. */
export type PagingQuery = { page?: number; limit?: number };

/**
 * Documents a yup-validated body (route `config.swaggerTransform`); kept for the routes that name
 * only their body. `documented` (openapi.ts) describes query, params and answers as well.
 */
export const documentedBody = (schema: AnyObjectSchema, docs: Omit<RouteDocs, 'body'> = {}): SwaggerTransform => documented({ ...docs, body: schema });
