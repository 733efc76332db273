import type { AnyObjectSchema, InferType } from 'yup';
import { INVALID_VALUE } from '../../../src/domain/schemas/text';
import { validate } from '../../../src/domain/validation';
import { HttpError } from './http-error';

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
