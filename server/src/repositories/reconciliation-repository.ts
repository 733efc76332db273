import { sql, type SQL } from 'drizzle-orm';
import { isException, RECONCILIATION_KINDS, type ReconciliationAction, type ReconciliationCounts, type ReconciliationKind, type ReconciliationRow, type ReconciliationStatement } from '../../../src/domain/reconciliation';
import type { Db, DbOrTx } from '../db/client';
import { preparedReadRows } from '../db/prepared';
import { categories, reconciliationRows as r, reconciliationStatements as s, refunds, transactions as t, users } from '../db/schema';
import type { ReadStatement, StatementLine } from '../reconciliation/statement-csv';
import { transactionEvent, transactionEventsRepository } from './transaction-events-repository';
import { isoTime, rowsOf } from './sql-fragments';
import { transactionColumns } from './transaction-reads';

/**
 * The provider statements finance uploads and their rows (DESIGN §7), the only writer of
 * reconciliation_statements and reconciliation_rows. A statement is written in steps the import
 * workflow (reconciliation/statement-import.ts) runs in turns: begun hidden, its rows added batch by
 * batch, shown once finished. Its lines are sorted into kinds against the calls as they are then;
 * what staff do later shows on the rows (`action`), and on the calls' timelines.
 */

const EXCEPTION_KINDS = RECONCILIATION_KINDS.filter(isException);

const userRef = (id: SQL | typeof s.uploadedById | typeof s.voidedById | typeof r.actionById) =>
  sql`(select json_build_object('_id', ${users.id}, 'userName', ${users.userName}) from ${users} where ${users.id} = ${id})`;

/** A statement as the API answers it (`ReconciliationStatement`), with its rows still to act on counted. */
const STATEMENT_JSON = sql`${s.id} as "_id", ${s.fileName} as "fileName", ${userRef(s.uploadedById)} as "uploadedBy",
  ${isoTime(s.createdAt)} as "createdAt", ${s.lines} as lines, ${isoTime(s.periodFrom)} as "periodFrom", ${isoTime(s.periodTo)} as "periodTo",
  ${s.periodDeclared} as "periodDeclared", ${s.counts} as counts,
  (select json_build_object(${sql.join(
    // The kinds are the product's own constants, written into the text so the statement has no parameter here.
    EXCEPTION_KINDS.map((kind) => sql.raw(`'${kind}', count(*) filter (where kind = '${kind}')`)),
    sql`, `,
  )})
     from ${r} where ${r.statementId} = ${s.id} and ${r.action} is null and ${r.kind} <> 'matched') as open,
  ${isoTime(s.voidedAt)} as "voidedAt", ${userRef(s.voidedById)} as "voidedBy", ${s.voidReason} as "voidReason"`;

/** A row as the API answers it (`ReconciliationRow`), with its call as the lists show it now. */
/**
 * The refund a row is about: a REFUND row's own, or on a PAYMENT row its call's latest refund that
 * is not rejected or failed (its money going or gone back, so neither a ticket nor another refund).
 */
const refundJson = sql`json_build_object('_id', rf.id, 'amount', rf.amount, 'state', rf.state, 'providerRef', rf.provider_ref)`;
const rowRefund = sql`coalesce(
  (select ${refundJson} from ${refunds} rf where rf.id = ${r.refundId}),
  (select ${refundJson} from ${refunds} rf where ${r.type} = 'PAYMENT' and rf.transaction_id = ${r.transactionId} and rf.state not in ('rejected', 'failed')
    order by rf.created_at desc limit 1))`;

const ROW_JSON = sql`${r.id} as "_id", ${r.kind} as kind, ${r.type} as type, ${rowRefund} as refund, ${r.line} as line, ${r.reference} as reference, ${r.amount}::float8 as amount,
  ${r.currency} as currency, ${r.status} as status, ${isoTime(r.completedAt)} as "completedAt",
  (select row_to_json(x) from (select ${transactionColumns} from ${t} left join ${categories} on ${categories.id} = ${t.categoryId} where ${t.id} = ${r.transactionId}) x) as transaction,
  ${r.action} as action, ${userRef(r.actionById)} as "actionBy", ${isoTime(r.actionAt)} as "actionAt", ${r.note} as note`;

