import { and, eq, inArray, sql } from 'drizzle-orm';
import type { LiveTransaction } from '../../../src/domain/live';
import { RESOLVE_UNDO_SECONDS, type BulkResolveOutcome, type ResolveReason } from '../../../src/domain/resolution';
import { MESSAGE_STATUS, type MessageStatus } from '../../../src/domain/transaction-events';
import type { Db, DbOrTx } from '../db/client';
import { preparedRows } from '../db/prepared';
import { awaitingPayment, callIs, paymentNeverRequested, transactions } from '../db/schema';
import { callStatus, isoTime, rowsOf } from './sql-fragments';
import { eventKey, recordEventsSql, transactionEvent, transactionEventsRepository, type CallEvent, type NewTransactionEvent } from './transaction-events-repository';
import { transactionReads } from './transaction-reads';

export type { TransactionFilter } from './transaction-reads';

/** What settling a payment needs of its call, with the active content its ticket would be. */
export interface SettlementCall {
  id: string;
  isComplete: boolean;
  isDeleted: boolean;
  categoryId: string | null;
  categoryLevel: string | null;
  campaignKey: string | null;
  teamName: string | null;
  phoneNumber: string;
  round: string | null;
  /** Whether the vote's campaign holds a flagged number's new votes for review (vote integrity). */
  holdSuspicious: boolean | null;
  /** The active content of the call's category and level now, if any. */
  activeMessage: string | null;
}

/** A call a settlement has just decided: whom its ticket goes to, and its code for the metrics. */
export interface SettledCall {
  id: string;
  phoneNumber: string;
  serviceCode: string;
}

const p = (name: string) => sql.placeholder(name);

const settlementCallStatement = sql`select t.id, t.is_complete as "isComplete", t.is_deleted as "isDeleted", t.category_id as "categoryId",
    t.category_level as "categoryLevel", t.campaign_key as "campaignKey", t.team_name as "teamName",
    t.phone_number as "phoneNumber", t.round, (select c.hold_suspicious from campaigns c where c.key = t.campaign_key) as "holdSuspicious",
    (select n.message from contents n where n.category_id = t.category_id and n.category_level = t.category_level and n.active limit 1) as "activeMessage"
  from transactions t where t.payment_ref = ${sql.placeholder('reference')} limit 1`;

/**
 * A payment callback's call (as `settlementCallStatement`), with the callback recorded on it in the
 * same statement when nothing will settle it: the call was settled already, or `always` (a PENDING
 * callback). A provider's repeated callback is then one round trip, as the first is three.
 */
const callbackCallStatement = sql`with found as (${settlementCallStatement}), recorded as (
    ${recordEventsSql(sql`select id, ${p('kind')}::text, ${p('actor')}::text, null::uuid, ${p('detail')}::jsonb, ${p('dedupeKey')}::text
      from found where ${p('always')}::boolean or "isComplete" or "isDeleted"`)}
  )
  select * from found`;

/**
 * Settles a pending payment and records its events in one statement (one commit on the hot path of
 * a callback), prepared once per connection: built and planned afresh it cost a callback more than
 * the rest of its statements.
 */
const settleStatement = sql`
  with settled as (
    update transactions
    set is_complete = ${p('isComplete')}, is_deleted = ${p('isDeleted')}, ticket_message = ${p('ticketMessage')},
        message_statuses = ${p('messageStatuses')}, failure_reason = ${p('failureReason')}::text, callback_time = now(),
        vote_hold = ${p('voteHold')}::text
    where payment_ref = ${p('reference')} and not is_complete and not is_deleted
    returning id, phone_number, service_code
  ), recorded as (
    ${recordEventsSql(sql`
      select ${p('alongTransactionId')}::uuid, ${p('alongKind')}::text, ${p('alongActor')}::text, null::uuid, ${p('alongDetail')}::jsonb, ${p('alongDedupeKey')}::text
      where ${p('alongKind')}::text is not null
      union all
      select id, ${p('settledKind')}::text, ${p('settledActor')}::text, null::uuid, ${p('settledDetail')}::jsonb, ${p('settledDedupeKey')}::text from settled`)}
  )
  select id, phone_number as "phoneNumber", service_code as "serviceCode" from settled`;

/** Calls as the live stream sends them (src/domain/live.ts), read by id. */
const liveStatesStatement = sql`select id as "_id", service_code as name, phone_number as "phoneNumber",
    ${callStatus(transactions)} as status, is_resolved as "isResolved",
    ${isoTime(transactions.createdAt)} as "createdAt"
  from transactions where id = any(${p('ids')}::uuid[])`;

