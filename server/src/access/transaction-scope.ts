import type { FastifyRequest } from 'fastify';
import { rememberWithin } from '../../../src/domain/bounded-memory';
import { rangeErrors, type DayChoice } from '../../../src/domain/day-range';
import { readsEveryCode } from '../../../src/domain/roles';
import { transactionFilterSchema } from '../../../src/domain/schemas/transactions';
import type { TransactionStatus } from '../../../src/domain/transaction-status';
import type { Db, DbOrTx } from '../db/client';
import { HttpError, notFound } from '../http/http-error';
import { validBody } from '../http/valid-body';
import type { AuthUser } from '../plugins/auth';
import { campaignVotesRepository } from '../repositories/campaign-votes-repository';
import { serviceCodesRepository } from '../repositories/service-codes-repository';
import { transactionsRepository } from '../repositories/transactions-repository';
import { AFCON_CAMPAIGN } from './campaign-access';

/**
 * Which calls a caller may read, shared by the transaction lists, the export and the dashboard.
 * The service codes a caller may read (DESIGN §4): a manager or customer care any (undefined), an agent only those
 * under its own categories. A code outside that scope is answered as an unknown one (404, not
 * named), so no answer tells an agent what another agent's codes are.
 */
export async function scopeCodes(db: DbOrTx, request: FastifyRequest, name?: string): Promise<string[] | undefined> {
  if (readsEveryCode(request.user.role)) return name ? [name] : undefined;
  const own = await serviceCodesRepository(db).namesOwnedBy(request.user.id);
  if (!name) return own;
  if (!own.includes(name)) throw notFound('Service code');
  return [name];
}

/**
 * A list's service code, day (or range of days) and status from a query or body, validated with the
 * domain schema; a range is checked as a pair (src/domain/day-range.ts), each error naming its field.
 */
export async function readFilter(input: unknown): Promise<ReadFilter> {
  const key = filterKey(input);
  const known = key === undefined ? undefined : readFilters.get(key);
  if (known) return { ...known };
  const { name, date, dateFrom, dateTo, status } = await validBody(transactionFilterSchema, input);
  const days = checkedDays({ date, dateFrom, dateTo });
  const filter: ReadFilter = { name: name || undefined, ...days, status: status as TransactionStatus | undefined };
  if (key !== undefined) rememberWithin(readFilters, READ_FILTERS_KEPT, key, filter);
  return { ...filter };
}

export interface ReadFilter extends DayChoice {
  name?: string;
  status?: TransactionStatus;
}

/**
 * Filters read before, by their text: every list, export and dashboard call reads one, a console
 * sends the same few over and over, and yup took a tenth of a list call's CPU to read each again.
 * Only filters that passed are kept (a refused one is read afresh each time, for its errors).
 */
const readFilters = new Map<string, ReadFilter>();
const READ_FILTERS_KEPT = 1000;
const FILTER_FIELDS = ['name', 'date', 'dateFrom', 'dateTo', 'status'] as const;

/** A filter's fields as one text, or undefined when one is not a short text without the separators (those take the whole check). */
function filterKey(input: unknown): string | undefined {
  if (!input || typeof input !== 'object' || Array.isArray(input)) return undefined;
  const fields = input as Record<string, unknown>;
  let key = '';
  for (const field of FILTER_FIELDS) {
    const value = fields[field];
    if (value === undefined) key += '\u0000';
    else if (typeof value === 'string' && value.length <= 64 && !value.includes('\u0000') && !value.includes('\u0001')) key += `\u0001${value}\u0000`;
    else return undefined;
  }
  return key;
}

/** A day or a range, both-or-neither and at most a month; empty values read as not given. */
export function checkedDays(choice: DayChoice) {
  const days = { date: choice.date || undefined, dateFrom: choice.dateFrom || undefined, dateTo: choice.dateTo || undefined };
  const errors = rangeErrors(days);
  if (errors.length > 0) throw new HttpError(400, errors[0].message, errors);
  return days;
}

/** The repository's days of a checked choice: a range from `dateFrom` to `dateTo`, or the one `date`. */
export function filterDays(days: DayChoice): { day?: string; dayTo?: string } {
  return days.dateFrom && days.dateTo ? { day: days.dateFrom, dayTo: days.dateTo } : { day: days.date };
}

/** How a list's heading and file names say its days: '2026-11-01 to 2026-11-30', or the day. */
export const daysLabel = (days: DayChoice) => (days.dateFrom && days.dateTo ? `${days.dateFrom} to ${days.dateTo}` : days.date);

/**
 * One call the caller may read, by id, in the lists' scope (DESIGN §4): a manager any, an agent
 * its own service codes' calls, the Afcon-only account AFCON's. Any other is 404, as an unknown
 * id is, so that ids outside a caller's scope do not leak.
 */
export async function scopedTransaction(db: Db, request: FastifyRequest, id: string) {
  const found = await transactionsRepository(db).findById(id);
  if (!found || !(await mayRead(db, request, found.serviceCode))) throw notFound('Transaction');
  return found;
}

async function mayRead(db: Db, request: FastifyRequest, serviceCode: string): Promise<boolean> {
  const codes = await readableCodes(db, request.user);
  return !codes || codes.includes(serviceCode);
}

/**
 * The service codes whose calls a user reads (DESIGN §4): the Afcon-only account AFCON's, a manager
 * or customer care every one (undefined), an agent those under its own categories. The live stream and the incidents
 * are scoped with it, as the lists are.
 */
export async function readableCodes(db: Db, user: Pick<AuthUser, 'id' | 'role' | 'isAfcon'>): Promise<string[] | undefined> {
  if (user.isAfcon) {
    const afcon = await campaignVotesRepository(db).find(AFCON_CAMPAIGN);
    return afcon ? [afcon.serviceCode] : [];
  }
  if (readsEveryCode(user.role)) return undefined;
  return serviceCodesRepository(db).namesOwnedBy(user.id);
}
