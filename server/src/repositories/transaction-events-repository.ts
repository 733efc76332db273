import { asc, eq, or, sql, type SQL } from 'drizzle-orm';
import { MESSAGE_STATUS, type TransactionEvent, type TransactionEventDetail, type TransactionEventKind } from '../../../src/domain/transaction-events';
import type { Db, DbOrTx } from '../db/client';
import { preparedRows } from '../db/prepared';
import { transactionEvents, users } from '../db/schema';

export interface NewTransactionEvent {
  kind: TransactionEventKind;
  actor: string;
  transactionId?: string | null;
  sessionId?: string | null;
  actorUserId?: string | null;
  detail?: TransactionEventDetail;
  /** Set for events that must be recorded once however often their cause repeats (a hop, a callback). */
  dedupeKey?: string;
}

/** An event of a call the statement that records it knows by then (a settled or created call). */
export type CallEvent = Omit<NewTransactionEvent, 'transactionId' | 'sessionId'>;

/**
 * The duplicate-guard keys: one event per key, however often its cause repeats (a network
 * repeating a hop, a provider repeating a callback, two clicks on Resolve).
 */
export const eventKey = {
  hop: (sessionId: string, text: string) => `hop:${sessionId}:${text}`,
  paymentRequested: (transactionId: string) => `payment_requested:${transactionId}`,
  /** A callback repeated with the same body is the same callback; another body for the same status is recorded too. */
  callback: (reference: string, status: string, bodyHash: string) => `callback:${reference}:${status}:${bodyHash}`,
  settled: (reference: string) => `settled:${reference}`,
  /** A call with no reference failed as never asked to pay, once. */
  neverRequested: (transactionId: string) => `never_requested:${transactionId}`,
  delivery: (providerRef: string, reported: string) => `delivery:${providerRef}:${reported.toLowerCase()}`,
  resolved: (transactionId: string) => `resolved:${transactionId}`,
  /** A call is settled from a statement once, whichever statement or click asked. */
  reconciled: (transactionId: string) => `reconciled:${transactionId}`,
  /** A statement's row is reviewed once; the same call in another statement is another review. */
  reconciliationReviewed: (rowId: string) => `reconciliation_reviewed:${rowId}`,
};