/** A list of row ids as one parameter (checked UUIDs), whatever its length. */
const idsIn = (ids: readonly string[]) => sql`(select value::uuid from json_array_elements_text(${JSON.stringify(ids)}::json))`;

const kindFilter = (kind: ReconciliationKind | undefined) => (kind ? sql` and ${r.kind} = ${kind}` : sql``);

/**
 * The next `size` rows of a statement after `seq` (of one kind, or all) as JSON text, and the last
 * seq: an export's chunk. Prepared, so a long export's many chunks are planned once.
 */
const rowChunk = (ofKind: boolean) => sql`select coalesce(json_agg(to_jsonb(p) - 'seq'), '[]')::text as docs, max(p.seq) as last from (
  select ${r.seq} as seq, ${ROW_JSON} from ${r}
  where ${r.statementId} = ${sql.placeholder('statementId')}::uuid${ofKind ? sql` and ${r.kind} = ${sql.placeholder('kind')}::text` : sql``} and ${r.seq} > ${sql.placeholder('after')}::bigint
  order by ${r.seq} limit ${sql.placeholder('size')}::int) p`;

/** A statement whose rows are all written; one still being imported is nobody's to see. */
const imported = sql`${s.importedAt} is not null`;

/** A paid call a statement has no line for, as the walk over the calls finds it. */
export type UnlistedCall = { id: string; reference: string; settledAt: string };

/** Rows per kind as a batch inserted them. */
async function countsOf(db: DbOrTx, insertReturningKind: SQL): Promise<Partial<ReconciliationCounts>> {
  const rows = await rowsOf<{ kind: ReconciliationKind; n: number }>(db, sql`with inserted as (${insertReturningKind}) select kind, count(*)::int as n from inserted group by kind`);
  return Object.fromEntries(rows.map((row) => [row.kind, Number(row.n)]));
}

/** What acting on a row needs of it and of its statement. */
export interface RowToActOn {
  id: string;
  statementId: string;
  fileName: string | null;
  /** Set when its statement was voided: its rows are no longer acted on. */
  voidedAt: string | null;
  kind: ReconciliationKind;
  line: number | null;
  reference: string;
  amount: number | null;
  completedAt: string | null;
  transactionId: string | null;
  action: ReconciliationAction | null;
}

/** A statement of the same bytes that stands already: imported, still importing, or left half-imported long ago. */
export type ExistingStatement = { id: string; imported: boolean; abandoned: boolean };

export const emptyCounts = (): ReconciliationCounts => Object.fromEntries(RECONCILIATION_KINDS.map((kind) => [kind, 0])) as ReconciliationCounts;

