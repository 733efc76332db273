import { rememberWithin } from './bounded-memory';

/** The service's time zone when TZ_NAME is not set (DESIGN §2). */
export const DEFAULT_SERVICE_TIME_ZONE = 'Africa/Kampala';

let serviceZone = DEFAULT_SERVICE_TIME_ZONE;

/** True for an IANA zone name this runtime knows ('Africa/Kampala', 'UTC'). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return /^[A-Za-z][A-Za-z0-9_/+-]*$/.test(zone);
  } catch {
    return false;
  }
}

/** The zone days and times are shown and counted in: TZ_NAME on the server, read from the page in the SPA. */
export function serviceTimeZone(): string {
  return serviceZone;
}

/** Set once at start: by the server from TZ_NAME, by the SPA from what the server put in index.html. */
export function setServiceTimeZone(zone: string): void {
  if (!isTimeZone(zone)) throw new Error(`Unknown time zone: ${zone}`);
  serviceZone = zone;
}

// Intl knows every time zone already, so the SPA does not download moment-timezone's data.
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(key: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.DateTimeFormat('en-GB', options);
    formatters.set(key, found);
  }
  return found;
}

function parts(format: Intl.DateTimeFormat, date: Date): Record<string, string> {
  return Object.fromEntries(format.formatToParts(date).map((p) => [p.type, p.value]));
}

const offsetFormats = new Map<string, Intl.DateTimeFormat>();
/** Zone offsets change only on a quarter hour of UTC, so one look per quarter hour answers every instant in it. */
const QUARTER_HOUR_MS = 900_000;
const offsetsByQuarter = new Map<string, number>();

/** How far `zone`'s clock is ahead of UTC at the instant `utcMs`, in ms (+3 h in Kampala). */
export function zoneOffsetMs(utcMs: number, zone: string): number {
  const quarter = Math.floor(utcMs / QUARTER_HOUR_MS);
  const key = `${zone}|${quarter}`;
  const known = offsetsByQuarter.get(key);
  if (known !== undefined) return known;
  let format = offsetFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    offsetFormats.set(zone, format);
  }
  const at = quarter * QUARTER_HOUR_MS;
  const p = Object.fromEntries(format.formatToParts(new Date(at)).map((part) => [part.type, Number(part.value)]));
  const offset = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - at;
  // Formatting costs far more than a lookup (a 200,000-row export formats three times a row); the memory stays small.
  rememberWithin(offsetsByQuarter, 50_000, key, offset);
  return offset;
}

/**
 * An instant as ISO 8601 on the service zone's clock with its offset ('2026-05-01T13:15:00+03:00'):
 * the time the screens show, and still one instant for a program that reads it. '' when not a time.
 */
export function isoInZone(iso: string | null | undefined, zone = serviceTimeZone()): string {
  const ms = iso ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(ms)) return '';
  const offset = zoneOffsetMs(ms, zone);
  const wall = new Date(ms + offset).toISOString();
  const clock = wall.endsWith('.000Z') ? wall.slice(0, 19) : wall.slice(0, 23);
  const minutes = Math.abs(offset) / 60_000;
  const sign = offset < 0 ? '-' : '+';
  return `${clock}${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const twoDigits = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * 'DD MMMM YYYY hh:mm[:ss] am' on the zone's clock. Built from the cached zone offset rather than
 * Intl's formatToParts, which costs some microseconds a call: an export formats three times a row.
 * The format test holds it to Intl's output across zones, daylight saving and the year.
 */
function wallClockText(iso: string | null | undefined, zone: string, withSeconds: boolean): string {
  const ms = iso ? Date.parse(iso) : Number.NaN;
  if (Number.isNaN(ms)) return 'N/A';
  const wall = new Date(ms + zoneOffsetMs(ms, zone));
  const hour = wall.getUTCHours();
  const seconds = withSeconds ? `:${twoDigits(wall.getUTCSeconds())}` : '';
  const clock = `${twoDigits(hour % 12 || 12)}:${twoDigits(wall.getUTCMinutes())}${seconds} ${hour < 12 ? 'am' : 'pm'}`;
  return `${twoDigits(wall.getUTCDate())} ${MONTH_NAMES[wall.getUTCMonth()]} ${wall.getUTCFullYear()} ${clock}`;
}

/** SPEC §9: 'DD MMMM YYYY' with 12-hour time and am/pm, in the service's zone. */
export function formatDateTime(iso: string | null | undefined, zone = serviceTimeZone()): string {
  return wallClockText(iso, zone, false);
}

/**
 * A time in a list that shows one day (its heading names the day): 'hh:mm am' when the instant
 * falls on `day` in the service zone; on another day (a reply after midnight) 'DD Mon hh:mm am',
 * its day named but short enough to keep a dense row on one line.
 */
export function formatTimeOnDay(iso: string | null | undefined, day: string, zone = serviceTimeZone()): string {
  const whole = formatDateTime(iso, zone);
  if (whole === 'N/A') return whole;
  const [dayOfMonth, month, , time, period] = whole.split(' ');
  if (todayInServiceZone(new Date(iso as string), zone) !== day) return `${dayOfMonth} ${month.slice(0, 3)} ${time} ${period}`;
  return `${time} ${period}`;
}

/** An event's time on a call's timeline: formatDateTime with seconds, as hops come seconds apart. */
export function formatDateTimeSeconds(iso: string, zone = serviceTimeZone()): string {
  return wallClockText(iso, zone, true);
}

/** A day 'YYYY-MM-DD' as 'DD MMMM YYYY'. */
export function formatDay(day: string): string {
  const [year, month, dayOfMonth] = day.split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1, dayOfMonth));
  if (Number.isNaN(date.getTime())) return day;
  const p = parts(formatter('day', { timeZone: 'UTC', day: '2-digit', month: 'long', year: 'numeric' }), date);
  return `${p.day} ${p.month} ${p.year}`;
}

/** A calendar day `YYYY-MM-DD` in the service's zone (DESIGN §3). */
export function todayInServiceZone(now: Date = new Date(), zone = serviceTimeZone()): string {
  const p = parts(formatter(`today|${zone}`, { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }), now);
  return `${p.year}-${p.month}-${p.day}`;
}

/** SPEC §9: prices shown with a thousands separator. */
export function formatMoney(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '';
  return Math.round(value).toLocaleString('en-US');
}

const COUNT = new Intl.NumberFormat('en-GB');
const SHARE = new Intl.NumberFormat('en-GB', { style: 'percent', maximumFractionDigits: 1 });

/** A count with a thousands separator ('1,234 calls'). */
export const formatCount = (value: number): string => COUNT.format(value);

/** A count and its noun, singular for one ('1 line', '2,500 lines'). */
export const plural = (n: number, one: string, many = `${one}s`): string => `${formatCount(n)} ${n === 1 ? one : many}`;

/** A share from 0 to 1 as a percentage to one decimal ('12.5%'). */
export const formatShare = (share: number): string => SHARE.format(share);

/** SPEC §2: text cut to n characters followed by four dots when longer. */
export function preview(text: string | null | undefined, length: number): string {
  if (!text) return '';
  return text.length > length ? `${text.slice(0, length)}....` : text;
}
