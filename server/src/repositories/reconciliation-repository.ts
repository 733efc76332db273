import { sql, type SQL } from 'drizzle-orm';
import type { ReconciliationAction, ReconciliationKind, ReconciliationRow, ReconciliationStatement } from '../../../src/domain/reconciliation';
import type { Db } from '../db/client';
import { categories, reconciliationRows as r, reconciliationStatements as s, transactions as t, users } from '../db/schema';
import type { ReadStatement } from '../reconciliation/statement-csv';
import { transactionEvent, transactionEventsRepository } from './transaction-events-repository';
import { isoTime, rowsOf } from './sql-fragments';
import { transactionColumns } from './transaction-reads';

/**
 * The provider statements finance uploads and their rows (DESIGN §7), the only writer of
 * reconciliation_statements and reconciliation_rows. A statement is read once: its lines are sorted
 * into kinds against the calls as they are at upload, in one transaction; what staff then do shows
 * on the rows (`action`), and on the calls' timelines.
 */

const userRef = (id: SQL | typeof s.uploadedById | typeof r.actionById) =>
  sql`(select json_build_object('_id', ${users.id}, 'userName', ${users.userName}) from ${users} where ${users.id} = ${id})`;

/** A statement as the API answers it (`ReconciliationStatement`), with its rows still to act on counted. */
const STATEMENT_JSON = sql`${s.id} as "_id", ${s.fileName} as "fileName", ${userRef(s.uploadedById)} as "uploadedBy",
  ${isoTime(s.createdAt)} as "createdAt", ${s.lines} as lines, ${isoTime(s.periodFrom)} as "periodFrom", ${isoTime(s.periodTo)} as "periodTo",
  ${s.counts} as counts,
  (select json_build_object('paidNoTicket', count(*) filter (where ${r.kind} = 'paidNoTicket'), 'ticketNoMoney', count(*) filter (where ${r.kind} = 'ticketNoMoney'))
     from ${r} where ${r.statementId} = ${s.id} and ${r.action} is null and ${r.kind} in ('paidNoTicket', 'ticketNoMoney')) as open`;

/** A row as the API answers it (`ReconciliationRow`), with its call as the lists show it now. */
const ROW_JSON = sql`${r.id} as "_id", ${r.kind} as kind, ${r.line} as line, ${r.reference} as reference, ${r.amount}::float8 as amount,
  ${r.currency} as currency, ${r.status} as status, ${isoTime(r.completedAt)} as "completedAt",
  (select row_to_json(x) from (select ${transactionColumns} from ${t} left join ${categories} on ${categories.id} = ${t.categoryId} where ${t.id} = ${r.transactionId}) x) as transaction,
  ${r.action} as action, ${userRef(r.actionById)} as "actionBy", ${isoTime(r.actionAt)} as "actionAt", ${r.note} as note`;

const kindFilter = (kind: ReconciliationKind | undefined) => (kind ? sql` and ${r.kind} = ${kind}` : sql``);

/** What acting on a row needs of it and of its statement. */
export interface RowToActOn {
  id: string;
  statementId: string;
  fileName: string | null;
  kind: ReconciliationKind;
  line: number | null;
  reference: string;
  amount: number | null;
  completedAt: string | null;
  transactionId: string | null;
  action: ReconciliationAction | null;
}

