/** Calendar days: `YYYY-MM-DD` on the wire (DESIGN §3), MM/DD/YYYY in the date field (SPEC §9). */

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isRealDay(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

const pad = (value: number, length = 2) => String(value).padStart(length, '0');

/** A calendar day `YYYY-MM-DD` that exists (no 2026-02-30). */
export function isDay(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return match !== null && isRealDay(Number(match[1]), Number(match[2]), Number(match[3]));
}

/** `YYYY-MM-DD` as MM/DD/YYYY. */
export function dayToUsDate(day: string): string {
  const [year, month, dayOfMonth] = day.split('-');
  return `${month}/${dayOfMonth}/${year}`;
}

/**
 * What a person typed as MM/DD/YYYY (one-digit month or day, or the eight digits alone, also
 * accepted) as `YYYY-MM-DD`; null when it is not a real day.
 */
export function usDateToDay(text: string): string | null {
  const trimmed = text.trim();
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(trimmed) ?? /^(\d{2})(\d{2})(\d{4})$/.exec(trimmed);
  if (!match) return null;
  const [month, day, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return isRealDay(year, month, day) ? `${pad(year, 4)}-${pad(month)}-${pad(day)}` : null;
}