/**
 * A ticket SMS's status on its call and its event, in one statement: a process killed in between
 * would otherwise leave a ticket 'Sent' with no 'sms_sent' on its timeline. One statement rather
 * than a transaction of two, because the round trips of a transaction weigh on every paid call.
 */
const ticketSmsStatement = sql`
  with updated as (
    update transactions set message_statuses = ${p('status')}, ticket_sms_ref = coalesce(${p('providerRef')}::text, ticket_sms_ref)
    where id = ${p('id')}
    returning id
  )
  ${recordEventsSql(sql`select id, ${p('kind')}::text, ${p('actor')}::text, ${p('actorUserId')}::uuid, ${p('detail')}::jsonb, null::text from updated`)}`;

/** Why support resolved calls: a reason and a note, each optional. */
export interface Resolution {
  reason?: ResolveReason | null;
  note?: string | null;
}

/**
 * Settles a failed or pending call as paid ('Issue ticket' from a provider statement) and records
 * its event in the same statement, with what the call was before the update took it (failed or
 * pending). The row lock makes two concurrent settlements of one call settle it once.
 */
const settleReconciledStatement = (reference: string, values: SettledValues, event: CallEvent) => sql`
  with target as (
    select id, is_deleted from transactions where payment_ref = ${reference} and not is_complete for update
  ), settled as (
    update transactions t
    set is_complete = true, is_deleted = false, ticket_message = ${values.ticketMessage}, message_statuses = ${values.messageStatuses}, callback_time = now(),
      vote_hold = ${values.voteHold ?? null}::text
    from target where t.id = target.id
    returning t.id, t.phone_number, t.service_code, target.is_deleted as was_failed
  ), recorded as (
    ${recordEventsSql(sql`select id, ${event.kind}::text, ${event.actor}::text, ${event.actorUserId ?? null}::uuid,
      ${JSON.stringify(event.detail ?? {})}::jsonb || jsonb_build_object('previously', case when was_failed then 'failed' else 'pending' end), ${event.dedupeKey ?? null}::text from settled`)}
  )
  select id, phone_number as "phoneNumber", service_code as "serviceCode" from settled`;

/** The calls a resolve changed, as what runs in its transaction with it (the audit entries) sees them. */
export interface ResolvedCall {
  id: string;
  serviceCode: string;
  phoneNumber: string;
}
/** Runs inside a resolve's transaction, after the calls are resolved (their audit entries). */
export type AlsoOnResolve = (tx: DbOrTx, resolved: ResolvedCall[]) => Promise<void>;

/** What settling writes on the call: processed with its ticket, or failed with why. */
export interface SettledValues {
  isComplete: boolean;
  isDeleted: boolean;
  ticketMessage: string | null;
  messageStatuses: MessageStatus;
  /** Why the payment failed in the provider's words, when it failed and the provider gave any. */
  failureReason?: string | null;
  /** 'held' for a flagged number's vote settled out of the counts until a reviewer decides (vote integrity). */
  voteHold?: 'held' | null;
}

/** What asking to undo a resolve came to: undone (with the resolve it took back), or why not. */
export type UndoResolveOutcome =
  | { outcome: 'undone'; call: ResolvedCall; undone: { reason: ResolveReason | null; note: string | null; resolvedAt: string } }
  | { outcome: 'not-resolved' | 'other-resolver' | 'too-late' };