/** The events of a call's timeline, one typed builder per kind: what each records and under which key. */
export const transactionEvent = {
  ussdHop: (hop: { sessionId: string; text: string; reply: string; transactionId: string | null }): NewTransactionEvent => ({
    kind: 'ussd_hop',
    actor: 'customer',
    sessionId: hop.sessionId,
    transactionId: hop.transactionId,
    detail: { input: hop.text.split('*').pop() ?? '', reply: hop.reply },
    dedupeKey: eventKey.hop(hop.sessionId, hop.text),
  }),
  /** Recorded with the call it requests for, in the statement that creates it (its id is not known before). */
  paymentRequested: (request: { amount: number; provider: string }): TransactionEventDetail => ({ amount: request.amount, provider: request.provider }),
  paymentCallback: (callback: { provider: string; reference: string; status: string; bodyHash: string }): CallEvent => ({
    kind: 'payment_callback',
    actor: `provider:${callback.provider}`,
    detail: { status: callback.status },
    dedupeKey: eventKey.callback(callback.reference, callback.status, callback.bodyHash),
  }),
  /** A status poll: the provider's answer, or that it could not be reached. */
  paymentPolled: (poll: { transactionId: string; provider: string; said: string | undefined }): NewTransactionEvent => ({
    transactionId: poll.transactionId,
    kind: 'payment_polled',
    actor: poll.said ? `provider:${poll.provider}` : 'sweeper',
    detail: poll.said ? { status: poll.said, provider: poll.provider } : { status: null, provider: poll.provider, error: 'Provider unreachable' },
  }),
  paymentSettled: (decision: { reference: string; actor: string; status: string; via: string; reason?: string; failureReason?: string | null }): CallEvent => ({
    kind: 'payment_settled',
    actor: decision.actor,
    detail: { status: decision.status, via: decision.via, reason: decision.reason ?? null, ...(decision.failureReason ? { failureReason: decision.failureReason } : {}) },
    dedupeKey: eventKey.settled(decision.reference),
  }),
  /** A call pending past the payment timeout with no payment ever requested, failed by the sweeper (keyed by the statement that fails it). */
  paymentNeverRequested: (): CallEvent => ({
    kind: 'payment_settled',
    actor: 'sweeper',
    detail: { status: 'FAILED', via: 'timeout', reason: MESSAGE_STATUS.paymentNeverRequested },
  }),
  /** A ticket SMS handed to the provider: sent by settlement ('sms_sent') or by staff again ('ticket_resent'). */
  ticketSms: (
    cause: { kind: 'sms_sent' | 'ticket_resent'; actor: string; actorUserId?: string | null },
    sent: { status: string; provider: string; providerRef: string | null; failureReason: string | null },
  ): CallEvent => ({ kind: cause.kind, actor: cause.actor, actorUserId: cause.actorUserId ?? null, detail: sent }),
  smsDelivery: (report: { transactionId: string; provider: string; providerRef: string; reported: string; failureReason: string | null }): NewTransactionEvent => ({
    transactionId: report.transactionId,
    kind: 'sms_delivery',
    actor: `provider:${report.provider}`,
    detail: { status: report.reported, failureReason: report.failureReason },
    dedupeKey: eventKey.delivery(report.providerRef, report.reported),
  }),
  /** Staff marking a failed call resolved, with why (a RESOLVE_REASONS key) and their note, null when not given. */
  resolved: (resolution: { transactionId: string; userId: string; reason?: string | null; note?: string | null }): NewTransactionEvent => ({
    transactionId: resolution.transactionId,
    kind: 'resolved',
    actor: 'user',
    actorUserId: resolution.userId,
    detail: { reason: resolution.reason ?? null, note: resolution.note ?? null },
    dedupeKey: eventKey.resolved(resolution.transactionId),
  }),
  /** Staff taking back their own resolve within the undo window: the call is failed and unresolved again. */
  resolveUndone: (undone: { transactionId: string; userId: string; reason: string | null; note: string | null }): NewTransactionEvent => ({
    transactionId: undone.transactionId,
    kind: 'resolve_undone',
    actor: 'user',
    actorUserId: undone.userId,
    detail: { reason: undone.reason, note: undone.note },
  }),
  /**
   * A failed or pending call settled as paid because the provider's statement says SUCCESSFUL
   * ('Issue ticket'): who did it and from which statement line. The statement that settles adds
   * `previously` (failed or pending), as it found the call.
   */
  reconciled: (settled: { transactionId: string; userId: string; statement: string | null; line: number | null; amount: number | null; completedAt: string | null }): CallEvent => ({
    kind: 'reconciled',
    actor: 'user',
    actorUserId: settled.userId,
    detail: { statement: settled.statement, line: settled.line, amount: settled.amount, completedAt: settled.completedAt },
    dedupeKey: eventKey.reconciled(settled.transactionId),
  }),
  /** A processed call the statement shows no money for, looked at by staff ('Mark reviewed'), with their note. */
  reconciliationReviewed: (review: { transactionId: string; rowId: string; userId: string; statement: string | null; line: number | null; note: string }): NewTransactionEvent => ({
    transactionId: review.transactionId,
    kind: 'reconciliation_reviewed',
    actor: 'user',
    actorUserId: review.userId,
    detail: { statement: review.statement, line: review.line, note: review.note },
    dedupeKey: eventKey.reconciliationReviewed(review.rowId),
  }),
};

/**
 * The insert of events for statements that change a call and record what happened in one commit
 * (a settlement, a new call, a ticket SMS): `rows` selects (transaction_id, kind, actor,
 * actor_user_id, detail, dedupe_key). The only other writers of transaction_events are below.
 */