export function reconciliationRepository(db: Db) {
  let chunkOfAll: ReturnType<typeof preparedReadRows<{ docs: string; last: string | number | null }>> | undefined;
  let chunkOfKind: typeof chunkOfAll;
  return {
    /**
     * Starts a statement, hidden until `finishImport`, or answers the standing one made of the same
     * bytes (the file is not counted twice). A statement begun `abandonAfter` ago and never finished
     * was left by a process that stopped; it is reported so the upload may take its place.
     */
    async beginImport(read: ReadStatement, upload: { fileName: string | null; uploadedById: string }, abandonAfter = '10 minutes'): Promise<{ created: string } | { existing: ExistingStatement | undefined }> {
      const [created] = await rowsOf<{ id: string }>(
        db,
        sql`insert into ${s} (content_hash, file_name, uploaded_by, lines, period_from, period_to, period_declared, counts)
          values (${read.hash}, ${upload.fileName}, ${upload.uploadedById}, ${read.lines.length}, ${read.periodFrom}, ${read.periodTo}, ${read.periodDeclared}, '{}')
          on conflict (content_hash) where voided_at is null do nothing returning id`,
      );
      if (created) return { created: created.id };
      const [existing] = await rowsOf<ExistingStatement>(
        db,
        sql`select id, imported_at is not null as imported, (imported_at is null and created_at < now() - ${abandonAfter}::interval) as abandoned
          from ${s} where content_hash = ${read.hash} and voided_at is null`,
      );
      // Undefined when it was voided or dropped in between: the caller begins again.
      return { existing };
    },

    /**
     * Adds a batch of a statement's lines, each matched to the call of its reference and given its
     * kind: a line in another currency than the service's is never matched, whatever its amount.
     * Answers the rows per kind it added.
     */
    async addLines(statementId: string, lines: StatementLine[], serviceCurrency: string): Promise<Partial<ReconciliationCounts>> {
      // One JSON text for the batch: one parameter whatever its size, read by PostgreSQL in one pass.
      const json = JSON.stringify(lines.map((l) => [l.line, l.reference, l.amount, l.currency, l.status, l.completedAt, l.type]));
      // A REFUND line is our refund's when its reference is that refund's provider reference (a UUID).
      // It agrees when both say the money went back (for the same amount) or both say it did not.
      return countsOf(
        db,
        sql`insert into ${r} (statement_id, kind, type, line, reference, amount, currency, status, completed_at, transaction_id, refund_id)
          select ${statementId}::uuid,
            case
              when l.type = 'REFUND' then case
                when rf.id is null then 'refundUnknown'
                when l.currency <> ${serviceCurrency} then 'currencyMismatch'
                when l.status = 'SUCCESSFUL' and rf.state = 'completed' and rf.amount = l.amount then 'matched'
                when l.status = 'FAILED' and rf.state = 'failed' then 'matched'
                else 'refundMismatch'
              end
              when t.id is null then 'unknownReference'
              when l.currency <> ${serviceCurrency} then 'currencyMismatch'
              when l.status = 'SUCCESSFUL' and t.amount is distinct from l.amount then 'amountMismatch'
              when l.status = 'SUCCESSFUL' and not t.is_complete then 'paidNoTicket'
              when l.status = 'FAILED' and t.is_complete then 'ticketNoMoney'
              else 'matched'
            end,
            l.type, l.line, l.reference, l.amount, l.currency, l.status, l.completed_at, coalesce(t.id, rf.transaction_id), rf.id
          from (
            select (e->>0)::int as line, e->>1 as reference, (e->>2)::numeric as amount, e->>3 as currency, e->>4 as status, (e->>5)::timestamptz as completed_at, e->>6 as type
            from json_array_elements(${json}::json) as e
          ) l
          left join transactions t on l.type = 'PAYMENT' and t.payment_ref = l.reference
          left join refunds rf on l.type = 'REFUND'
            and rf.provider_ref = (case when l.reference ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then l.reference::uuid end)
          order by l.line
          returning kind`,
      );
    },

    /**
     * Looks at the next `limit` calls in id order after `after` (the primary key walks every call
     * without an index of its own on the settle time) and answers those processed within the period
     * that have no line in this statement and no SUCCESSFUL line in another standing statement, and
     * the last id looked at, or null once every call was.
     */
    async unlistedCalls(statementId: string, period: { from: string; to: string }, after: string | null, limit: number): Promise<{ calls: UnlistedCall[]; next: string | null }> {
      const [row] = await rowsOf<{ calls: UnlistedCall[] | string; looked: number; last: string | null }>(
        db,
        sql`with looked as (
            select t.id, t.payment_ref, t.is_complete, t.callback_time from transactions t
            where ${after ? sql`t.id > ${after}::uuid` : sql`true`} order by t.id limit ${limit}
          )
          select (select coalesce(json_agg(json_build_object('id', c.id, 'reference', c.payment_ref, 'settledAt', c.callback_time)), '[]') from looked c
              where c.is_complete and c.payment_ref is not null and c.callback_time >= ${period.from}::timestamptz and c.callback_time <= ${period.to}::timestamptz
                and not exists (
                  select 1 from ${r} other join ${s} on ${s.id} = other.statement_id
                  where other.reference = c.payment_ref and other.type = 'PAYMENT'
                    and (other.statement_id = ${statementId}::uuid or (other.status = 'SUCCESSFUL' and ${s.voidedAt} is null and ${imported})))) as calls,
            (select count(*)::int from looked) as looked,
            (select max(id::text) from looked) as last`,
      );
      const calls = typeof row.calls === 'string' ? (JSON.parse(row.calls) as UnlistedCall[]) : row.calls;
      return { calls, next: Number(row.looked) < limit ? null : row.last };
    },

    /** Adds a 'ticketNoMoney' row for each paid call a statement has no line for, in the order given. */
    async addUnlisted(statementId: string, calls: UnlistedCall[]): Promise<Partial<ReconciliationCounts>> {
      const json = JSON.stringify(calls.map((call, i) => [i, call.id, call.reference]));
      return countsOf(
        db,
        sql`insert into ${r} (statement_id, kind, reference, transaction_id)
          select ${statementId}::uuid, 'ticketNoMoney', e->>2, (e->>1)::uuid from json_array_elements(${json}::json) as e
          order by (e->>0)::int
          returning kind`,
      );
    },

    /**
     * Adds a 'refundMissing' row for each refund completed within the period that the statement has
     * no REFUND line for, and no other standing statement shows SUCCESSFUL, in the order they settled.
     */
    async addMissingRefunds(statementId: string, period: { from: string; to: string }): Promise<Partial<ReconciliationCounts>> {
      return countsOf(
        db,
        sql`insert into ${r} (statement_id, kind, type, reference, amount, transaction_id, refund_id)
          select ${statementId}::uuid, 'refundMissing', 'REFUND', rf.provider_ref::text, rf.amount, rf.transaction_id, rf.id
          from ${refunds} rf
          where rf.state = 'completed' and rf.settled_at >= ${period.from}::timestamptz and rf.settled_at <= ${period.to}::timestamptz
            and not exists (
              select 1 from ${r} other join ${s} on ${s.id} = other.statement_id
              where other.refund_id = rf.id
                and (other.statement_id = ${statementId}::uuid or (other.status = 'SUCCESSFUL' and ${s.voidedAt} is null and ${imported})))
          order by rf.settled_at, rf.id
          returning kind`,
      );
    },

    /** Shows a statement whose rows are all written, with its counts. */
    async finishImport(statementId: string, counts: ReconciliationCounts, tx: DbOrTx = db) {
      await tx.execute(sql`update ${s} set counts = ${JSON.stringify(counts)}::jsonb, imported_at = now() where ${s.id} = ${statementId}::uuid`);
    },

    /** Drops a statement whose import failed or was abandoned (never one that was finished), with its rows. */
    async dropUnfinished(statementId: string) {
      await db.execute(sql`delete from ${s} where ${s.id} = ${statementId}::uuid and ${s.importedAt} is null`);
    },

    /** The standing statements (or the voided ones), newest first, as JSON text, and how many there are. */
    async pageJson(offset: number, limit: number, voided = false): Promise<{ docsJson: string; total: number }> {
      const which = voided ? sql`${imported} and ${s.voidedAt} is not null` : sql`${imported} and ${s.voidedAt} is null`;
      const [row] = await rowsOf<{ docs: string; total: number }>(
        db,
        sql`select (select coalesce(json_agg(p), '[]')::text from (
            select ${STATEMENT_JSON} from ${s} where ${which} order by ${s.createdAt} desc, ${s.id} desc limit ${limit} offset ${offset}) p) as docs,
          (select count(*)::int from ${s} where ${which}) as total`,
      );
      return { docsJson: row.docs, total: Number(row.total) };
    },

    /** A statement, voided or not, once imported. */
    async find(id: string): Promise<ReconciliationStatement | undefined> {
      const [row] = await rowsOf<{ doc: string }>(db, sql`select row_to_json(p)::text as doc from (select ${STATEMENT_JSON} from ${s} where ${s.id} = ${id}::uuid and ${imported}) p`);
      return row ? (JSON.parse(row.doc) as ReconciliationStatement) : undefined;
    },

    /**
     * One page of a statement's rows (of one kind, or all) in the file's order, as JSON text. The
     * page's rows are found by their ids first, so the rows skipped to reach a deep page are not
     * each turned into JSON with their call.
     */
    async rowsPageJson(statementId: string, kind: ReconciliationKind | undefined, offset: number, limit: number): Promise<string> {
      const [row] = await rowsOf<{ docs: string }>(
        db,
        sql`select coalesce(json_agg(p), '[]')::text as docs from (
          select ${ROW_JSON} from ${r}
          join (select id, seq from ${r} where ${r.statementId} = ${statementId}::uuid${kindFilter(kind)} order by ${r.seq} limit ${limit} offset ${offset}) page on page.id = ${r.id}
          order by page.seq) p`,
      );
      return row.docs;
    },

    /** Walks a statement's rows (of one kind, or all) in the file's order, in keyset chunks of `size`. */
    async *rowChunks(statementId: string, kind: ReconciliationKind | undefined, size: number): AsyncGenerator<ReconciliationRow[]> {
      chunkOfAll ??= preparedReadRows(db, 'reconciliation_row_chunk', rowChunk(false));
      chunkOfKind ??= preparedReadRows(db, 'reconciliation_row_chunk_of_kind', rowChunk(true));
      let after = 0;
      for (;;) {
        const [row] = kind ? await chunkOfKind({ statementId, kind, after, size }) : await chunkOfAll({ statementId, after, size });
        const docs = JSON.parse(row.docs) as ReconciliationRow[];
        if (docs.length === 0) return;
        yield docs;
        if (docs.length < size) return;
        after = Number(row.last);
      }
    },

    /** A row of an imported statement with what acting on it needs, or undefined. */
    async findRow(statementId: string, rowId: string): Promise<RowToActOn | undefined> {
      const [row] = await rowsOf<RowToActOn>(
        db,
        sql`select ${r.id} as id, ${r.statementId} as "statementId", ${s.fileName} as "fileName", ${isoTime(s.voidedAt)} as "voidedAt", ${r.kind} as kind, ${r.line} as line,
            ${r.reference} as reference, ${r.amount}::float8 as amount, ${isoTime(r.completedAt)} as "completedAt", ${r.transactionId} as "transactionId", ${r.action} as action
          from ${r} join ${s} on ${s.id} = ${r.statementId}
          where ${r.id} = ${rowId}::uuid and ${r.statementId} = ${statementId}::uuid and ${imported}`,
      );
      return row;
    },

    /** Rows of an imported statement among `ids`, with what acting on them needs (those of other statements are not found). */
    async findRows(statementId: string, ids: readonly string[]): Promise<RowToActOn[]> {
      if (ids.length === 0) return [];
      return rowsOf<RowToActOn>(
        db,
        sql`select ${r.id} as id, ${r.statementId} as "statementId", ${s.fileName} as "fileName", ${isoTime(s.voidedAt)} as "voidedAt", ${r.kind} as kind, ${r.line} as line,
            ${r.reference} as reference, ${r.amount}::float8 as amount, ${isoTime(r.completedAt)} as "completedAt", ${r.transactionId} as "transactionId", ${r.action} as action
          from ${r} join ${s} on ${s.id} = ${r.statementId}
          where ${r.id} in ${idsIn(ids)} and ${r.statementId} = ${statementId}::uuid and ${imported}`,
      );
    },

    /** Rows as the API answers them, in the file's order. */
    async rowsJson(ids: readonly string[]): Promise<ReconciliationRow[]> {
      if (ids.length === 0) return [];
      const [row] = await rowsOf<{ docs: string }>(
        db,
        sql`select coalesce(json_agg(p order by p.seq), '[]')::text as docs from (select ${r.seq} as seq, ${ROW_JSON} from ${r} where ${r.id} in ${idsIn(ids)}) p`,
      );
      return (JSON.parse(row.docs) as (ReconciliationRow & { seq?: number })[]).map(({ seq: _seq, ...rest }) => rest);
    },

    /** A row as the API answers it. */
    async rowJson(rowId: string): Promise<ReconciliationRow> {
      const [row] = await rowsOf<{ doc: string }>(db, sql`select row_to_json(p)::text as doc from (select ${ROW_JSON} from ${r} where ${r.id} = ${rowId}::uuid) p`);
      return JSON.parse(row.doc) as ReconciliationRow;
    },

    /** Whether a call has a refund that is not rejected or failed (its money going or gone back). */
    async callRefunded(transactionId: string): Promise<boolean> {
      const found = await rowsOf<{ id: string }>(db, sql`select id from ${refunds} where transaction_id = ${transactionId}::uuid and state not in ('rejected', 'failed') limit 1`);
      return found.length > 0;
    },

    /** Marks a row's ticket issued, once (within `tx` when given): answers false when someone already had. */
    async markIssued(rowId: string, userId: string, tx: DbOrTx = db): Promise<boolean> {
      const marked = await rowsOf<{ id: string }>(
        tx,
        sql`update ${r} set action = 'ticket_issued', action_by = ${userId}::uuid, action_at = now() where ${r.id} = ${rowId}::uuid and ${r.action} is null returning id`,
      );
      return marked.length > 0;
    },

    /**
     * Marks a 'ticketNoMoney' row reviewed with its note, and records 'reconciliation_reviewed' on its
     * call's timeline in the same transaction; a row reviewed already keeps its first note and records
     * nothing. Answers whether this call reviewed it; `alongside` writes in the same transaction when it did.
     */
    async markReviewed(row: RowToActOn, userId: string, note: string, alongside?: (tx: DbOrTx) => Promise<void>): Promise<boolean> {
      return db.transaction(async (tx) => {
        const marked = await rowsOf<{ id: string }>(
          tx,
          sql`update ${r} set action = 'reviewed', action_by = ${userId}::uuid, action_at = now(), note = ${note} where ${r.id} = ${row.id}::uuid and ${r.action} is null returning id`,
        );
        if (marked.length === 0) return false;
        if (row.transactionId) {
          await transactionEventsRepository(tx).record(
            transactionEvent.reconciliationReviewed({ transactionId: row.transactionId, rowId: row.id, userId, statement: row.fileName, line: row.line, note }),
          );
        }
        await alongside?.(tx);
        return true;
      });
    },

    /**
     * Marks rows reviewed with one note, those nobody acted on yet, and records 'reconciliation_reviewed'
     * on their calls' timelines, in one transaction; `alongside` writes in it with the rows this call
     * reviewed, when there are any. Answers how many it reviewed.
     */
    async markManyReviewed(rows: RowToActOn[], userId: string, note: string, alongside?: (tx: DbOrTx, done: RowToActOn[]) => Promise<void>): Promise<number> {
      if (rows.length === 0) return 0;
      return db.transaction(async (tx) => {
        const marked = await rowsOf<{ id: string }>(
          tx,
          sql`update ${r} set action = 'reviewed', action_by = ${userId}::uuid, action_at = now(), note = ${note}
            where ${r.id} in ${idsIn(rows.map((row) => row.id))} and ${r.action} is null returning id`,
        );
        const ids = new Set(marked.map((row) => row.id));
        const done = rows.filter((row) => ids.has(row.id));
        if (done.length === 0) return 0;
        const events = done.flatMap((row) =>
          row.transactionId ? [transactionEvent.reconciliationReviewed({ transactionId: row.transactionId, rowId: row.id, userId, statement: row.fileName, line: row.line, note })] : [],
        );
        await transactionEventsRepository(tx).record(...events);
        await alongside?.(tx, done);
        return done.length;
      });
    },

    /** Voids an imported statement, once: answers false when it was voided already (its first reason stands). */
    async markVoided(statementId: string, userId: string, reason: string, tx: DbOrTx = db): Promise<boolean> {
      const voided = await rowsOf<{ id: string }>(
        tx,
        sql`update ${s} set voided_at = now(), voided_by = ${userId}::uuid, void_reason = ${reason}
          where ${s.id} = ${statementId}::uuid and ${imported} and ${s.voidedAt} is null returning id`,
      );
      return voided.length > 0;
    },
  };
}

export type ReconciliationRepository = ReturnType<typeof reconciliationRepository>;
