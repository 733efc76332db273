import { and, eq, sql, type SQL } from 'drizzle-orm';
import { TICKET_SMS_STATUS } from '../../../src/domain/transaction-events';
import type { Db } from '../db/client';
import { preparedRows } from '../db/prepared';
import { transactions } from '../db/schema';
import { transactionEventsRepository } from './transaction-events-repository';
import { transactionReads } from './transaction-reads';
import type { NewTransactionEvent } from './transaction-events-repository';

const eventRow = (event: Omit<NewTransactionEvent, 'transactionId'>, transactionId: SQL) =>
  sql`select ${transactionId}, ${event.kind}::text, ${event.actor}::text, ${JSON.stringify(event.detail ?? {})}::jsonb, ${event.dedupeKey ?? null}::text`;

export type { TransactionFilter } from './transaction-reads';

/** `messageStatuses` while one 'Resend ticket' is sending; a second click finds it taken. */
export const TICKET_RESENDING = 'Resending';

/** What settling a payment needs of its call, with the active content its ticket would be. */
export interface SettlementCall {
  id: string;
  isComplete: boolean;
  isDeleted: boolean;
  categoryId: string | null;
  categoryLevel: string | null;
  campaignKey: string | null;
  teamName: string | null;
  /** The active content of the call's category and level now, if any. */
  activeMessage: string | null;
}

const settlementCallStatement = sql`select t.id, t.is_complete as "isComplete", t.is_deleted as "isDeleted", t.category_id as "categoryId",
    t.category_level as "categoryLevel", t.campaign_key as "campaignKey", t.team_name as "teamName",
    (select n.message from contents n where n.category_id = t.category_id and n.category_level = t.category_level and n.active limit 1) as "activeMessage"
  from transactions t where t.payment_ref = ${sql.placeholder('reference')} limit 1`;

const p = (name: string) => sql.placeholder(name);

/**
 * `settleRecording` with at most one event along (a callback, a poll, or none), prepared once per
 * connection: built and planned afresh it cost a callback more than the rest of its statements.
 */
const settleStatement = sql`
  with settled as (
    update transactions
    set is_complete = ${p('isComplete')}, is_deleted = ${p('isDeleted')}, ticket_message = ${p('ticketMessage')},
        message_statuses = ${p('messageStatuses')}, callback_time = now()
    where payment_ref = ${p('reference')} and not is_complete and not is_deleted
    returning id, phone_number
  ), recorded as (
    insert into transaction_events (transaction_id, kind, actor, detail, dedupe_key)
    select ${p('alongTransactionId')}::uuid, ${p('alongKind')}::text, ${p('alongActor')}::text, ${p('alongDetail')}::jsonb, ${p('alongDedupeKey')}::text
    where ${p('alongKind')}::text is not null
    union all
    select id, ${p('settledKind')}::text, ${p('settledActor')}::text, ${p('settledDetail')}::jsonb, ${p('settledDedupeKey')}::text from settled
    on conflict (dedupe_key) do nothing
  )
  select id, phone_number as "phoneNumber" from settled`;

