import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Client } from 'pg';
import { INCIDENT_KINDS, INCIDENT_NOTE_MAX, INCIDENT_STATES } from '../../../src/domain/incidents';
import type { LiveIncident } from '../../../src/domain/live';
import type { Db } from '../db/client';
import { isUuid } from '../../../src/domain/uuid';
import { REFUND_STATES, type LiveRefund } from '../../../src/domain/refunds';

/**
 * What the live stream hears of (DESIGN §7): the ids of calls created or changed (status, resolve)
 * and incidents opened or closed, once committed. `gap` says changes may have been missed (the
 * feed lost its connection), so clients should read again what they show.
 */
export type FeedDelivery = { kind: 'change'; calls: string[]; incidents: LiveIncident[]; refunds?: LiveRefund[] } | { kind: 'gap' };

export interface ChangeFeed {
  readonly kind: 'process' | 'postgres';
  /** Calls this process created or changed, committed already; cheap enough for every sale. */
  callsChanged(ids: string | readonly string[]): void;
  incidentChanged(incident: LiveIncident): void;
  /** A refund moved (requested, decided, sent, settled), committed already. */
  refundChanged(refund: LiveRefund): void;
  /** Hears the changes of every instance sharing the database (of this process alone in-process), batched. */
  subscribe(listener: (delivery: FeedDelivery) => void): () => void;
  /** Ready to hear other instances (the LISTEN connection is up or being retried). */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** The NOTIFY channel every instance listens on. */
export const LIVE_CHANNEL = 'dialdesk_live';
/** Call ids per notification: 36 characters and 3 of JSON each, well under PostgreSQL's 8000-byte payload. */
const IDS_PER_NOTIFICATION = 180;
/** How long changes are collected before they are passed on: a burst of sales becomes a few notifications. */
export const DEFAULT_FEED_BATCH_MS = 150;

/** Collects ids and incidents for `batchMs`, then hands them over together. */
function batcher(batchMs: number, send: (calls: string[], incidents: LiveIncident[], refunds: LiveRefund[]) => void) {
  let calls = new Set<string>();
  let incidents: LiveIncident[] = [];
  let refunds: LiveRefund[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    const batch = { calls: [...calls], incidents, refunds };
    calls = new Set();
    incidents = [];
    refunds = [];
    if (batch.calls.length > 0 || batch.incidents.length > 0 || batch.refunds.length > 0) send(batch.calls, batch.incidents, batch.refunds);
  };
  const later = () => {
    timer ??= setTimeout(flush, batchMs);
    timer.unref();
  };
  return {
    calls(ids: string | readonly string[]) {
      for (const id of typeof ids === 'string' ? [ids] : ids) calls.add(id);
      later();
    },
    incident(incident: LiveIncident) {
      incidents.push(incident);
      later();
    },
    refund(refund: LiveRefund) {
      refunds.push(refund);
      later();
    },
    /** Hands over what is waiting now. */
    flush() {
      clearTimeout(timer);
      flush();
    },
  };
}

function listeners() {
  const all = new Set<(delivery: FeedDelivery) => void>();
  return {
    get size() {
      return all.size;
    },
    add(listener: (delivery: FeedDelivery) => void) {
      all.add(listener);
      return () => void all.delete(listener);
    },
    deliver(delivery: FeedDelivery) {
      for (const listener of all) listener(delivery);
    },
  };
}

/**
 * The feed of one process (PGlite, or one API process on PostgreSQL): changes go straight to this
 * process's subscribers; with none (no live client), a change costs nothing but a check.
 */
export function inProcessChangeFeed(options: { batchMs?: number } = {}): ChangeFeed {
  const subscribers = listeners();
  const pending = batcher(options.batchMs ?? DEFAULT_FEED_BATCH_MS, (calls, incidents, refunds) => subscribers.deliver({ kind: 'change', calls, incidents, refunds }));
  return {
    kind: 'process',
    callsChanged(ids) {
      if (subscribers.size > 0) pending.calls(ids);
    },
    incidentChanged(incident) {
      if (subscribers.size > 0) pending.incident(incident);
    },
    refundChanged(refund) {
      if (subscribers.size > 0) pending.refund(refund);
    },
    subscribe: subscribers.add,
    start: async () => {},
    close: async () => pending.flush(),
  };
}

/** The notifications' payloads: call ids in chunks, each incident alone. */
export function notificationPayloads(calls: readonly string[], incidents: readonly LiveIncident[], refunds: readonly LiveRefund[] = []): string[] {
  const payloads = incidents.map((incident) => JSON.stringify({ i: [incident] }));
  for (const refund of refunds) payloads.push(JSON.stringify({ r: [refund] }));
  for (let i = 0; i < calls.length; i += IDS_PER_NOTIFICATION) payloads.push(JSON.stringify({ c: calls.slice(i, i + IDS_PER_NOTIFICATION) }));
  return payloads;
}

/** A text field of a notification, or null when it is none (an older instance sends no acknowledgement). */
const textOrNull = (value: unknown, max: number): string | null => (typeof value === 'string' && value.length <= max ? value : null);

const isIncident = (value: unknown): value is LiveIncident => {
  const incident = value as Partial<LiveIncident> | null;
  return (
    typeof incident === 'object' &&
    incident !== null &&
    isUuid(String(incident._id)) &&
    (incident.serviceCode === null || (typeof incident.serviceCode === 'string' && incident.serviceCode.length <= 50)) &&
    (INCIDENT_KINDS as readonly unknown[]).includes(incident.kind) &&
    (INCIDENT_STATES as readonly unknown[]).includes(incident.state)
  );
};

const isRefund = (value: unknown): value is LiveRefund => {
  const refund = value as Partial<LiveRefund> | null;
  return (
    typeof refund === 'object' &&
    refund !== null &&
    isUuid(String(refund._id)) &&
    isUuid(String(refund.transactionId)) &&
    typeof refund.serviceCode === 'string' &&
    refund.serviceCode.length <= 50 &&
    (REFUND_STATES as readonly unknown[]).includes(refund.state)
  );
};

/** A notification read back; anything another program sent on the channel that is not ours is ignored. */
export function readNotification(payload: string | undefined): FeedDelivery | undefined {
  try {
    const parsed = JSON.parse(payload ?? '') as { c?: unknown; i?: unknown; r?: unknown };
    const calls = Array.isArray(parsed.c) ? parsed.c.filter((id): id is string => typeof id === 'string' && isUuid(id)) : [];
    const incidents = Array.isArray(parsed.i) ? parsed.i.filter(isIncident).map((incident) => ({
          _id: incident._id,
          serviceCode: incident.serviceCode,
          kind: incident.kind,
          state: incident.state,
          acknowledgedBy: textOrNull(incident.acknowledgedBy, 100),
          acknowledgedAt: textOrNull(incident.acknowledgedAt, 40),
          note: textOrNull(incident.note, INCIDENT_NOTE_MAX),
        }))
      : [];
    const refunds = Array.isArray(parsed.r) ? parsed.r.filter(isRefund).map(({ _id, transactionId, state, serviceCode }) => ({ _id, transactionId, state, serviceCode })) : [];
    if (refunds.length > 0) return { kind: 'change', calls, incidents, refunds };
    return calls.length > 0 || incidents.length > 0 ? { kind: 'change', calls, incidents } : undefined;
  } catch {
    return undefined;
  }
}

export interface PostgresFeedOptions {
  databaseUrl: string;
  /** Sends the notifications (through the pool, one statement per batch). */
  db: Db;
  log: Pick<FastifyBaseLogger, 'warn' | 'error'>;
  batchMs?: number;
  /** The longest wait between two attempts to listen again. */
  maxRetryMs?: number;
}

/**
 * The feed of several API processes on one PostgreSQL: each process's changes, batched for
 * `batchMs`, go out as a few NOTIFYs in one statement (NOTIFY takes a lock at commit, so one per
 * sale would queue sales behind each other); every process LISTENs on a connection of its own
 * (not the pool's) and hands what it hears, its own included, to its subscribers. A lost LISTEN
 * connection is opened again with backoff, and its subscribers are told of the gap.
 */
export function postgresChangeFeed(options: PostgresFeedOptions): ChangeFeed {
  const { db, log } = options;
  const subscribers = listeners();
  let sending: Promise<unknown> = Promise.resolve();
  const pending = batcher(options.batchMs ?? DEFAULT_FEED_BATCH_MS, (calls, incidents, refunds) => {
    const payloads = notificationPayloads(calls, incidents, refunds);
    sending = db.execute(sql`select pg_notify(${LIVE_CHANNEL}, p) from unnest(${sql.param(payloads)}::text[]) as p`).catch((error: unknown) => {
      log.error({ err: error }, 'live changes could not be sent to the other instances');
      subscribers.deliver({ kind: 'gap' });
    });
  });

  let listener: Client | undefined;
  let closed = false;
  let everListened = false;
  let retryMs = 500;
  let retry: NodeJS.Timeout | undefined;

  const listenAgain = (lost: Client) => {
    if (closed || listener !== lost) return;
    listener = undefined;
    lost.removeAllListeners('notification');
    lost.end().catch(() => {});
    retry = setTimeout(() => void listen(), retryMs);
    retry.unref();
    retryMs = Math.min(retryMs * 2, options.maxRetryMs ?? 30_000);
  };

  async function listen() {
    const client = new Client({ connectionString: options.databaseUrl });
    listener = client;
    client.on('notification', (message) => {
      if (message.channel !== LIVE_CHANNEL) return;
      const delivery = readNotification(message.payload);
      if (delivery) subscribers.deliver(delivery);
    });
    client.on('error', (error) => {
      log.warn({ err: error }, 'the live feed lost its PostgreSQL connection; listening again');
      listenAgain(client);
    });
    client.on('end', () => listenAgain(client));
    try {
      await client.connect();
      await client.query(`listen ${LIVE_CHANNEL}`);
    } catch (error) {
      log.warn({ err: error }, 'the live feed could not listen on PostgreSQL; trying again');
      listenAgain(client);
      return;
    }
    if (closed) return void client.end().catch(() => {});
    retryMs = 500;
    // Whatever was committed while nobody listened is lost to this process's clients: they read again.
    if (everListened) subscribers.deliver({ kind: 'gap' });
    everListened = true;
  }

  return {
    kind: 'postgres',
    callsChanged(ids) {
      if (!closed) pending.calls(ids);
    },
    incidentChanged(incident) {
      if (!closed) pending.incident(incident);
    },
    refundChanged(refund) {
      if (!closed) pending.refund(refund);
    },
    subscribe: subscribers.add,
    start: () => listen(),
    async close() {
      closed = true;
      clearTimeout(retry);
      pending.flush();
      await sending;
      await listener?.end().catch(() => {});
      listener = undefined;
    },
  };
}
