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

/** The fields of a PostgreSQL error that say which rule refused a write, found through drizzle's wrapping (`cause`). */
function databaseError(error: unknown): { code: string; constraint: string; message: string } | undefined {
  for (let e = error as { code?: unknown; constraint?: unknown; message?: unknown; cause?: unknown } | null | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && typeof e.constraint === 'string') return { code: e.code, constraint: e.constraint, message: typeof e.message === 'string' ? e.message : '' };
  }
  return undefined;
}

/**
 * The rules the database holds for a write (its triggers and indexes), answered as the client's
 * mistake rather than a 500: the status and the words for each constraint's name. The refund
 * trigger's own message is used where it says how much is left (never the input).
 */
const REFUSALS: Record<string, { status: number; message: (own: string) => string }> = {
  refunds_one_open_key: { status: 409, message: () => 'This call already has a refund in progress' },
  refunds_within_amount: { status: 400, message: (own) => (own.startsWith('Refunds cannot add up') ? own : "Refunds cannot add up to more than the call's amount") },
  refunds_processed_call: { status: 400, message: () => 'Only a processed call can be refunded' },
  refunds_amount_positive: { status: 400, message: () => 'The amount must be more than 0' },
  refunds_state_change: { status: 409, message: () => 'This refund has moved on meanwhile; read it again' },
};

/** A write the database refused by one of its rules, as the answer to give (status and message); undefined for any other error. */
export function databaseRefusal(error: unknown): { status: number; message: string } | undefined {
  const found = databaseError(error);
  const refusal = found && REFUSALS[found.constraint];
  return refusal && { status: refusal.status, message: refusal.message(found.message) };
}
