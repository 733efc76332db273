import moment from 'moment-timezone';

/** The service's time zone (DESIGN §2, TZ_NAME). */
export const SERVICE_TIME_ZONE = 'Africa/Kampala';

/** SPEC §9: 'DD MMMM YYYY' with 12-hour time and am/pm. */
export function formatDateTime(iso: string | null | undefined, zone = SERVICE_TIME_ZONE): string {
  if (!iso) return 'N/A';
  const m = moment(iso);
  if (!m.isValid()) return 'N/A';
  return m.tz(zone).format('DD MMMM YYYY hh:mm a');
}

export function formatDay(day: string): string {
  return moment(day, 'YYYY-MM-DD').format('DD MMMM YYYY');
}

/** A calendar day `YYYY-MM-DD` in the service's zone (DESIGN §3). */
export function todayInServiceZone(now: Date = new Date(), zone = SERVICE_TIME_ZONE): string {
  return moment(now).tz(zone).format('YYYY-MM-DD');
}

/** SPEC §9: prices shown with a thousands separator. */
export function formatMoney(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '';
  return Math.round(value).toLocaleString('en-US');
}

/** SPEC §2: text cut to n characters followed by four dots when longer. */
export function preview(text: string | null | undefined, length: number): string {
  if (!text) return '';
  return text.length > length ? `${text.slice(0, length)}....` : text;
}