export const recordEventsSql = (rows: SQL) =>
  sql`insert into transaction_events (transaction_id, kind, actor, actor_user_id, detail, dedupe_key) ${rows} on conflict (dedupe_key) do nothing`;

/** The 'payment_requested' event of the calls `created` returns (id), keyed as `eventKey.paymentRequested`. */
export const paymentRequestedRowsSql = (detail: SQL, created: SQL) =>
  sql`select id, 'payment_requested', 'system', null::uuid, ${detail}::jsonb, 'payment_requested:' || id from ${created}`;

/** Links a session's earlier hops (recorded before its call existed) to the call they became. */
export const attachSessionHopsSql = (sessionId: SQL, transactionId: SQL, when: SQL) =>
  sql`update transaction_events set transaction_id = ${transactionId} where session_id = ${sessionId} and transaction_id is null and ${when}`;

/** One event, as every USSD hop and most callbacks record it. */
const recordOneStatement = sql`insert into transaction_events (transaction_id, session_id, kind, actor, actor_user_id, detail, dedupe_key)
  values (${sql.placeholder('transactionId')}, ${sql.placeholder('sessionId')}, ${sql.placeholder('kind')}, ${sql.placeholder('actor')},
    ${sql.placeholder('actorUserId')}, ${sql.placeholder('detail')}::jsonb, ${sql.placeholder('dedupeKey')})
  on conflict (dedupe_key) do nothing
  returning id`;

/** Events recorded together, as many as were waiting (`recordBatch`). */
const recordManyStatement = sql`insert into transaction_events (transaction_id, session_id, kind, actor, actor_user_id, detail, dedupe_key)
  select e.transaction_id, e.session_id, e.kind, e.actor, e.actor_user_id, e.detail::jsonb, e.dedupe_key
  from unnest(${sql.placeholder('transactionIds')}::uuid[], ${sql.placeholder('sessionIds')}::text[], ${sql.placeholder('kinds')}::text[],
    ${sql.placeholder('actors')}::text[], ${sql.placeholder('actorUserIds')}::uuid[], ${sql.placeholder('details')}::text[], ${sql.placeholder('dedupeKeys')}::text[])
    with ordinality as e(transaction_id, session_id, kind, actor, actor_user_id, detail, dedupe_key, n)
  order by e.n
  on conflict (dedupe_key) do nothing
  returning dedupe_key as "dedupeKey"`;

/** At most this many events in one statement. */
const BATCH_LIMIT = 200;

const eventValues = (event: NewTransactionEvent) => ({
  transactionId: event.transactionId ?? null,
  sessionId: event.sessionId ?? null,
  kind: event.kind,
  actor: event.actor,
  actorUserId: event.actorUserId ?? null,
  detail: JSON.stringify(event.detail ?? {}),
  dedupeKey: event.dedupeKey ?? null,
});

interface Waiting {
  event: NewTransactionEvent;
  done: (recorded: number) => void;
  failed: (error: unknown) => void;
}

/**
 * The events of calls (DESIGN §6), the only writer of transaction_events: recorded by ingestion, the
 * sweeper and staff actions; read by 'Details'.
 */
