import { DEFAULT_SERVICE_TIME_ZONE, formatDateTime, formatDateTimeSeconds, formatDay, formatTimeOnDay, formatMoney, preview, serviceTimeZone, setServiceTimeZone, todayInServiceZone, isoInZone, plural } from './format';

describe('formatDateTime', () => {
  it("shows 'DD MMMM YYYY hh:mm am/pm' in Kampala time", () => {
    expect(formatDateTime('2026-11-22T09:05:00Z')).toBe('22 November 2026 12:05 pm');
    expect(formatDateTime('2026-11-21T21:30:00Z')).toBe('22 November 2026 12:30 am');
  });

  it("shows 'N/A' when the time is missing or unreadable", () => {
    expect(formatDateTime(null)).toBe('N/A');
    expect(formatDateTime('not a time')).toBe('N/A');
  });

  it('reads as Intl formats the same instant, across zones, daylight saving and years', () => {
    const intl = (zone: string, second: boolean) =>
      new Intl.DateTimeFormat('en-GB', { timeZone: zone, day: '2-digit', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h12', ...(second ? { second: '2-digit' } : {}) });
    const expected = (format: Intl.DateTimeFormat, at: Date) => {
      const p = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, part.value]));
      const clock = p.second ? `${p.hour}:${p.minute}:${p.second}` : `${p.hour}:${p.minute}`;
      return `${p.day} ${p.month} ${p.year} ${clock} ${(p.dayPeriod ?? '').toLowerCase()}`;
    };
    const zones = ['Africa/Kampala', 'UTC', 'Europe/London', 'America/New_York', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'Pacific/Chatham'];
    // Every 7 h 13 min 17 s over four years: each hour of the clock, both sides of every change of daylight saving.
    const start = Date.UTC(2024, 0, 1);
    for (const zone of zones) {
      const [minutes, seconds] = [intl(zone, false), intl(zone, true)];
      for (let at = start; at < start + 4 * 365 * 86_400_000; at += 26_000_000 + 17_000 + 13 * 60_000) {
        const iso = new Date(at).toISOString();
        expect(formatDateTime(iso, zone)).toBe(expected(minutes, new Date(at)));
        expect(formatDateTimeSeconds(iso, zone)).toBe(expected(seconds, new Date(at)));
      }
      // The minute either side of a change in London and New York.
      for (const iso of ['2026-03-29T00:59:59Z', '2026-03-29T01:00:00Z', '2026-10-25T00:59:59Z', '2026-10-25T01:00:00Z', '2026-03-08T06:59:59Z', '2026-03-08T07:00:00Z', '2026-11-01T05:59:59Z', '2026-11-01T06:00:00Z']) {
        expect(formatDateTimeSeconds(iso, zone)).toBe(expected(seconds, new Date(iso)));
      }
    }
  });
});

describe('formatTimeOnDay', () => {
  it("shows only 'hh:mm am/pm' on the list's day, the day and month short on another", () => {
    expect(formatTimeOnDay('2026-11-22T09:05:00Z', '2026-11-22')).toBe('12:05 pm');
    // 00:30 on the 23rd in Kampala: a reply after midnight names its day, short.
    expect(formatTimeOnDay('2026-11-22T21:30:00Z', '2026-11-22')).toBe('23 Nov 12:30 am');
    expect(formatTimeOnDay(null, '2026-11-22')).toBe('N/A');
  });
});

it('formats a day and finds today in the service zone', () => {
  expect(formatDay('2026-01-05')).toBe('05 January 2026');
  expect(todayInServiceZone(new Date('2026-11-22T22:30:00Z'))).toBe('2026-11-23');
});

it('shows times and finds today in the zone the service runs with, once set', () => {
  try {
    setServiceTimeZone('Asia/Tokyo');
    expect(serviceTimeZone()).toBe('Asia/Tokyo');
    expect(formatDateTime('2026-11-22T09:05:00Z')).toBe('22 November 2026 06:05 pm');
    expect(todayInServiceZone(new Date('2026-11-22T15:30:00Z'))).toBe('2026-11-23');
    expect(() => setServiceTimeZone('Mars/Olympus')).toThrow('Unknown time zone');
    expect(serviceTimeZone()).toBe('Asia/Tokyo');
  } finally {
    setServiceTimeZone(DEFAULT_SERVICE_TIME_ZONE);
  }
});

it('formats prices with a thousands separator and cuts previews with four dots', () => {
  expect(formatMoney(1234567)).toBe('1,234,567');
  expect(formatMoney(null)).toBe('');
  expect(preview('abcdef', 3)).toBe('abc....');
  expect(preview('abc', 3)).toBe('abc');
});

describe('isoInZone', () => {
  it("writes an instant on the zone's clock with its offset, across changes of offset", () => {
    expect(isoInZone('2026-02-01T10:00:00.000Z', 'Africa/Kampala')).toBe('2026-02-01T13:00:00+03:00');
    expect(isoInZone('2026-02-01T10:00:00.123Z', 'Africa/Kampala')).toBe('2026-02-01T13:00:00.123+03:00');
    expect(isoInZone('2026-03-08T06:59:59.999Z', 'America/New_York')).toBe('2026-03-08T01:59:59.999-05:00');
    expect(isoInZone('2026-03-08T07:00:00Z', 'America/New_York')).toBe('2026-03-08T03:00:00-04:00');
    expect(isoInZone('2026-04-04T15:00:00Z', 'Australia/Lord_Howe')).toBe('2026-04-05T01:30:00+10:30');
    expect(isoInZone('2026-05-01T00:00:00Z', 'Asia/Kathmandu')).toBe('2026-05-01T05:45:00+05:45');
    expect(isoInZone(null)).toBe('');
    expect(isoInZone('not a time')).toBe('');
  });
});

describe('plural', () => {
  it('says one in the singular', () => {
    expect([plural(0, 'line'), plural(1, 'line'), plural(2500, 'line'), plural(1, 'answered ticket SMS', 'answered ticket SMS')]).toEqual(['0 lines', '1 line', '2,500 lines', '1 answered ticket SMS']);
  });
});
