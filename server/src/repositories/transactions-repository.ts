import { and, eq, sql } from 'drizzle-orm';
import { TICKET_SMS_STATUS } from '../../../src/domain/transaction-events';
import type { Db } from '../db/client';
import { transactions } from '../db/schema';
import { transactionEventsRepository } from './transaction-events-repository';
import { transactionReads } from './transaction-reads';

export type { TransactionFilter } from './transaction-reads';

/** `messageStatuses` while one 'Resend ticket' is sending; a second click finds it taken. */
export const TICKET_RESENDING = 'Resending';

export function transactionsRepository(db: Db) {
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

    async findByPaymentRef(reference: string) {
      const [row] = await db.select().from(transactions).where(eq(transactions.paymentRef, reference)).limit(1);
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

    async setMessageStatus(id: string, messageStatuses: string) {
      await db.update(transactions).set({ messageStatuses }).where(eq(transactions.id, id));
    },

    async markFailed(id: string) {
      await db.update(transactions).set({ isDeleted: true, callbackTime: sql`now()` }).where(eq(transactions.id, id));
    },

    /**
     * Fails the payments still pending after `minutes` (DESIGN §6). A late callback then finds the
     * payment settled and changes nothing. Answers how many were failed.
     */
    async failStalePayments(minutes: number): Promise<number> {
      const failed = await db
        .update(transactions)
        .set({ isDeleted: true, callbackTime: sql`now()`, messageStatuses: 'Payment timed out' })
        .where(
          and(
            sql`not ${transactions.isComplete} and not ${transactions.isDeleted} and ${transactions.paymentRef} is not null`,
            sql`${transactions.createdAt} < now() - make_interval(mins => ${minutes})`,
          ),
        )
        .returning({ id: transactions.id });
      return failed.length;
    },
  };
}

export type TransactionsRepository = ReturnType<typeof transactionsRepository>;
