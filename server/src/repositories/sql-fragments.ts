import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { TransactionStatus } from '../../../src/domain/transaction-status';
import type { DbOrTx } from '../db/client';
import { callIs } from '../db/schema';

/**
 * SQL that several repositories write alike, written once here: how a time is answered, how a
 * call's flags read as its status (its predicates are schema.ts's `callIs`, beside the indexes
 * written with them), and how a plain statement's rows come back.
 */

/** A time as the API answers it: ISO 8601 in UTC with milliseconds, formatted by PostgreSQL. */
export const isoTime = (time: SQLWrapper) => sql<string>`to_char(${time} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The flags a call's status is read from, on a call or on its daily counts. */
type CallFlags = Parameters<typeof callIs.pending>[0];

/** A call's status ('processed', 'failed' or 'pending') from its flags, as the domain reads them. */
export const callStatus = (t: CallFlags) => sql<TransactionStatus>`case when ${t.isComplete} then 'processed' when ${t.isDeleted} then 'failed' else 'pending' end`;

/** The rows of a plain SQL statement, whichever driver is underneath (both answer `{ rows }`). */
export async function rowsOf<Row>(db: DbOrTx, query: SQL): Promise<Row[]> {
  return ((await db.execute(query)) as unknown as { rows: Row[] }).rows;
}