export function transactionsRepository(db: Db) {
  // Every payment callback asks this; prepared once per connection. The ticket's content comes
  // along, a round trip fewer than reading it after.
  let settlementCall: ReturnType<typeof preparedRows<SettlementCall>> | undefined;
  let settleOne: ReturnType<typeof preparedRows<{ id: string; phoneNumber: string }>> | undefined;
  return {
    ...transactionReads(db),

    async findById(id: string) {
      const [row] = await db.select().from(transactions).where(eq(transactions.id, id)).limit(1);
      return row;
    },

    /**
     * Marks a failed call resolved once, with a 'resolved' event on its timeline; a second call
     * keeps the first resolver and records nothing. Answers whether this call resolved it.
     */
    async resolve(id: string, userId: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const resolved = await tx
          .update(transactions)
          .set({ isResolved: true, resolvedById: userId, resolvedAt: sql`now()` })
          .where(and(eq(transactions.id, id), eq(transactions.isResolved, false)))
          .returning({ id: transactions.id });
        if (resolved.length === 0) return false;
        await transactionEventsRepository(tx).record({ transactionId: id, kind: 'resolved', actor: 'user', actorUserId: userId, dedupeKey: `resolved:${id}` });
        return true;
      });
    },

    /**
     * Claims a failed ticket SMS for one resend: only the first of concurrent or repeated clicks
     * moves it from 'Failed' to 'Resending', so only that one sends. Answers the claimed call.
     */
    async claimTicketResend(id: string) {
      const [row] = await db
        .update(transactions)
        .set({ messageStatuses: TICKET_RESENDING })
        .where(and(eq(transactions.id, id), eq(transactions.isComplete, true), eq(transactions.messageStatuses, TICKET_SMS_STATUS.failed)))
        .returning();
      return row;
    },

    /** Gives a claimed resend back ('Failed' again) when it could not be sent at all. */
    async releaseTicketResend(id: string) {
      await db
        .update(transactions)
        .set({ messageStatuses: TICKET_SMS_STATUS.failed })
        .where(and(eq(transactions.id, id), eq(transactions.messageStatuses, TICKET_RESENDING)));
    },

    // --- ingestion (USSD and payment callbacks) ---

    async findBySession(sessionId: string) {
      const [row] = await db.select().from(transactions).where(eq(transactions.sessionId, sessionId)).limit(1);
      return row;
    },

    /** The call of a payment reference, as settling it needs it (payment-settlement.ts). */
    async findForSettlement(reference: string): Promise<SettlementCall | undefined> {
      settlementCall ??= preparedRows<SettlementCall>(db, 'settlement_call', settlementCallStatement);
      const [row] = await settlementCall({ reference });
      return row;
    },

    /** Creates the pending call; a repeated session id answers the call it already made. */
    async createPending(values: typeof transactions.$inferInsert) {
      const [row] = await db.insert(transactions).values(values).onConflictDoNothing({ target: transactions.sessionId }).returning();
      return row ?? (values.sessionId ? await this.findBySession(values.sessionId) : undefined);
    },

    /** Settles a pending payment once; later callbacks for the same reference change nothing. */
    async settle(reference: string, values: Partial<typeof transactions.$inferInsert>) {
      const [row] = await db
        .update(transactions)
        .set(values)
        .where(and(eq(transactions.paymentRef, reference), eq(transactions.isComplete, false), eq(transactions.isDeleted, false)))
        .returning();
      return row;
    },

    /**
     * Settles a pending payment and records, in the same statement (one commit on the hot path of
     * a callback): `along` (the callback or poll that said so) whether or not it settles, and
     * `settledEvent` on the call only if this statement settled it. Answers the settled call, or
     * undefined when it was not pending (already settled, or no such reference).
     */
    async settleRecording(
      reference: string,
      values: { isComplete: boolean; isDeleted: boolean; ticketMessage: string | null; messageStatuses: string },
      settledEvent: Omit<NewTransactionEvent, 'transactionId'>,
      along: NewTransactionEvent[] = [],
    ): Promise<{ id: string; phoneNumber: string } | undefined> {
      if (along.length <= 1) {
        const [event] = along;
        settleOne ??= preparedRows<{ id: string; phoneNumber: string }>(db, 'settle_payment', settleStatement);
        const [settled] = await settleOne({
          ...values,
          reference,
          alongTransactionId: event?.transactionId ?? null,
          alongKind: event?.kind ?? null,
          alongActor: event?.actor ?? null,
          alongDetail: event ? JSON.stringify(event.detail ?? {}) : null,
          alongDedupeKey: event?.dedupeKey ?? null,
          settledKind: settledEvent.kind,
          settledActor: settledEvent.actor,
          settledDetail: JSON.stringify(settledEvent.detail ?? {}),
          settledDedupeKey: settledEvent.dedupeKey ?? null,
        });
        return settled;
      }
      const rows = [...along.map((event) => eventRow(event, sql`${event.transactionId ?? null}::uuid`)), eventRow(settledEvent, sql`id`).append(sql` from settled`)];
      const result = (await db.execute(sql`
        with settled as (
          update transactions
          set is_complete = ${values.isComplete}, is_deleted = ${values.isDeleted}, ticket_message = ${values.ticketMessage},
              message_statuses = ${values.messageStatuses}, callback_time = now()
          where payment_ref = ${reference} and not is_complete and not is_deleted
          returning id, phone_number
        ), recorded as (
          insert into transaction_events (transaction_id, kind, actor, detail, dedupe_key)
          ${sql.join(rows, sql` union all `)}
          on conflict (dedupe_key) do nothing
        )
        select id, phone_number as "phoneNumber" from settled`)) as unknown as { rows: { id: string; phoneNumber: string }[] };
      return result.rows[0];
    },

    async findByTicketSmsRef(ticketSmsRef: string) {
      const [row] = await db.select().from(transactions).where(eq(transactions.ticketSmsRef, ticketSmsRef)).limit(1);
      return row;
    },

    /**
     * Lands a ticket SMS's delivery report in `messageStatuses`, only while that SMS is still the
     * call's latest (a report for an SMS a resend replaced changes nothing) and never taking back
     * 'Delivered': the customer has the ticket. Answers whether the status changed.
     */
    async landTicketDelivery(ticketSmsRef: string, messageStatuses: 'Delivered' | 'Failed') {
      const changed = await db
        .update(transactions)
        .set({ messageStatuses })
        .where(and(eq(transactions.ticketSmsRef, ticketSmsRef), sql`${transactions.messageStatuses} is distinct from 'Delivered'`))
        .returning({ id: transactions.id });
      return changed.length > 0;
    },

    /**
     * Settled calls whose ticket SMS has been 'Sending' for more than `seconds`: the process that
     * settled them stopped before the SMS provider answered (read through a small partial index).
     */
    async unsentTickets(seconds: number, limit: number) {
      return db
        .select({ id: transactions.id, phoneNumber: transactions.phoneNumber, ticketMessage: transactions.ticketMessage })
        .from(transactions)
        .where(and(sql`${transactions.messageStatuses} = 'Sending'`, sql`${transactions.callbackTime} < now() - make_interval(secs => ${seconds})`))
        .orderBy(transactions.callbackTime)
        .limit(limit);
    },

    /** Claims an unsent ticket for one sender: only the first claim of a call succeeds. */
    async claimUnsentTicket(id: string, claim: string) {
      const claimed = await db
        .update(transactions)
        .set({ ticketSmsRef: claim })
        .where(and(eq(transactions.id, id), sql`${transactions.messageStatuses} = 'Sending'`, sql`${transactions.ticketSmsRef} is null`))
        .returning({ id: transactions.id });
      return claimed.length > 0;
    },

    /** Clears a claim the SMS provider's id did not replace (it gave none). */
    async releaseTicketClaim(id: string, claim: string) {
      await db.update(transactions).set({ ticketSmsRef: null }).where(and(eq(transactions.id, id), eq(transactions.ticketSmsRef, claim)));
    },

    async markFailed(id: string) {
      await db.update(transactions).set({ isDeleted: true, callbackTime: sql`now()` }).where(eq(transactions.id, id));
    },

    /**
     * Payments still pending after `minutes`, oldest first (DESIGN §6): the sweeper asks the
     * provider about each before settling or failing it.
     */
    async stalePayments(minutes: number, limit: number) {
      return db
        .select({ id: transactions.id, paymentRef: transactions.paymentRef, createdAt: transactions.createdAt })
        .from(transactions)
        .where(
          and(
            sql`not ${transactions.isComplete} and not ${transactions.isDeleted} and ${transactions.paymentRef} is not null`,
            sql`${transactions.createdAt} < now() - make_interval(mins => ${minutes})`,
          ),
        )
        .orderBy(transactions.createdAt)
        .limit(limit) as Promise<{ id: string; paymentRef: string; createdAt: Date }[]>;
    },
  };
}

export type TransactionsRepository = ReturnType<typeof transactionsRepository>;
