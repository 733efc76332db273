import type { FieldError } from './entities';
import { isDay } from './calendar-day';

/** The longest range a list or an export reads: a month, whichever month, from its first to its last day. */
export const RANGE_MAX_DAYS = 31;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole days from `from` to `to` (both `YYYY-MM-DD`), negative when `to` comes first. */
export function daysApart(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

/** A list's days: one `date`, or a range `dateFrom`…`dateTo`. */
export interface DayChoice {
  date?: string;
  dateFrom?: string;
  dateTo?: string;
}

/**
 * What is wrong with a choice of days beyond each field's own form: a range needs both ends, in
 * order, at most RANGE_MAX_DAYS apart, and is given instead of a day, not with one. Each error
 * names the field to change.
 */
export function rangeErrors({ date, dateFrom, dateTo }: DayChoice): FieldError[] {
  if (!dateFrom && !dateTo) return [];
  if (!dateFrom) return [{ field: 'dateFrom', message: 'Please give both ends of the range' }];
  if (!dateTo) return [{ field: 'dateTo', message: 'Please give both ends of the range' }];
  if (!isDay(dateFrom) || !isDay(dateTo)) return [];
  if (date) return [{ field: 'date', message: 'Give a day or a range, not both' }];
  const apart = daysApart(dateFrom, dateTo);
  if (apart < 0) return [{ field: 'dateFrom', message: 'The range must start on or before its end' }];
  if (apart > RANGE_MAX_DAYS) return [{ field: 'dateTo', message: `A range spans at most ${RANGE_MAX_DAYS} days` }];
  return [];
}

/** A calendar month `YYYY-MM` between the years 2000 and 2100. */
export function isMonth(value: string): boolean {
  const match = /^(\d{4})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month] = [Number(match[1]), Number(match[2])];
  return year >= 2000 && year <= 2100 && month >= 1 && month <= 12;
}

/** The first and last day of a month `YYYY-MM`. */
export function monthDays(month: string): { from: string; to: string } {
  const [year, m] = month.split('-').map(Number);
  const last = new Date(Date.UTC(year, m, 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, '0')}` };
}
