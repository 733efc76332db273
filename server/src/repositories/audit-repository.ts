import { and, asc, count, desc, eq, gt, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import type { AuditAction, AuditChange, AuditEntityType, AuditEntry } from '../../../src/domain/audit';
import { isDay } from '../../../src/domain/calendar-day';
import { serviceTimeZone } from '../../../src/domain/format';
import type { DbOrTx } from '../db/client';
import { auditHead, auditLog } from '../db/schema';
import { isUuid } from '../../../src/domain/uuid';

export type AuditRow = typeof auditLog.$inferSelect;
/** An entry as it is written: everything but its place in the chain, which appending gives it. */
export type AuditRowValues = Omit<typeof auditLog.$inferInsert, 'seq'>;

export interface AuditFilter {
  actor?: string;
  action?: string;
  entityType?: string;
  entityId?: string;
  serviceCode?: string;
  /** A day (YYYY-MM-DD, from its start in the service's zone) or an ISO 8601 instant. */
  from?: string;
  /** A day (to its end in the service's zone) or an ISO 8601 instant, included. */
  to?: string;
}

export function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    _id: row.id,
    at: row.at.toISOString(),
    actor: { _id: row.actorId, userName: row.actorUserName, role: row.actorRole },
    ip: row.ip,
    action: row.action as AuditAction,
    entity: { type: row.entityType as AuditEntityType, id: row.entityId, label: row.entityLabel },
    serviceCode: row.serviceCode,
    changes: row.changes as AuditChange[],
    reason: row.reason,
    hash: row.hash,
  };
}

/** The instant a bound stands for: a day's start (or, for `to`, the next day's start) in the service's zone. */
function instantOf(bound: string, end: boolean): SQL {
  if (!isDay(bound)) return sql`${bound}::timestamptz`;
  return end ? sql`((${bound}::date + 1)::timestamp at time zone ${serviceTimeZone()}::text)` : sql`(${bound}::date::timestamp at time zone ${serviceTimeZone()}::text)`;
}

function whereOf(filter: AuditFilter): SQL | undefined {
  const a = auditLog;
  const parts: (SQL | undefined)[] = [];
  if (filter.actor) {
    const byName = sql`lower(${a.actorUserName}) = lower(${filter.actor})`;
    parts.push(isUuid(filter.actor) ? or(eq(a.actorId, filter.actor), byName) : byName);
  }
  if (filter.action) parts.push(eq(a.action, filter.action));
  if (filter.entityType) parts.push(eq(a.entityType, filter.entityType));
  if (filter.entityId) parts.push(eq(a.entityId, filter.entityId));
  if (filter.serviceCode) parts.push(eq(a.serviceCode, filter.serviceCode));
  if (filter.from) parts.push(sql`${a.at} >= ${instantOf(filter.from, false)}`);
  if (filter.to) parts.push(isDay(filter.to) ? sql`${a.at} < ${instantOf(filter.to, true)}` : sql`${a.at} <= ${instantOf(filter.to, true)}`);
  return and(...parts);
}