export function transactionEventsRepository(db: DbOrTx) {
  // Prepared on first use: building drizzle's insert for each hop cost more CPU than PostgreSQL
  // spent running it (bench:ingest profile).
  let recordOne: ReturnType<typeof preparedRows<{ id: number }>> | undefined;
  let recordMany: ReturnType<typeof preparedRows<{ dedupeKey: string | null }>> | undefined;
  const alone = async (event: NewTransactionEvent) => {
    recordOne ??= preparedRows<{ id: number }>(db as Db, 'record_transaction_event', recordOneStatement);
    return (await recordOne(eventValues(event))).length;
  };

  // Outside a transaction, events recorded while an insert is in flight wait for it and then go
  // together in one statement and one commit (group commit): every USSD hop records one, and a
  // commit's WAL flush cost more than the insert. Nobody waits when nothing is in flight, and each
  // caller still returns only once its event is committed.
  const inTransaction = 'rollback' in db;
  let waiting: Waiting[] = [];
  let flushing = false;
  const flush = async () => {
    flushing = true;
    while (waiting.length > 0) {
      const batch = waiting.slice(0, BATCH_LIMIT);
      waiting = waiting.slice(BATCH_LIMIT);
      if (batch.length === 1) {
        await alone(batch[0].event).then(batch[0].done, batch[0].failed);
        continue;
      }
      try {
        recordMany ??= preparedRows<{ dedupeKey: string | null }>(db as Db, 'record_transaction_events', recordManyStatement);
        const values = batch.map(({ event }) => eventValues(event));
        const inserted = await recordMany({
          transactionIds: values.map((value) => value.transactionId),
          sessionIds: values.map((value) => value.sessionId),
          kinds: values.map((value) => value.kind),
          actors: values.map((value) => value.actor),
          actorUserIds: values.map((value) => value.actorUserId),
          details: values.map((value) => value.detail),
          dedupeKeys: values.map((value) => value.dedupeKey),
        });
        // A key recorded now counts for the first of its callers; a key already there for none.
        const fresh = new Set(inserted.map((row) => row.dedupeKey));
        for (const { event, done } of batch) done(event.dedupeKey === undefined || fresh.delete(event.dedupeKey) ? 1 : 0);
      } catch {
        // One event that cannot be recorded (a call deleted meanwhile) must not fail the others.
        await Promise.all(batch.map(({ event, done, failed }) => alone(event).then(done, failed)));
      }
    }
    flushing = false;
  };
  const grouped = (event: NewTransactionEvent) =>
    new Promise<number>((done, failed) => {
      waiting.push({ event, done, failed });
      if (!flushing) void flush();
    });

  return {
    /** Records events; one whose dedupeKey was already recorded is skipped. Answers how many were new. */
    async record(...events: NewTransactionEvent[]): Promise<number> {
      if (events.length === 0) return 0;
      if (!inTransaction) return (await Promise.all(events.map(grouped))).reduce((sum, recorded) => sum + recorded, 0);
      if (events.length === 1) return alone(events[0]);
      const inserted = await db
        .insert(transactionEvents)
        .values(events.map((event) => ({ ...event, detail: event.detail ?? {} })))
        .onConflictDoNothing({ target: transactionEvents.dedupeKey })
        .returning({ id: transactionEvents.id });
      return inserted.length;
    },

    /** A call's events, oldest first: its own and its session's hops from before it existed. */
    async timeline(transaction: { id: string; sessionId: string | null }): Promise<TransactionEvent[]> {
      const rows = await db
        .select({
          id: transactionEvents.id,
          kind: transactionEvents.kind,
          at: transactionEvents.createdAt,
          actor: transactionEvents.actor,
          actorUserName: users.userName,
          detail: transactionEvents.detail,
        })
        .from(transactionEvents)
        .leftJoin(users, eq(users.id, transactionEvents.actorUserId))
        .where(
          transaction.sessionId
            ? or(eq(transactionEvents.transactionId, transaction.id), eq(transactionEvents.sessionId, transaction.sessionId))
            : eq(transactionEvents.transactionId, transaction.id),
        )
        .orderBy(asc(transactionEvents.createdAt), asc(transactionEvents.id));
      return rows.map((row) => ({
        _id: String(row.id),
        kind: row.kind as TransactionEventKind,
        at: row.at.toISOString(),
        actor: row.actor,
        actorUserName: row.actorUserName ?? null,
        detail: row.detail,
      }));
    },
  };
}

export type TransactionEventsRepository = ReturnType<typeof transactionEventsRepository>;
