import { RECONCILIATION_KINDS, type ReconciliationCounts } from '../../../src/domain/reconciliation';
import { recordAudit, type AuditWho } from '../audit/record-audit';
import type { Db } from '../db/client';
import { inTurn } from '../http/csv-download';
import { HttpError } from '../http/http-error';
import { emptyCounts, reconciliationRepository, type UnlistedCall } from '../repositories/reconciliation-repository';
import type { ReadStatement } from './statement-csv';

/**
 * Lines written, or calls looked at, per turn: a few milliseconds of the embedded database's one
 * thread, so a USSD hop or a payment callback waits behind one batch at most, never a whole import.
 */
export const STATEMENT_ROWS_PER_TURN = 500;
/** Calls looked at per turn for the ones the statement has no line for: read by primary key, cheaper than rows written. */
const CALLS_LOOKED_AT_PER_TURN = 5000;

/** How long an upload of a file another upload is still importing waits for it, checking this often. */
const SAME_FILE_WAIT_MS = 5 * 60_000;
const SAME_FILE_POLL_MS = 250;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function add(counts: ReconciliationCounts, more: Partial<ReconciliationCounts>) {
  for (const kind of RECONCILIATION_KINDS) counts[kind] += Number(more[kind] ?? 0);
}

export interface StatementImportDeps {
  db: Db;
  /** SERVICE_CURRENCY, upper case: a line in any other is never matched. */
  serviceCurrency: string;
}

/**
 * Imports a statement that was read and checked (statement-csv.ts), DESIGN §7. The statement is
 * begun hidden, its lines are matched and written in batches of STATEMENT_ROWS_PER_TURN, then the
 * period's paid calls it has no line for, then the period's completed refunds it has no REFUND
 * line for, and it is shown once all are written. Each batch is its
 * own short write that waits its turn with the CSV exports (`inTurn`): on the embedded database a
 * transaction holds its one connection, so one transaction around 200,000 lines would hold every
 * other request for seconds. An import that fails part way is dropped; the same file uploaded while
 * it is imported waits for it and answers the same statement.
 */
export function statementImport({ db, serviceCurrency }: StatementImportDeps) {
  const repo = reconciliationRepository(db);

  async function writeRows(id: string, read: ReadStatement): Promise<ReconciliationCounts> {
    const counts = emptyCounts();
    for (let at = 0; at < read.lines.length; at += STATEMENT_ROWS_PER_TURN) {
      const batch = read.lines.slice(at, at + STATEMENT_ROWS_PER_TURN);
      add(counts, await inTurn(() => repo.addLines(id, batch, serviceCurrency)));
    }
    // Then the period's paid calls the file has no line for, found a slice of the calls at a time, listed by when they settled.
    const unlisted: UnlistedCall[] = [];
    let after: string | null = null;
    do {
      const step: { calls: UnlistedCall[]; next: string | null } = await inTurn(() => repo.unlistedCalls(id, { from: read.periodFrom, to: read.periodTo }, after, CALLS_LOOKED_AT_PER_TURN));
      unlisted.push(...step.calls);
      after = step.next;
    } while (after);
    unlisted.sort((a, b) => Date.parse(a.settledAt) - Date.parse(b.settledAt) || a.id.localeCompare(b.id));
    for (let at = 0; at < unlisted.length; at += STATEMENT_ROWS_PER_TURN) {
      const batch = unlisted.slice(at, at + STATEMENT_ROWS_PER_TURN);
      add(counts, await inTurn(() => repo.addUnlisted(id, batch)));
    }
    // And the refunds completed within the period it has no REFUND line for: far fewer than calls, one write.
    add(counts, await inTurn(() => repo.addMissingRefunds(id, { from: read.periodFrom, to: read.periodTo })));
    return counts;
  }

  return async function importStatement(read: ReadStatement, upload: { fileName: string | null; who: AuditWho }): Promise<{ id: string; created: boolean }> {
    const giveUpAt = Date.now() + SAME_FILE_WAIT_MS;
    const { fileName, who } = upload;
    for (;;) {
      const begun = await inTurn(() => repo.beginImport(read, { fileName, uploadedById: who.actor.id! }));
      if ('created' in begun) {
        const id = begun.created;
        try {
          const counts = await writeRows(id, read);
          // Shown and audited at once: an upload that failed part way leaves neither.
          await inTurn(() =>
            db.transaction(async (tx) => {
              await repo.finishImport(id, counts, tx);
              const after = { lines: read.lines.length, periodFrom: read.periodFrom, periodTo: read.periodTo, periodDeclared: read.periodDeclared, counts };
              await recordAudit(tx, { ...who, action: 'statement.upload', entity: { type: 'statement', id, label: `Statement ${fileName ?? 'without a name'}` }, after });
            }),
          );
        } catch (error) {
          await repo.dropUnfinished(id).catch(() => undefined);
          throw error;
        }
        return { id, created: true };
      }
      const { existing } = begun;
      if (existing?.imported) return { id: existing.id, created: false };
      if (existing?.abandoned) await repo.dropUnfinished(existing.id);
      else if (existing) {
        if (Date.now() > giveUpAt) throw new HttpError(409, 'This file is still being imported by another upload; try again in a minute');
        await sleep(SAME_FILE_POLL_MS);
      }
    }
  };
}

export type ImportStatement = ReturnType<typeof statementImport>;
