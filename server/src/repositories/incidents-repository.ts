import { and, count, desc, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { Incident, IncidentFigures, IncidentKind, IncidentState } from '../../../src/domain/incidents';
import { MESSAGE_STATUS } from '../../../src/domain/transaction-events';
import type { Db, DbOrTx } from '../db/client';
import { awaitingPayment, incidents, transactionDailyStats, transactionEvents, transactions, users } from '../db/schema';
import { isoTime } from './sql-fragments';

type IncidentRow = typeof incidents.$inferSelect;

const toIncident = (row: IncidentRow): Incident => ({
  _id: row.id,
  serviceCode: row.serviceCode,
  kind: row.kind as IncidentKind,
  openedAt: row.openedAt.toISOString(),
  closedAt: row.closedAt?.toISOString() ?? null,
  figures: row.figures,
  acknowledgedBy: row.acknowledgedByName,
  acknowledgedAt: row.acknowledgedAt?.toISOString() ?? null,
  note: row.note,
});

/** Which incidents a caller reads: every one (undefined), or those of these service codes (never the service-wide ones). */
export interface IncidentFilter {
  codes?: readonly string[];
  state?: IncidentState;
}

function where(filter: IncidentFilter): SQL | undefined {
  if (filter.codes?.length === 0) return sql`false`;
  return and(
    filter.codes ? inArray(incidents.serviceCode, [...filter.codes]) : undefined,
    filter.state === 'open' ? isNull(incidents.closedAt) : filter.state === 'closed' ? isNotNull(incidents.closedAt) : undefined,
  );
}

/** A ticket SMS the provider answered about: sent, delivered, failed, or failed and being sent again. */
const SMS_ANSWERED = [MESSAGE_STATUS.sent, MESSAGE_STATUS.delivered, MESSAGE_STATUS.failed, MESSAGE_STATUS.resending];
const SMS_FAILED = [MESSAGE_STATUS.failed, MESSAGE_STATUS.resending];

/** Incidents (trouble the detector noticed), and the figures it reads to open and close them. */
export function incidentsRepository(db: Db) {
  return {
    /** Opens an incident unless one of its kind and code is open (whichever instance came first); answers it when this call opened it. */
    async open(values: { kind: IncidentKind; serviceCode: string | null; openedAt: Date; figures: IncidentFigures }): Promise<Incident | undefined> {
      const [row] = await db.insert(incidents).values(values).onConflictDoNothing().returning();
      return row ? toIncident(row) : undefined;
    },

    /** Closes an open incident; answers it when this call closed it. */
    async close(id: string, closedAt: Date): Promise<Incident | undefined> {
      const [row] = await db.update(incidents).set({ closedAt }).where(and(eq(incidents.id, id), isNull(incidents.closedAt))).returning();
      return row ? toIncident(row) : undefined;
    },

    /** An incident among those a caller reads (`codes` as in `IncidentFilter`). */
    async find(id: string, codes?: readonly string[]): Promise<Incident | undefined> {
      const [row] = await db
        .select()
        .from(incidents)
        .where(and(eq(incidents.id, id), where({ codes })));
      return row ? toIncident(row) : undefined;
    },

    /** Names who took an incident on, once (within `tx`): answers it when this call did, undefined when someone already had. */
    async acknowledge(id: string, by: { id: string; userName: string }, note: string | null, tx: DbOrTx = db): Promise<Incident | undefined> {
      const [row] = await tx
        .update(incidents)
        .set({ acknowledgedById: by.id, acknowledgedByName: by.userName, acknowledgedAt: new Date(), note })
        .where(and(eq(incidents.id, id), isNull(incidents.acknowledgedAt)))
        .returning();
      return row ? toIncident(row) : undefined;
    },

    async openOnes(): Promise<Incident[]> {
      return (await db.select().from(incidents).where(isNull(incidents.closedAt))).map(toIncident);
    },

    /** A page: open ones first, then the newest. */
    async page(filter: IncidentFilter, offset: number, limit: number) {
      const [rows, [{ total }]] = await Promise.all([
        db
          .select()
          .from(incidents)
          .where(where(filter))
          .orderBy(sql`${incidents.closedAt} is null desc`, desc(incidents.openedAt), desc(incidents.id))
          .limit(limit)
          .offset(offset),
        db.select({ total: count() }).from(incidents).where(where(filter)),
      ]);
      return { docs: rows.map(toIncident), total };
    },

    async openCount(codes?: readonly string[]): Promise<number> {
      const [{ total }] = await db.select({ total: count() }).from(incidents).where(where({ codes, state: 'open' }));
      return total;
    },

    /**
     * Per service code, the calls created in (`from`, `to`]: settled, failed, and their ticket SMS
     * the provider answered about and those that failed (read through the calls' time index).
     */
    async windowFigures(from: Date, to: Date) {
      const rows = await db
        .select({
          serviceCode: transactions.serviceCode,
          settled: sql<number>`count(*) filter (where ${transactions.isComplete} or ${transactions.isDeleted})::int`,
          failed: sql<number>`count(*) filter (where ${transactions.isDeleted} and not ${transactions.isComplete})::int`,
          sms: sql<number>`count(*) filter (where ${transactions.isComplete} and ${inArray(transactions.messageStatuses, SMS_ANSWERED)})::int`,
          smsFailed: sql<number>`count(*) filter (where ${transactions.isComplete} and ${inArray(transactions.messageStatuses, SMS_FAILED)})::int`,
        })
        .from(transactions)
        .where(sql`${transactions.createdAt} > ${from.toISOString()}::timestamptz and ${transactions.createdAt} <= ${to.toISOString()}::timestamptz`)
        .groupBy(transactions.serviceCode);
      return rows.map((row) => ({ ...row, settled: Number(row.settled), failed: Number(row.failed), sms: Number(row.sms), smsFailed: Number(row.smsFailed) }));
    },

    /** Per service code, settled and failed calls over the days [`fromDay`, `toDay`) (daily counts). */
    async dailyFigures(fromDay: string, toDay: string) {
      const s = transactionDailyStats;
      const rows = await db
        .select({
          serviceCode: s.serviceCode,
          settled: sql<number>`coalesce(sum(${s.calls}) filter (where ${s.isComplete} or ${s.isDeleted}), 0)::int`,
          failed: sql<number>`coalesce(sum(${s.calls}) filter (where ${s.isDeleted} and not ${s.isComplete}), 0)::int`,
        })
        .from(s)
        .where(sql`${s.dimension} = 'network' and ${s.day} >= ${fromDay}::date and ${s.day} < ${toDay}::date`)
        .groupBy(s.serviceCode);
      return rows.map((row) => ({ ...row, settled: Number(row.settled), failed: Number(row.failed) }));
    },

    /**
     * Payments requested before `before` and still pending that neither a callback nor a status
     * answer has spoken of (a poll that could not reach the provider is no answer), read through
     * the small index of pending payments.
     */
    async silentPayments(before: Date): Promise<{ silent: number; oldest: string | null }> {
      const e = transactionEvents;
      const [row] = await db
        .select({
          silent: sql<number>`count(*)::int`,
          oldest: sql<string | null>`${isoTime(sql`min(${transactions.createdAt})`)}`,
        })
        .from(transactions)
        .where(
          sql`${awaitingPayment(transactions)}
            and ${transactions.createdAt} < ${before.toISOString()}::timestamptz
            and not exists (select 1 from ${e} where ${e.transactionId} = ${transactions.id}
              and (${e.kind} = 'payment_callback' or (${e.kind} = 'payment_polled' and ${e.detail}->>'status' is not null)))`,
        );
      return { silent: Number(row.silent), oldest: row.oldest };
    },

    /** The addresses incidents are mailed to: admins and super-users with an email. */
    async managerEmails(): Promise<string[]> {
      const rows = await db
        .select({ email: users.email })
        .from(users)
        .where(and(inArray(users.role, ['admin', 'super-user', 'super-admin']), isNotNull(users.email)));
      return rows.map((row) => row.email!).filter(Boolean);
    },
  };
}

export type IncidentsRepository = ReturnType<typeof incidentsRepository>;
