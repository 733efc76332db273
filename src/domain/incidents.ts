/**
 * Incidents (issue 23, DESIGN §7): trouble the server notices by itself, opened once and closed
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
}
