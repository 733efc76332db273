import { Readable } from 'node:stream';
import type { SwaggerTransform } from '@fastify/swagger';
import type { FastifyReply } from 'fastify';
import type { AnyObjectSchema, InferType } from 'yup';
import type { FieldError } from '../../src/domain/entities';
import { toPagedList } from '../../src/domain/paged-list';
import { INVALID_VALUE } from '../../src/domain/schemas/text';
import { validate } from '../../src/domain/validation';
import { documented, type RouteDocs } from './openapi';

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

/** The last line of a CSV download that failed part way, so nobody takes a cut file for the whole. */
export const CSV_FAILED_LINE = 'ERROR: the export failed part way, this file is incomplete; please download it again\r\n';

export interface CsvDownload<T> {
  file: string;
  header: string;
  chunks: AsyncIterable<T[]>;
  line: (row: T) => string;
}

/** Rows an export reads per query: a few milliseconds of the embedded database's one thread each. */
export const CSV_CHUNK_ROWS = 500;

/** The export whose chunk is being read and written; every other waits its turn. */
let exportTurn: Promise<unknown> = Promise.resolve();

/**
 * Runs one export chunk (its query and its CSV text) when the exports before it are done and
 * after the requests already waiting have started (setImmediate runs after pending I/O), so
 * however many exports run, a USSD hop's query waits behind one chunk at most (DESIGN §4).
 */
export function inTurn<T>(work: () => Promise<T>): Promise<T> {
  const turn = exportTurn.then(() => new Promise((resolve) => setImmediate(resolve))).then(work);
  exportTurn = turn.catch(() => undefined);
  return turn;
}

/**
 * Sends a CSV download from chunks of rows (of CSV_CHUNK_ROWS), each read and written in its turn
 * (`inTurn`). The first chunk is read before the first byte, so a query that fails at once gets an
 * error answer instead of a 200; one that fails later ends the file with CSV_FAILED_LINE rather
 * than a silently truncated file.
 */
export async function sendCsv<T>(reply: FastifyReply, download: CsvDownload<T>) {
  const rows = download.chunks[Symbol.asyncIterator]();
  const nextText = () =>
    inTurn(async () => {
      const next = await rows.next();
      return next.done ? undefined : next.value.map(download.line).join('');
    });
  const first = await nextText();
  async function* csv() {
    yield download.header;
    try {
      for (let text = first; text !== undefined; text = await nextText()) yield text;
    } catch (error) {
      reply.log.error({ err: error }, 'CSV export failed part way');
      yield CSV_FAILED_LINE;
    }
  }
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${download.file.replace(/[^\w.-]+/g, '_')}"`)
    .send(Readable.from(csv()));
}

/** Validates a body with a domain schema; a bad body is a 400 with SPEC's words per field. */
export async function validBody<S extends AnyObjectSchema>(schema: S, body: unknown): Promise<InferType<S>> {
  const { fields, dropped } = scalarFields(schema, body);
  const result = await validate(schema, fields);
  const errors = result.ok ? [] : [...result.errors];
  // A field sent as an object or array reads as missing, or as invalid if optional.
  for (const field of dropped) if (!errors.some((e) => e.field === field)) errors.push({ field, message: INVALID_VALUE });
  if (!result.ok || errors.length > 0) throw new HttpError(400, errors[0]?.message ?? 'Invalid input', errors);
  return result.value;
}

const SCALAR_TYPES = new Set(['string', 'number', 'boolean', 'date']);

/**
 * Keeps the body's fields the schema knows, minus objects and arrays given for a text, number or
 * boolean field: yup's casts throw on them (`{"toString":"x"}`) and its default messages print them
 * back whole, so such a body was a 500 or an answer megabytes long. A body that is not an object
 * (array, text, number) is read as empty, so the answer names the missing fields.
 */
function scalarFields(schema: AnyObjectSchema, body: unknown) {
  const fields: Record<string, unknown> = {};
  const dropped: string[] = [];
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { fields, dropped };
  for (const [key, value] of Object.entries(body)) {
    if (!Object.hasOwn(schema.fields, key)) continue;
    const field = schema.fields[key] as { type?: string };
    if (SCALAR_TYPES.has(field.type ?? '') && value !== null && typeof value === 'object') dropped.push(key);
    else fields[key] = value;
  }
  return { fields, dropped };
}

/** Bounds of an error answer: it never grows with the input (DESIGN §4). */
const MESSAGE_MAX = 200;
const FIELD_MAX = 64;
const FIELD_ERRORS_BUDGET = 3000;

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The failure envelope (DESIGN §3), clipped so that no answer is more than a few kB whatever the request was. */
export function failureBody(message: string, errors: FieldError[] = []) {
  const kept: FieldError[] = [];
  let size = 0;
  for (const error of errors) {
    const clipped = { field: clip(String(error.field), FIELD_MAX), message: clip(String(error.message), MESSAGE_MAX) };
    size += clipped.field.length + clipped.message.length + 24;
    if (size > FIELD_ERRORS_BUDGET) break;
    kept.push(clipped);
  }
  return { status: false as const, message: clip(String(message), MESSAGE_MAX), errors: kept };
}

/** True when a PostgreSQL error is a unique-constraint violation. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

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
