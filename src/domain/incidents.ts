import * as yup from 'yup';
import { formatCount, formatShare, plural } from './format';
import { text } from './schemas/text';

/**
 * Incidents (DESIGN §7): trouble the server notices by itself, opened once and closed
 * once whichever API instance sees it first.
 */
export const INCIDENT_KINDS = ['failure-rate', 'provider-silence', 'sms-failure'] as const;
export type IncidentKind = (typeof INCIDENT_KINDS)[number];

export const INCIDENT_KIND_LABELS: Record<IncidentKind, string> = {
  'failure-rate': 'Payments failing',
  'provider-silence': 'Payment provider silent',
  'sms-failure': 'Ticket SMS failing',
};

export const INCIDENT_STATES = ['open', 'closed'] as const;
export type IncidentState = (typeof INCIDENT_STATES)[number];

/** The facts that opened an incident: counts, shares (0 to 1) and instants, by name. */
export type IncidentFigures = Record<string, number | string | null>;

/** An incident as `GET /v1/incidents` answers it. */
export interface Incident {
  _id: string;
  /** The service code it concerns; null for the whole service (the payment provider, the SMS gateway). */
  serviceCode: string | null;
  kind: IncidentKind;
  openedAt: string;
  closedAt: string | null;
  figures: IncidentFigures;
  /** The user name of who took it on, when they did, and what they said; null until someone does. */
  acknowledgedBy: string | null;
  acknowledgedAt: string | null;
  note: string | null;
}

/** What acknowledging says besides who and when. */
export type IncidentAcknowledgement = Pick<Incident, 'acknowledgedBy' | 'acknowledgedAt' | 'note'>;

export const INCIDENT_NOTE_MAX = 500;

/** 'Acknowledge': who takes an incident on, with an optional word on what they are doing about it. */
export const acknowledgeIncidentSchema = yup.object({
  note: text(INCIDENT_NOTE_MAX, { multiline: true, plainDirection: true }).trim().optional(),
});
export type AcknowledgeIncidentInput = yup.InferType<typeof acknowledgeIncidentSchema>;

/** How far back of its opening an incident's calls are looked for: the window its rule read. */
const DEFAULT_WINDOW_MINUTES = 10;

/**
 * The calls an incident counts, as the Failed list's filters: its code (all codes for a
 * service-wide one) and the instants from the start of the window that opened it to its close
 * (open-ended while it is open).
 */
export function incidentCallsWindow(incident: Pick<Incident, 'serviceCode' | 'openedAt' | 'closedAt' | 'figures'>): { name: string; since: string; until: string | null } {
  const minutes = typeof incident.figures.windowMinutes === 'number' ? incident.figures.windowMinutes : DEFAULT_WINDOW_MINUTES;
  const oldest = typeof incident.figures.oldestRequestedAt === 'string' ? Date.parse(incident.figures.oldestRequestedAt) : NaN;
  const opened = Date.parse(incident.openedAt);
  const start = Number.isFinite(oldest) ? Math.min(oldest, opened - minutes * 60_000) : opened - minutes * 60_000;
  return { name: incident.serviceCode ?? '', since: new Date(start).toISOString(), until: incident.closedAt };
}


/** The whole service's incidents (the payment provider, the SMS gateway) have no code. */
export const WHOLE_SERVICE = 'Whole service';

const numberOf = (figures: IncidentFigures, name: string): number | undefined => {
  const value = figures[name];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
};

/** Every figure as 'name: value', for figures a kind's sentence does not know (a newer server). */
const rawFigures = (figures: IncidentFigures) =>
  Object.entries(figures)
    .map(([name, value]) => `${name}: ${value ?? '-'}`)
    .join('; ');

/**
 * The figures that opened an incident in plain words, e.g. '14 of 20 settled calls failed (70%) in
 * 10 minutes; 7-day share 8%, threshold 28%'. `formatInstant` writes the instants (oldest silent payment).
 */
export function describeIncidentFigures(incident: Pick<Incident, 'kind' | 'figures'>, formatInstant: (iso: string) => string): string {
  const { figures } = incident;
  const n = (name: string) => numberOf(figures, name);
  if (incident.kind === 'failure-rate') {
    const [settled, failed, share, windowMinutes] = [n('settled'), n('failed'), n('failedShare'), n('windowMinutes')];
    if (settled === undefined || failed === undefined || share === undefined || windowMinutes === undefined) return rawFigures(figures);
    const baseline = n('baselineShare');
    const threshold = n('threshold');
    const week = baseline === undefined ? '' : `; 7-day share ${formatShare(baseline)}`;
    const bar = threshold === undefined ? '' : `${week ? ',' : ';'} threshold ${formatShare(threshold)}`;
    return `${formatCount(failed)} of ${plural(settled, 'settled call')} failed (${formatShare(share)}) in ${plural(windowMinutes, 'minute')}${week}${bar}`;
  }
  if (incident.kind === 'provider-silence') {
    const [silent, minutes] = [n('silentPayments'), n('silenceMinutes')];
    if (silent === undefined || minutes === undefined) return rawFigures(figures);
    const oldest = typeof figures.oldestRequestedAt === 'string' ? `; the oldest requested ${formatInstant(figures.oldestRequestedAt)}` : '';
    return `${plural(silent, 'payment')} with no word from the provider for over ${plural(minutes, 'minute')}${oldest}`;
  }
  const [answered, failed, share, windowMinutes] = [n('answered'), n('failed'), n('failedShare'), n('windowMinutes')];
  if (answered === undefined || failed === undefined || share === undefined || windowMinutes === undefined) return rawFigures(figures);
  const threshold = n('threshold');
  const bar = threshold === undefined ? '' : `; threshold ${formatShare(threshold)}`;
  return `${formatCount(failed)} of ${plural(answered, 'answered ticket SMS', 'answered ticket SMS')} failed (${formatShare(share)}) in ${plural(windowMinutes, 'minute')}${bar}`;
}

/** How long an incident lasted: 'under a minute', '12 min', '1 h 5 min', '2 d 3 h'. */
export function formatIncidentDuration(openedAt: string, closedAt: string): string {
  const minutes = Math.floor((Date.parse(closedAt) - Date.parse(openedAt)) / 60_000);
  if (!Number.isFinite(minutes) || minutes < 1) return 'under a minute';
  const [days, hours, rest] = [Math.floor(minutes / 1440), Math.floor((minutes % 1440) / 60), minutes % 60];
  if (days > 0) return hours > 0 ? `${days} d ${hours} h` : `${days} d`;
  if (hours > 0) return rest > 0 ? `${hours} h ${rest} min` : `${hours} h`;
  return `${rest} min`;
}
