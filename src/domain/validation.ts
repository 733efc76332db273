import { ValidationError, type AnyObjectSchema, type InferType } from 'yup';
import type { FieldError } from './entities';

export type Validated<S extends AnyObjectSchema> =
  | { ok: true; value: InferType<S> }
  | { ok: false; errors: FieldError[] };

/** Runs a domain schema over an untrusted body; unknown keys are dropped. */
export async function validate<S extends AnyObjectSchema>(schema: S, input: unknown): Promise<Validated<S>> {
  try {
    const value = await schema.validate(input ?? {}, { abortEarly: false, stripUnknown: true });
    return { ok: true, value };
  } catch (error) {
    if (error instanceof ValidationError) {
      const errors = (error.inner.length ? error.inner : [error]).map((e) => ({ field: e.path ?? '', message: e.message }));
      const seen = new Set<string>();
      return { ok: false, errors: errors.filter((e) => (seen.has(e.field) ? false : (seen.add(e.field), true))) };
    }
    throw error;
  }
}