export function transactionsRepository(db: Db) {
  // Every payment callback asks this; prepared once per connection. The ticket's content comes
  // along, a round trip fewer than reading it after.
  let settlementCall: ReturnType<typeof preparedRows<SettlementCall>> | undefined;
  let settleOne: ReturnType<typeof preparedRows<SettledCall>> | undefined;
  let callbackCall: ReturnType<typeof preparedRows<SettlementCall>> | undefined;
  let ticketSms: ReturnType<typeof preparedRows> | undefined;
  let liveStates: ReturnType<typeof preparedRows<LiveTransaction>> | undefined;

  /**
   * Resolves the failed calls of `ids` among `codes` (every code when undefined) in one
   * transaction, each with its 'resolved' event, and answers what became of every id: 'resolved'
   * now, 'already-resolved' earlier (the first resolver and reason stay), or 'refused' for one that
   * is unknown, not failed, or outside `codes`, alike, so an answer tells nothing of others' calls.
   */
  async function resolveMany(
    ids: readonly string[],
    userId: string,
    resolution: Resolution,
    codes?: readonly string[],
    alsoInTransaction?: AlsoOnResolve,
  ): Promise<Map<string, BulkResolveOutcome>> {
    const outcomes = new Map<string, BulkResolveOutcome>(ids.map((id) => [id, 'refused']));
    if (ids.length === 0 || codes?.length === 0) return outcomes;
    const failedInScope = and(
      inArray(transactions.id, [...ids]),
      callIs.failed(transactions),
      codes ? inArray(transactions.serviceCode, [...codes]) : undefined,
    );
    const reason = resolution.reason ?? null;
    const note = resolution.note || null;
    await db.transaction(async (tx) => {
      const resolved = await tx
        .update(transactions)
        .set({ isResolved: true, resolvedById: userId, resolvedAt: sql`now()`, resolvedReason: reason, resolvedNote: note })
        .where(and(failedInScope, eq(transactions.isResolved, false)))
        .returning({ id: transactions.id, serviceCode: transactions.serviceCode, phoneNumber: transactions.phoneNumber });
      await transactionEventsRepository(tx).record(...resolved.map(({ id }) => transactionEvent.resolved({ transactionId: id, userId, reason, note })));
      if (alsoInTransaction && resolved.length > 0) await alsoInTransaction(tx, resolved);
      const already = await tx.select({ id: transactions.id }).from(transactions).where(and(failedInScope, eq(transactions.isResolved, true)));
      for (const { id } of already) outcomes.set(id, 'already-resolved');
      for (const { id } of resolved) outcomes.set(id, 'resolved');
    });
    return outcomes;
  }

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
    async resolve(id: string, userId: string, resolution: Resolution = {}, alsoInTransaction?: AlsoOnResolve): Promise<boolean> {
      return (await resolveMany([id], userId, resolution, undefined, alsoInTransaction)).get(id) === 'resolved';
    },

    resolveMany,

    /**
     * Takes back `userId`'s resolve of a call within RESOLVE_UNDO_SECONDS of it, by the database's
     * clock (the one that stamped it): the call is failed and unresolved again, with a
     * 'resolve_undone' event, and `alsoInTransaction` (its audit entry) commits with it. The row is
     * locked first, so an undo and a second resolve of the same call happen one after the other.
     * The 'resolved' event taken back keeps its place on the timeline under another key, so the
     * call can be resolved, and recorded, again.
     */
    async undoResolve(id: string, userId: string, alsoInTransaction?: (tx: DbOrTx, call: ResolvedCall, undone: { reason: ResolveReason | null; note: string | null }) => Promise<void>): Promise<UndoResolveOutcome> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select({
            id: transactions.id,
            serviceCode: transactions.serviceCode,
            phoneNumber: transactions.phoneNumber,
            isResolved: transactions.isResolved,
            resolvedById: transactions.resolvedById,
            resolvedReason: transactions.resolvedReason,
            resolvedNote: transactions.resolvedNote,
            resolvedAt: isoTime(transactions.resolvedAt),
            inTime: sql<boolean>`coalesce(${transactions.resolvedAt} > now() - make_interval(secs => ${RESOLVE_UNDO_SECONDS}), false)`,
          })
          .from(transactions)
          .where(eq(transactions.id, id))
          .for('update');
        if (!row?.isResolved) return { outcome: 'not-resolved' };
        if (row.resolvedById !== userId) return { outcome: 'other-resolver' };
        if (!row.inTime) return { outcome: 'too-late' };
        await tx
          .update(transactions)
          .set({ isResolved: false, resolvedById: null, resolvedAt: null, resolvedReason: null, resolvedNote: null })
          .where(eq(transactions.id, id));
        await tx.execute(sql`update transaction_events set dedupe_key = ${eventKey.resolved(id)} || ':undone:' || id where dedupe_key = ${eventKey.resolved(id)}`);
        const undone = { reason: (row.resolvedReason as ResolveReason | null) ?? null, note: row.resolvedNote ?? null };
        await transactionEventsRepository(tx).record(transactionEvent.resolveUndone({ transactionId: id, userId, ...undone }));
        const call = { id: row.id, serviceCode: row.serviceCode, phoneNumber: row.phoneNumber };
        await alsoInTransaction?.(tx, call, undone);
        return { outcome: 'undone', call, undone: { ...undone, resolvedAt: row.resolvedAt ?? '' } };
      });
    },

    /** The calls of `ids` as the live stream sends them, in their state now. */
    async liveStates(ids: readonly string[]): Promise<LiveTransaction[]> {
      liveStates ??= preparedRows<LiveTransaction>(db, 'live_states', liveStatesStatement);
      return liveStates({ ids: [...ids] });
    },

    /**
     * Claims a failed ticket SMS for one resend: only the first of concurrent or repeated clicks
     * moves it from 'Failed' to 'Resending', so only that one sends. Answers the claimed call. `tx`:
     * the transaction that records who asked (the audit entry).
     */
    async claimTicketResend(id: string, tx: DbOrTx = db) {
      const [row] = await tx
        .update(transactions)
        .set({ messageStatuses: MESSAGE_STATUS.resending })
        .where(and(eq(transactions.id, id), eq(transactions.isComplete, true), eq(transactions.messageStatuses, MESSAGE_STATUS.failed)))
        .returning();
      return row;
    },

    /** Gives a claimed resend back ('Failed' again) when it could not be sent at all. */
    async releaseTicketResend(id: string) {
      await db
        .update(transactions)
        .set({ messageStatuses: MESSAGE_STATUS.failed })
        .where(and(eq(transactions.id, id), eq(transactions.messageStatuses, MESSAGE_STATUS.resending)));
    },

    // --- ingestion (USSD and payment callbacks) ---

    /** The call of a payment reference, as settling it needs it (payment-settlement.ts). */
    async findForSettlement(reference: string): Promise<SettlementCall | undefined> {
      settlementCall ??= preparedRows<SettlementCall>(db, 'settlement_call', settlementCallStatement);
      const [row] = await settlementCall({ reference });
      return row;
    },

    /**
     * The call of a callback's reference, as settling it needs it, with `callback` recorded on it in
     * the same statement when the call is settled already or `always` (callbackCallStatement).
     */
    async findRecordingCallback(reference: string, callback: CallEvent, always: boolean): Promise<SettlementCall | undefined> {
      callbackCall ??= preparedRows<SettlementCall>(db, 'callback_call', callbackCallStatement);
      const [row] = await callbackCall({ reference, always, kind: callback.kind, actor: callback.actor, detail: JSON.stringify(callback.detail ?? {}), dedupeKey: callback.dedupeKey ?? null });
      return row;
    },

    /**
     * Settles a pending payment and records, in the same statement: `along` (the callback or poll
     * that said so) whether or not it settles, and `settledEvent` on the call only if this statement
     * settled it. Answers the settled call, or undefined when it was not pending (already settled,
     * or no such reference).
     */
    async settleRecording(reference: string, values: SettledValues, settledEvent: CallEvent, along?: NewTransactionEvent): Promise<SettledCall | undefined> {
      settleOne ??= preparedRows<SettledCall>(db, 'settle_payment', settleStatement);
      const [settled] = await settleOne({
        ...values,
        failureReason: values.failureReason ?? null,
        voteHold: values.voteHold ?? null,
        reference,
        alongTransactionId: along?.transactionId ?? null,
        alongKind: along?.kind ?? null,
        alongActor: along?.actor ?? null,
        alongDetail: along ? JSON.stringify(along.detail ?? {}) : null,
        alongDedupeKey: along?.dedupeKey ?? null,
        settledKind: settledEvent.kind,
        settledActor: settledEvent.actor,
        settledDetail: JSON.stringify(settledEvent.detail ?? {}),
        settledDedupeKey: settledEvent.dedupeKey ?? null,
      });
      return settled;
    },

    /**
     * Settles a failed or pending call of `reference` as paid, recording `event` (its 'previously' filled
     * in from the call as the update found it) in the same statement, within `tx` when given. Answers
     * the settled call, or undefined when it was processed already or no call has the reference.
     */
    async settleReconciled(reference: string, values: SettledValues, event: CallEvent, tx: DbOrTx = db): Promise<SettledCall | undefined> {
      const [settled] = await rowsOf<SettledCall>(tx, settleReconciledStatement(reference, values, event));
      return settled;
    },

    /**
     * Lands what the SMS provider said of a ticket SMS on its call ('Sent' or 'Failed', and the
     * provider's id) with its event on the timeline, in one statement.
     */
    async recordTicketSms(id: string, sent: { status: MessageStatus; providerRef: string | null }, event: CallEvent) {
      ticketSms ??= preparedRows(db, 'ticket_sms_recorded', ticketSmsStatement);
      await ticketSms({
        status: sent.status,
        providerRef: sent.providerRef || null,
        id,
        kind: event.kind,
        actor: event.actor,
        actorUserId: event.actorUserId ?? null,
        detail: JSON.stringify(event.detail ?? {}),
      });
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
    async landTicketDelivery(ticketSmsRef: string, messageStatuses: typeof MESSAGE_STATUS.delivered | typeof MESSAGE_STATUS.failed) {
      const changed = await db
        .update(transactions)
        .set({ messageStatuses })
        .where(and(eq(transactions.ticketSmsRef, ticketSmsRef), sql`${transactions.messageStatuses} is distinct from ${MESSAGE_STATUS.delivered}`))
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
        .where(and(eq(transactions.messageStatuses, MESSAGE_STATUS.sending), sql`${transactions.callbackTime} < now() - make_interval(secs => ${seconds})`))
        .orderBy(transactions.callbackTime)
        .limit(limit);
    },

    /** Claims an unsent ticket for one sender: only the first claim of a call succeeds. */
    async claimUnsentTicket(id: string, claim: string) {
      const claimed = await db
        .update(transactions)
        .set({ ticketSmsRef: claim })
        .where(and(eq(transactions.id, id), eq(transactions.messageStatuses, MESSAGE_STATUS.sending), sql`${transactions.ticketSmsRef} is null`))
        .returning({ id: transactions.id });
      return claimed.length > 0;
    },

    /** Clears a claim the SMS provider's id did not replace (it gave none). */
    async releaseTicketClaim(id: string, claim: string) {
      await db.update(transactions).set({ ticketSmsRef: null }).where(and(eq(transactions.id, id), eq(transactions.ticketSmsRef, claim)));
    },

    /**
     * Takes up to `limit` payments still pending after `minutes`, oldest first (DESIGN §6), for one
     * sweeper to ask the provider about: each is claimed for `claimSeconds`, and rows another
     * instance is claiming are skipped (SKIP LOCKED), so every instance sweeps and each payment is
     * asked about once. A claim left by a sweeper that stopped lapses and the payment is taken again.
     */
    async claimStalePayments(minutes: number, limit: number, claimSeconds: number): Promise<{ id: string; paymentRef: string; createdAt: Date }[]> {
      const claimed = await rowsOf<{ id: string; paymentRef: string; createdAt: Date | string }>(
        db,
        sql`
        update transactions set sweep_claimed_until = now() + make_interval(secs => ${claimSeconds})
        where id in (
          select id from transactions
          where ${awaitingPayment(transactions)}
            and created_at < now() - make_interval(mins => ${minutes})
            and (sweep_claimed_until is null or sweep_claimed_until < now())
          order by created_at
          limit ${limit}
          for update skip locked)
        returning id, payment_ref as "paymentRef", created_at as "createdAt"`,
      );
      return claimed.map((row) => ({ ...row, createdAt: new Date(row.createdAt) })).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
    },

    /**
     * Fails up to `limit` calls pending for more than `minutes` that no payment was ever requested
     * for (no reference, so no provider to ask), oldest first, each with its 'payment_settled' event
     * in the same statement. Rows another instance is failing are skipped (SKIP LOCKED) and only calls
     * still pending are taken, so each is failed once however many sweepers run. Answers their ids.
     */
    async failNeverRequested(minutes: number, limit: number): Promise<string[]> {
      const event = transactionEvent.paymentNeverRequested();
      const failed = await rowsOf<{ id: string }>(
        db,
        sql`
        with failed as (
          update transactions set is_deleted = true, message_statuses = ${MESSAGE_STATUS.paymentNeverRequested}, callback_time = now()
          where id in (
            select id from transactions
            where ${paymentNeverRequested(transactions)} and created_at < now() - make_interval(mins => ${minutes})
            order by created_at
            limit ${limit}
            for update skip locked)
          and ${callIs.pending(transactions)}
          returning id
        ), recorded as (
          ${recordEventsSql(sql`select id, ${event.kind}::text, ${event.actor}::text, null::uuid, ${JSON.stringify(event.detail)}::jsonb,
            ${eventKey.neverRequested('')} || id from failed`)}
        )
        select id from failed`,
      );
      return failed.map((row) => row.id);
    },

    /** Gives a claimed payment back for the next sweep (the provider could not be asked). */
    async releaseSweepClaim(id: string) {
      await db.update(transactions).set({ sweepClaimedUntil: null }).where(eq(transactions.id, id));
    },
  };
}

export type TransactionsRepository = ReturnType<typeof transactionsRepository>;