export function reconciliationRepository(db: Db) {
  return {
    /**
     * Writes a statement and its rows in one transaction, or answers the statement already made of
     * the same bytes (`created` false; the file is not counted twice). Each line is matched to the call
     * of its reference and given its kind; then each processed call that settled within the statement's
     * period with no line here, and no SUCCESSFUL line in any statement, is a 'ticketNoMoney' row.
     */
    async importStatement(read: ReadStatement, upload: { fileName: string | null; uploadedById: string }): Promise<{ id: string; created: boolean }> {
      return db.transaction(async (tx) => {
        const [created] = await rowsOf<{ id: string }>(
          tx,
          sql`insert into ${s} (content_hash, file_name, uploaded_by, lines, period_from, period_to, counts)
            values (${read.hash}, ${upload.fileName}, ${upload.uploadedById}, ${read.lines.length}, ${read.periodFrom}, ${read.periodTo}, '{}')
            on conflict (content_hash) do nothing returning id`,
        );
        if (!created) {
          const [existing] = await rowsOf<{ id: string }>(tx, sql`select id from ${s} where content_hash = ${read.hash}`);
          return { id: existing.id, created: false };
        }
        const id = created.id;
        // One JSON text for every line: one parameter whatever the size, read by PostgreSQL in one pass.
        const lines = JSON.stringify(read.lines.map((l) => [l.line, l.reference, l.amount, l.currency, l.status, l.completedAt]));
        await tx.execute(sql`
          insert into ${r} (statement_id, kind, line, reference, amount, currency, status, completed_at, transaction_id)
          select ${id}::uuid,
            case
              when t.id is null then 'unknownReference'
              when l.status = 'SUCCESSFUL' and t.amount is distinct from l.amount then 'amountMismatch'
              when l.status = 'SUCCESSFUL' and not t.is_complete then 'paidNoTicket'
              when l.status = 'FAILED' and t.is_complete then 'ticketNoMoney'
              else 'matched'
            end,
            l.line, l.reference, l.amount, l.currency, l.status, l.completed_at, t.id
          from (
            select (e->>0)::int as line, e->>1 as reference, (e->>2)::numeric as amount, e->>3 as currency, e->>4 as status, (e->>5)::timestamptz as completed_at
            from json_array_elements(${lines}::json) as e
          ) l
          left join transactions t on t.payment_ref = l.reference
          order by l.line`);
        await tx.execute(sql`
          insert into ${r} (statement_id, kind, reference, transaction_id)
          select ${id}::uuid, 'ticketNoMoney', t.payment_ref, t.id
          from transactions t
          where t.is_complete and t.payment_ref is not null
            and t.callback_time >= ${read.periodFrom}::timestamptz and t.callback_time <= ${read.periodTo}::timestamptz
            and not exists (select 1 from ${r} where ${r.reference} = t.payment_ref and (${r.statementId} = ${id}::uuid or ${r.status} = 'SUCCESSFUL'))
          order by t.callback_time, t.id`);
        await tx.execute(sql`
          update ${s} set counts = (
            select json_build_object(
              'matched', count(*) filter (where ${r.kind} = 'matched'),
              'paidNoTicket', count(*) filter (where ${r.kind} = 'paidNoTicket'),
              'ticketNoMoney', count(*) filter (where ${r.kind} = 'ticketNoMoney'),
              'amountMismatch', count(*) filter (where ${r.kind} = 'amountMismatch'),
              'unknownReference', count(*) filter (where ${r.kind} = 'unknownReference'))
            from ${r} where ${r.statementId} = ${id}::uuid)
          where ${s.id} = ${id}::uuid`);
        return { id, created: true };
      });
    },

    /** The statements, newest first, as JSON text, and how many there are. */
    async pageJson(offset: number, limit: number): Promise<{ docsJson: string; total: number }> {
      const [row] = await rowsOf<{ docs: string; total: number }>(
        db,
        sql`select (select coalesce(json_agg(p), '[]')::text from (
            select ${STATEMENT_JSON} from ${s} order by ${s.createdAt} desc, ${s.id} desc limit ${limit} offset ${offset}) p) as docs,
          (select count(*)::int from ${s}) as total`,
      );
      return { docsJson: row.docs, total: Number(row.total) };
    },

    async find(id: string): Promise<ReconciliationStatement | undefined> {
      const [row] = await rowsOf<{ doc: string }>(db, sql`select row_to_json(p)::text as doc from (select ${STATEMENT_JSON} from ${s} where ${s.id} = ${id}::uuid) p`);
      return row ? (JSON.parse(row.doc) as ReconciliationStatement) : undefined;
    },

    /** One page of a statement's rows (of one kind, or all) in the file's order, as JSON text. */
    async rowsPageJson(statementId: string, kind: ReconciliationKind | undefined, offset: number, limit: number): Promise<string> {
      const [row] = await rowsOf<{ docs: string }>(
        db,
        sql`select coalesce(json_agg(p), '[]')::text as docs from (
          select ${ROW_JSON} from ${r} where ${r.statementId} = ${statementId}::uuid${kindFilter(kind)}
          order by ${r.seq} limit ${limit} offset ${offset}) p`,
      );
      return row.docs;
    },

    /** Walks a statement's rows (of one kind, or all) in the file's order, in keyset chunks. */
    async *rowChunks(statementId: string, kind: ReconciliationKind | undefined, size = 5000): AsyncGenerator<ReconciliationRow[]> {
      let after = 0;
      for (;;) {
        const [row] = await rowsOf<{ docs: string; last: string | number | null }>(
          db,
          sql`select coalesce(json_agg(to_jsonb(p) - 'seq'), '[]')::text as docs, max(p.seq) as last from (
            select ${r.seq} as seq, ${ROW_JSON} from ${r} where ${r.statementId} = ${statementId}::uuid${kindFilter(kind)} and ${r.seq} > ${after}
            order by ${r.seq} limit ${size}) p`,
        );
        const docs = JSON.parse(row.docs) as ReconciliationRow[];
        if (docs.length === 0) return;
        yield docs;
        if (docs.length < size) return;
        after = Number(row.last);
      }
    },

    /** A row of a statement with what acting on it needs, or undefined. */
    async findRow(statementId: string, rowId: string): Promise<RowToActOn | undefined> {
      const [row] = await rowsOf<RowToActOn>(
        db,
        sql`select ${r.id} as id, ${r.statementId} as "statementId", ${s.fileName} as "fileName", ${r.kind} as kind, ${r.line} as line,
            ${r.reference} as reference, ${r.amount}::float8 as amount, ${isoTime(r.completedAt)} as "completedAt", ${r.transactionId} as "transactionId", ${r.action} as action
          from ${r} join ${s} on ${s.id} = ${r.statementId}
          where ${r.id} = ${rowId}::uuid and ${r.statementId} = ${statementId}::uuid`,
      );
      return row;
    },

    /** A row as the API answers it. */
    async rowJson(rowId: string): Promise<ReconciliationRow> {
      const [row] = await rowsOf<{ doc: string }>(db, sql`select row_to_json(p)::text as doc from (select ${ROW_JSON} from ${r} where ${r.id} = ${rowId}::uuid) p`);
      return JSON.parse(row.doc) as ReconciliationRow;
    },

    /** Marks a row as acted on, once: answers false when someone already had. */
    async markIssued(rowId: string, userId: string): Promise<boolean> {
      const marked = await rowsOf<{ id: string }>(
        db,
        sql`update ${r} set action = 'ticket_issued', action_by = ${userId}::uuid, action_at = now() where ${r.id} = ${rowId}::uuid and ${r.action} is null returning id`,
      );
      return marked.length > 0;
    },

    /**
     * Marks a 'ticketNoMoney' row reviewed with its note, and records 'reconciliation_reviewed' on its
     * call's timeline in the same transaction; a row reviewed already keeps its first note and records
     * nothing. Answers whether this call reviewed it.
     */
    async markReviewed(row: RowToActOn, userId: string, note: string): Promise<boolean> {
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
        return true;
      });
    },
  };
}

export type ReconciliationRepository = ReturnType<typeof reconciliationRepository>;