/** The audit trail's only writer (and reader): entries go in through `append`, which the audit module chains. */
export function auditRepository(db: DbOrTx) {
  return {
    /**
     * The chain's head, locked until the caller's transaction ends: writers on every API process
     * wait here in turn, and each reads the head its predecessor committed.
     */
    async lockHead(): Promise<{ seq: number; hash: string }> {
      const [head] = await db.select({ seq: auditHead.seq, hash: auditHead.hash }).from(auditHead).where(eq(auditHead.id, 1)).for('update');
      if (!head) throw new Error('The audit trail has no head row');
      return { seq: Number(head.seq), hash: head.hash };
    },

    /** The head as committed, unlocked (verify reads the chain up to it). */
    async head(): Promise<{ seq: number; hash: string }> {
      const [head] = await db.select({ seq: auditHead.seq, hash: auditHead.hash }).from(auditHead).where(eq(auditHead.id, 1));
      return { seq: Number(head?.seq ?? 0), hash: head?.hash ?? '' };
    },

    /**
     * Appends entries already chained after `head` (their hashes computed by the caller, who holds
     * the head's lock) and moves the head to the last of them, in one statement.
     */
    async append(head: { seq: number }, rows: (AuditRowValues & { hash: string })[]): Promise<void> {
      if (rows.length === 0) return;
      const values = rows.map((row, index) => ({ ...row, seq: head.seq + index + 1 }));
      const last = values[values.length - 1];
      const result = await db.execute(sql`with moved as (
          update ${auditHead} set seq = ${last.seq}, hash = ${last.hash} where id = 1 and seq = ${head.seq} returning 1
        )
        insert into ${auditLog} (id, seq, at, actor_id, actor_user_name, actor_role, ip, action, entity_type, entity_id, entity_label, service_code, changes, reason, hash)
        select v.id, v.seq, v.at, v.actor_id, v.actor_user_name, v.actor_role, v.ip, v.action, v.entity_type, v.entity_id, v.entity_label, v.service_code, v.changes, v.reason, v.hash
        from jsonb_to_recordset(${JSON.stringify(values.map(columnsOf))}::jsonb) as v(id uuid, seq bigint, at timestamptz, actor_id uuid, actor_user_name text, actor_role text,
          ip text, action text, entity_type text, entity_id text, entity_label text, service_code text, changes jsonb, reason text, hash text)
        cross join moved
        returning seq`);
      // The head is locked by the caller, so it cannot have moved; if it did, nothing may be written silently.
      if ((result as unknown as { rows: unknown[] }).rows.length !== rows.length) throw new Error('The audit trail head moved while it was locked');
    },

    /** One page, newest first, and how many entries the filter matches. */
    async page(filter: AuditFilter, offset: number, limit: number) {
      const where = whereOf(filter);
      const [rows, [{ total }]] = await Promise.all([
        db.select().from(auditLog).where(where).orderBy(desc(auditLog.seq)).limit(limit).offset(offset),
        db.select({ total: count() }).from(auditLog).where(where),
      ]);
      return { docs: rows.map(toAuditEntry), total };
    },

    /** How many entries the filter matches. */
    async count(filter: AuditFilter): Promise<number> {
      const [{ total }] = await db.select({ total: count() }).from(auditLog).where(whereOf(filter));
      return total;
    },

    /** The filtered entries newest first, in keyset chunks (the CSV export). */
    async *chunks(filter: AuditFilter, size: number): AsyncGenerator<AuditEntry[]> {
      let before: number | undefined;
      for (;;) {
        const rows = await db
          .select()
          .from(auditLog)
          .where(and(whereOf(filter), before === undefined ? undefined : lt(auditLog.seq, before)))
          .orderBy(desc(auditLog.seq))
          .limit(size);
        if (rows.length === 0) return;
        yield rows.map(toAuditEntry);
        if (rows.length < size) return;
        before = Number(rows[rows.length - 1].seq);
      }
    },

    /** The chain in order, up to `lastSeq`, in keyset chunks (verify). */
    async *chain(lastSeq: number, size: number): AsyncGenerator<AuditRow[]> {
      let after = 0;
      for (;;) {
        const rows = await db
          .select()
          .from(auditLog)
          .where(and(gt(auditLog.seq, after), lte(auditLog.seq, lastSeq)))
          .orderBy(asc(auditLog.seq))
          .limit(size);
        if (rows.length === 0) return;
        yield rows;
        if (rows.length < size) return;
        after = Number(rows[rows.length - 1].seq);
      }
    },
  };
}

/** A row in the table's own column names, for jsonb_to_recordset. */
function columnsOf(row: AuditRowValues & { seq: number; hash: string }) {
  return {
    id: row.id,
    seq: row.seq,
    at: row.at instanceof Date ? row.at.toISOString() : row.at,
    actor_id: row.actorId ?? null,
    actor_user_name: row.actorUserName ?? null,
    actor_role: row.actorRole ?? null,
    ip: row.ip ?? null,
    action: row.action,
    entity_type: row.entityType,
    entity_id: row.entityId ?? null,
    entity_label: row.entityLabel,
    service_code: row.serviceCode ?? null,
    changes: row.changes,
    reason: row.reason ?? null,
    hash: row.hash,
  };
}
