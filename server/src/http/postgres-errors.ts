/** True when a PostgreSQL error is a unique-constraint violation. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/** SQLSTATEs of a database that is away: connection exceptions (08…), shutting down or starting (57P01–57P03), out of connections (53300). */
const UNAVAILABLE_STATES = /^(08\d{3}|57P0[123]|53300)$/;
/** The driver's own words when the socket goes (pg does not give these a code). */
const UNAVAILABLE_TEXTS = /Connection terminated|connection timeout|not currently accepting connections|Client has encountered a connection error|the database system is (starting up|shutting down)/i;
const UNAVAILABLE_SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);

/**
 * True when an error says the database could not be reached (restarting, connections cut, refused),
 * rather than that the request was wrong: the caller is told to try again (503), so a provider's
 * callback is retried instead of being taken as delivered. Looks through drizzle's wrapping (`cause`).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error as { code?: unknown; message?: unknown; cause?: unknown } | null | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (UNAVAILABLE_STATES.test(code) || UNAVAILABLE_SOCKET_CODES.has(code)) return true;
    if (typeof e.message === 'string' && UNAVAILABLE_TEXTS.test(e.message)) return true;
  }
  return false;
}
