import type { Incident } from '../domain/incidents';

/**
 * The incidents jest's global setup inserts once (see incident-seed.ts) for the web tests of the
 * incidents screen and the top bar: the web tests' API runs no detector, and an incident opens
 * only on the detector's clock. Their code is registered by no test (tests make codes `*300*…#`
 * to `*899*…#`), so only managers read them; dated in 2024, older than anything a test makes.
 * Plain data: the global setup reads it outside jest's test environment.
 */
export const INCIDENT_TEST_CODE = '*217*97#';

const at = (minute: number) => new Date(Date.parse('2024-05-10T09:00:00Z') + minute * 60_000).toISOString();

type TestIncident = Omit<Incident, '_id' | 'acknowledgedBy' | 'acknowledgedAt' | 'note'> & Partial<Pick<Incident, 'acknowledgedBy' | 'acknowledgedAt' | 'note'>>;

export const OPEN_TEST_INCIDENTS: TestIncident[] = [
  {
    serviceCode: INCIDENT_TEST_CODE,
    kind: 'failure-rate',
    openedAt: at(0),
    closedAt: null,
    figures: { windowMinutes: 10, settled: 20, failed: 14, failedShare: 0.7, baselineShare: 0.08, threshold: 0.28 },
  },
  {
    serviceCode: null,
    kind: 'provider-silence',
    openedAt: at(5),
    closedAt: null,
    figures: { silentPayments: 6, oldestRequestedAt: at(-1), silenceMinutes: 5 },
  },
];

/** 21 closed ones, a page of history and one more: the newest an SMS failure that lasted 25 minutes. */
export const CLOSED_TEST_INCIDENTS: TestIncident[] = [
  {
    serviceCode: null,
    kind: 'sms-failure',
    openedAt: at(-60),
    closedAt: at(-35),
    figures: { windowMinutes: 10, answered: 11, failed: 3, failedShare: 0.2727, threshold: 0.2 },
  },
  ...Array.from({ length: 20 }, (_, i) => ({
    serviceCode: INCIDENT_TEST_CODE,
    kind: 'failure-rate' as const,
    openedAt: at(-1440 * (i + 1)),
    closedAt: at(-1440 * (i + 1) + 65),
    figures: { windowMinutes: 10, settled: 10 + i, failed: 5, failedShare: Math.round((5 / (10 + i)) * 10_000) / 10_000, baselineShare: 0.05, threshold: 0.25 },
  })),
];
