import type { Incident, IncidentKind, IncidentState } from './incidents';
import type { TransactionStatus } from './transaction-status';

/**
 * The events of `GET /v1/live` (DESIGN §7), a server-sent-events stream: each event's
 * `data:` is one JSON object of the type its `event:` names.
 */
export const LIVE_EVENTS = ['transaction', 'incident', 'refund', 'resync'] as const;
export type LiveEventName = (typeof LIVE_EVENTS)[number];

/** `event: transaction`: a new call, or a call whose status or resolution changed (its state now). */
export interface LiveTransaction {
  _id: string;
  /** The service code dialled. */
  name: string;
  phoneNumber: string;
  status: TransactionStatus;
  isResolved: boolean;
  /**
   * When the call was made (ISO 8601, the server's clock): a call made and settled within one write
   * arrives already `processed`, and only this tells it from an older call settling.
   */
  createdAt: string;
}

/** `event: incident`: an incident opened or closed. */
export interface LiveIncident {
  _id: string;
  serviceCode: string | null;
  kind: IncidentKind;
  state: IncidentState;
  /** Who took it on, when, and their note; null until someone does. */
  acknowledgedBy: string | null;
  acknowledgedAt: string | null;
  note: string | null;
}

/** An incident as `event: incident` carries it: open or closed, and who took it on. */
export const toLiveIncident = (incident: Incident): LiveIncident => ({
  _id: incident._id,
  serviceCode: incident.serviceCode,
  kind: incident.kind,
  state: incident.closedAt ? 'closed' : 'open',
  acknowledgedBy: incident.acknowledgedBy,
  acknowledgedAt: incident.acknowledgedAt,
  note: incident.note,
});

/** `event: resync`: changes may have been missed (the server lost its feed for a while): refetch what is shown. */
export type LiveResync = Record<string, never>;

/** The comment line the server sends at least this often, so a client can tell a quiet stream from a dead one. */
export const LIVE_HEARTBEAT_MS = 15_000;
