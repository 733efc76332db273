import type { SerializedError } from '@reduxjs/toolkit';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { FieldError } from '../domain/entities';

/** What a failed call tells a component, whatever form RTK Query gave it. */
export interface ApiErrorInfo {
  /** HTTP status, or null when no answer came back (network failure). */
  status: number | null;
  message: string;
  errors: FieldError[];
}

function isFetchError(error: unknown): error is FetchBaseQueryError {
  return typeof error === 'object' && error !== null && 'status' in error;
}

/** Reads the envelope of a failure `{status:false,message,errors}` out of an unwrap() rejection. */
export function readApiError(error: unknown): ApiErrorInfo {
  if (isFetchError(error)) {
    if (typeof error.status === 'number') {
      const data = (error.data ?? {}) as { message?: unknown; errors?: unknown };
      return {
        status: error.status,
        message: typeof data.message === 'string' ? data.message : '',
        errors: Array.isArray(data.errors) ? (data.errors as FieldError[]) : [],
      };
    }
    const message = 'error' in error && typeof error.error === 'string' ? error.error : '';
    return { status: error.status === 'PARSING_ERROR' ? error.originalStatus : null, message, errors: [] };
  }
  const serialized = error as SerializedError | undefined;
  return { status: null, message: serialized?.message ?? '', errors: [] };
}

/** SPEC §8: a 500 shows the joined messages of the error list (or the message when there is none). */
export function joinedErrorMessages(info: ApiErrorInfo): string {
  const joined = info.errors.map((e) => e.message).join(', ');
  return joined || info.message;
}
