import type { FieldError } from '../../../src/domain/entities';

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
