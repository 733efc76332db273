import { plural } from '../../../src/domain/format';
import { isException, type ReconciliationRow, type ReconciliationStatement } from '../../../src/domain/reconciliation';
import { recordAudit, type AuditInput, type AuditWho } from '../audit/record-audit';
import type { Db, DbOrTx } from '../db/client';
import { HttpError, notFound } from '../http/http-error';
import type { Ingestion } from '../ingestion/ingestion';
import { reconciliationRepository, type RowToActOn } from '../repositories/reconciliation-repository';

const VOIDED = 'The statement was voided: its rows are no longer acted on';

/** A statement as the audit trail names it. */
const statementEntity = (id: string, fileName: string | null) => ({ type: 'statement' as const, id, label: `Statement ${fileName ?? 'without a name'}` });

/** The audit entry of an action on one row: which line, which call, what was done. */
function rowEntry(who: AuditWho, action: AuditInput['action'], row: RowToActOn, after: Record<string, unknown>): AuditInput {
  return { ...who, action, entity: statementEntity(row.statementId, row.fileName), after: { line: row.line, reference: row.reference, transactionId: row.transactionId, ...after } };
}

export interface StatementActionsDeps {
  db: Db;
  /** The ingestion wing's settlement from a statement: the one place a call is settled as the statement says. */
  reconcile: Ingestion['reconcile'];
}

/** What an action answers: the words for the person and the row or statement as it is now. */
export interface ActionOutcome<T> {
  message: string;
  result: T;
}

/**
 * What staff do with an imported statement (DESIGN §7): issue the ticket of a paid-no-ticket row,
 * mark a ticket-no-money row reviewed, void the statement. Each is harmless to repeat: the first
 * does it, the others answer what was done. A voided statement's rows are no longer acted on.
 * Each action that changes something leaves its audit entry in the same transaction; a repeat leaves none.
 */
export function statementActions({ db, reconcile }: StatementActionsDeps) {
  const repo = reconciliationRepository(db);

  async function rowToActOn(statementId: string, rowId: string, fits: (kind: RowToActOn['kind']) => boolean, refusal: string): Promise<RowToActOn> {
    const row = await repo.findRow(statementId, rowId);
    if (!row) throw notFound('Statement row');
    if (row.voidedAt) throw new HttpError(409, VOIDED);
    if (!fits(row.kind)) throw new HttpError(409, refusal);
    return row;
  }

  return {
    /**
     * Settles a paid-no-ticket row's call as the provider did, and marks the row issued in the same
     * transaction, so a row never says 'issued' for a call left unsettled, nor the reverse.
     */
    async issueTicket(statementId: string, rowId: string, who: AuditWho): Promise<ActionOutcome<ReconciliationRow>> {
      const userId = who.actor.id!;
      const row = await rowToActOn(statementId, rowId, (kind) => kind === 'paidNoTicket', 'Only a paid-no-ticket row can be issued a ticket');
      if (row.action) return { message: 'The ticket was issued already', result: await repo.rowJson(row.id) };
      // The customer's money is going back instead: a ticket as well would give it away.
      if (row.transactionId && (await repo.callRefunded(row.transactionId))) throw new HttpError(409, 'This call has a refund; no ticket is issued');
      let marked = false;
      const outcome = await reconcile(
        { reference: row.reference, userId, statement: row.fileName, line: row.line, amount: row.amount, completedAt: row.completedAt },
        {
          alongside: async (tx: DbOrTx) => {
            marked = await repo.markIssued(row.id, userId, tx);
            if (marked) await recordAudit(tx, rowEntry(who, 'statement.issue-ticket', row, { action: 'ticket issued' }));
          },
        },
      );
      if (outcome.result === 'unknown') throw new HttpError(409, 'The call of this row no longer exists');
      const message = outcome.result === 'reconciled' ? 'Ticket issued' : marked ? 'The call was processed already; no ticket was sent' : 'The ticket was issued already';
      return { message, result: await repo.rowJson(row.id) };
    },

    /** Marks an exception row (any kind but matched, refund kinds too) reviewed with a note on its call's timeline. */
    async review(statementId: string, rowId: string, who: AuditWho, note: string): Promise<ActionOutcome<ReconciliationRow>> {
      const row = await rowToActOn(statementId, rowId, isException, 'A matched row needs no review');
      const reviewed = await repo.markReviewed(row, who.actor.id!, note, (tx) => recordAudit(tx, rowEntry(who, 'statement.review', row, { action: 'reviewed', note })));
      return { message: reviewed ? 'Marked reviewed' : 'This row was reviewed already', result: await repo.rowJson(row.id) };
    },

    /**
     * Marks many exception rows of one statement reviewed with one note, in one transaction with one
     * audit entry naming how many: every id must be a row of this statement and an exception, or
     * nothing is done (400, naming each id refused). Rows someone already acted on keep what was done.
     */
    async reviewMany(statementId: string, rowIds: string[], who: AuditWho, note: string): Promise<ActionOutcome<ReconciliationRow[]>> {
      const statement = await repo.find(statementId);
      if (!statement) throw notFound('Statement');
      if (statement.voidedAt) throw new HttpError(409, VOIDED);
      const ids = [...new Set(rowIds.map((id) => id.toLowerCase()))];
      const rows = new Map((await repo.findRows(statementId, ids)).map((row) => [row.id, row]));
      const errors = rowIds.flatMap((id, i) => {
        const row = rows.get(id.toLowerCase());
        if (!row) return [{ field: `rowIds[${i}]`, message: 'Not a row of this statement' }];
        if (!isException(row.kind)) return [{ field: `rowIds[${i}]`, message: 'A matched row needs no review' }];
        return [];
      });
      if (errors.length > 0) throw new HttpError(400, errors.length === 1 ? errors[0].message : `${plural(errors.length, 'row')} cannot be reviewed`, errors);
      const reviewed = await repo.markManyReviewed([...rows.values()], who.actor.id!, note, (tx, done) =>
        recordAudit(tx, {
          ...who,
          action: 'statement.review',
          entity: statementEntity(statementId, statement.fileName),
          after: { action: 'reviewed', rows: done.length, lines: done.map((row) => row.line), references: done.map((row) => row.reference), note },
        }),
      );
      const message = reviewed === 0 ? 'These rows were reviewed already' : `${plural(reviewed, 'row')} marked reviewed`;
      return { message, result: await repo.rowsJson(ids) };
    },

    /**
     * Voids a statement with the reason: it leaves the default list and no longer vouches for any
     * call's payment when a later statement looks for the calls it has no line for. What was done on
     * its rows stands (a ticket issued stays issued, on the call's timeline).
     */
    async voidStatement(statementId: string, who: AuditWho, reason: string): Promise<ActionOutcome<ReconciliationStatement>> {
      const standing = await repo.find(statementId);
      if (!standing) throw notFound('Statement');
      const voided = await db.transaction(async (tx) => {
        const done = await repo.markVoided(statementId, who.actor.id!, reason, tx);
        if (done) await recordAudit(tx, { ...who, action: 'statement.void', entity: statementEntity(statementId, standing.fileName), before: { voided: false }, after: { voided: true }, reason });
        return done;
      });
      const statement = (await repo.find(statementId))!;
      return { message: voided ? 'Statement voided' : 'This statement was voided already', result: statement };
    },
  };
}

export type StatementActions = ReturnType<typeof statementActions>;
