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

/** The events of calls (DESIGN §6): recorded by ingestion, the sweeper and staff actions; read by 'Details'. */
export function transactionEventsRepository(db: DbOrTx) {
  // Prepared on first use: building drizzle's insert for each hop cost more CPU than PostgreSQL
  // spent running it (bench:ingest profile).
  let recordOne: ReturnType<typeof preparedRows<{ id: number }>> | undefined;
  return {
    /** Records events; one whose dedupeKey was already recorded is skipped. Answers how many were new. */
    async record(...events: NewTransactionEvent[]): Promise<number> {
      if (events.length === 0) return 0;
      if (events.length === 1) {
        const [event] = events;
        recordOne ??= preparedRows<{ id: number }>(db as Db, 'record_transaction_event', recordOneStatement);
        const inserted = await recordOne({
          transactionId: event.transactionId ?? null,
          sessionId: event.sessionId ?? null,
          kind: event.kind,
          actor: event.actor,
          actorUserId: event.actorUserId ?? null,
          detail: JSON.stringify(event.detail ?? {}),
          dedupeKey: event.dedupeKey ?? null,
        });
        return inserted.length;
      }
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
