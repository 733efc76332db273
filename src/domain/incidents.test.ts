import { describeIncidentFigures, formatIncidentDuration } from './incidents';

const at = (iso: string) => `at ${iso}`;

describe("an incident's figures in plain words", () => {
  it('says how many settled calls failed in the window against the 7-day share', () => {
    const figures = { windowMinutes: 10, settled: 20, failed: 14, failedShare: 0.7, baselineShare: 0.08, threshold: 0.28 };
    expect(describeIncidentFigures({ kind: 'failure-rate', figures }, at)).toBe('14 of 20 settled calls failed (70%) in 10 minutes; 7-day share 8%, threshold 28%');
    expect(describeIncidentFigures({ kind: 'failure-rate', figures: { ...figures, failedShare: 0.6429 } }, at)).toContain('(64.3%)');
  });

  it('counts the payments the provider left without an answer', () => {
    const figures = { silentPayments: 6, oldestRequestedAt: '2024-06-01T11:54:00.000Z', silenceMinutes: 5 };
    expect(describeIncidentFigures({ kind: 'provider-silence', figures }, at)).toBe('6 payments with no word from the provider for over 5 minutes; the oldest requested at 2024-06-01T11:54:00.000Z');
  });

  it('gives the failed share of answered ticket SMS', () => {
    const figures = { windowMinutes: 10, answered: 11, failed: 3, failedShare: 0.2727, threshold: 0.2 };
    expect(describeIncidentFigures({ kind: 'sms-failure', figures }, at)).toBe('3 of 11 answered ticket SMS failed (27.3%) in 10 minutes; threshold 20%');
  });

  it('lists figures it does not know by name rather than hide them', () => {
    expect(describeIncidentFigures({ kind: 'failure-rate', figures: { calls: 3 } }, at)).toBe('calls: 3');
  });
});

describe('how long an incident lasted', () => {
  const from = '2024-05-10T12:00:00.000Z';
  const after = (minutes: number) => new Date(Date.parse(from) + minutes * 60_000).toISOString();
  it.each([
    [0.5, 'under a minute'],
    [12, '12 min'],
    [60, '1 h'],
    [65, '1 h 5 min'],
    [1440 + 180, '1 d 3 h'],
  ])('%p minutes is %p', (minutes, text) => expect(formatIncidentDuration(from, after(minutes))).toBe(text));
});
