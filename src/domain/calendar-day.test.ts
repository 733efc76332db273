import { dayToUsDate, isDay, usDateToDay } from './calendar-day';

describe('isDay', () => {
  it('accepts real YYYY-MM-DD days only', () => {
    expect(isDay('2026-11-22')).toBe(true);
    expect(isDay('2024-02-29')).toBe(true); // leap year
    expect(isDay('2000-02-29')).toBe(true); // divisible by 400
    expect(isDay('2026-02-29')).toBe(false);
    expect(isDay('1900-02-29')).toBe(false); // divisible by 100
    expect(isDay('2026-04-31')).toBe(false);
    expect(isDay('2026-13-01')).toBe(false);
    expect(isDay('2026-00-10')).toBe(false);
    expect(isDay('2026-1-5')).toBe(false);
    expect(isDay('2026-11-22T00:00')).toBe(false);
    expect(isDay('')).toBe(false);
  });
});

describe('MM/DD/YYYY', () => {
  it('shows a day as MM/DD/YYYY', () => {
    expect(dayToUsDate('2026-01-05')).toBe('01/05/2026');
  });

  it('reads MM/DD/YYYY, M/D/YYYY and MMDDYYYY', () => {
    expect(usDateToDay('01/05/2026')).toBe('2026-01-05');
    expect(usDateToDay(' 1/5/2026 ')).toBe('2026-01-05');
    expect(usDateToDay('12312025')).toBe('2025-12-31');
  });

  it('refuses what is not a real day', () => {
    expect(usDateToDay('02/30/2026')).toBeNull();
    expect(usDateToDay('13/01/2026')).toBeNull();
    expect(usDateToDay('2026-01-05')).toBeNull();
    expect(usDateToDay('01/05/26')).toBeNull();
    expect(usDateToDay('hello')).toBeNull();
    expect(usDateToDay('')).toBeNull();
  });
});
