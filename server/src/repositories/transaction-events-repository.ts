import { asc, eq, or, sql } from 'drizzle-orm';
import type { TransactionEvent, TransactionEventDetail, TransactionEventKind } from '../../../src/domain/transaction-events';
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

/** The events of calls (DESIGN §6): recorded by ingestion, the sweeper and staff actions; read by 'Details'. */
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

    /** Links a session's earlier hops to the call they became. */
    async attachSession(sessionId: string, transactionId: string): Promise<void> {
      await db
        .update(transactionEvents)
        .set({ transactionId })
        .where(sql`${transactionEvents.sessionId} = ${sessionId} and ${transactionEvents.transactionId} is null`);
    },
  };
}

export type TransactionEventsRepository = ReturnType<typeof transactionEventsRepository>;
