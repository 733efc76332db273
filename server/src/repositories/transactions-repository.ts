import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import moment from 'moment-timezone';
import type { Transaction } from '../../../src/domain/entities';
import { SERVICE_TIME_ZONE } from '../../../src/domain/format';
import type { TransactionStatus } from '../../../src/domain/transaction-status';
import type { Db, DbOrTx } from '../db/client';
import { categories, contents, serviceCodes, transactionDailyStats, transactions } from '../db/schema';

export interface TransactionFilter {
  /** Only these service codes; undefined means every code. */
  codes?: readonly string[];
  /** A calendar day in the service's zone. */
  day?: string;
  status?: TransactionStatus;
  phoneNumber?: string;
}

type Row = { tx: typeof transactions.$inferSelect; categoryName: string | null };

export function toTransaction({ tx, categoryName }: Row): Transaction {
  return {
    _id: tx.id,
    name: tx.serviceCode,
    shortCode: { name: tx.serviceCode },
    phoneNumber: tx.phoneNumber,
    network: tx.network,
    createdAt: tx.createdAt.toISOString(),
    callbackTime: tx.callbackTime ? tx.callbackTime.toISOString() : null,
    isComplete: tx.isComplete,
    isDeleted: tx.isDeleted,
    isResolved: tx.isResolved,
    categoryLevel: tx.categoryLevel,
    category: tx.categoryId && categoryName !== null ? { _id: tx.categoryId, name: categoryName } : null,
    amount: tx.amount,
    teamName: tx.teamName,
    teamName2: tx.teamName2,
    messageStatuses: tx.messageStatuses,
    ticket: tx.ticketMessage ? { message: tx.ticketMessage } : null,
    paymentRef: tx.paymentRef,
  };
}

/** The instants a service-zone day starts and ends. */
export function dayBounds(day: string, zone = SERVICE_TIME_ZONE): { from: Date; to: Date } {
  const start = moment.tz(day, 'YYYY-MM-DD', zone).startOf('day');
  return { from: start.toDate(), to: start.clone().add(1, 'day').toDate() };
}

type StatusColumns = { isComplete: typeof transactions.isComplete | typeof transactionDailyStats.isComplete; isDeleted: typeof transactions.isDeleted | typeof transactionDailyStats.isDeleted };

/** Written as the partial indexes' predicates so PostgreSQL can use them. */
function statusSql(status: TransactionStatus, t: StatusColumns): SQL {
  if (status === 'processed') return sql`${t.isComplete}`;
  if (status === 'failed') return sql`${t.isDeleted} and not ${t.isComplete}`;
  return sql`not ${t.isComplete} and not ${t.isDeleted}`;
}

type Bind = (name: string, value: unknown) => unknown;

/**
 * The WHERE of a filter, over the calls themselves or over their daily counts. `bind` either
 * inlines each value as a parameter or names a placeholder, so the same builder serves one-off
 * queries and statements prepared once per filter shape.
 */
function buildWhere(filter: TransactionFilter, bind: Bind, prepared: boolean, over: 'calls' | 'stats' = 'calls'): SQL | undefined {
  const t = over === 'calls' ? transactions : transactionDailyStats;
  const parts: SQL[] = over === 'stats' ? [sql`${transactionDailyStats.dimension} = 'network'`] : [];
  if (filter.codes) {
    if (filter.codes.length === 0) parts.push(sql`false`);
    else if (filter.codes.length === 1) parts.push(sql`${t.serviceCode} = ${bind('code', filter.codes[0])}`);
    else if (prepared) parts.push(sql`${t.serviceCode} = any(${bind('codes', [...filter.codes])}::text[])`);
    else parts.push(inArray(t.serviceCode, [...filter.codes]));
  }
  if (filter.day && over === 'stats') parts.push(sql`${transactionDailyStats.day} = ${bind('day', filter.day)}`);
  if (filter.day && over === 'calls') {
    const { from, to } = dayBounds(filter.day);
    parts.push(sql`${transactions.createdAt} >= ${bind('from', from.toISOString())} and ${transactions.createdAt} < ${bind('to', to.toISOString())}`);
  }
  if (filter.status) parts.push(statusSql(filter.status, t));
  if (filter.phoneNumber) parts.push(sql`${transactions.phoneNumber} = ${bind('phone', filter.phoneNumber)}`);
  return parts.length ? and(...parts) : undefined;
}

/**
 * The number of calls a filter matches. Without a phone number it is read from the daily counts
 * (a few rows per code and day); a phone's calls are few and counted from its index.
 */
function totalOf(db: Db, filter: TransactionFilter, bind: Bind, prepared: boolean): SQL<number> {
  if (filter.phoneNumber) {
    return sql<number>`(${db.select({ total: count() }).from(transactions).where(buildWhere(filter, bind, prepared))})`;
  }
  const calls = sql`coalesce(sum(${transactionDailyStats.calls}), 0)::int`;
  return sql<number>`(${db.select({ total: calls }).from(transactionDailyStats).where(buildWhere(filter, bind, prepared, 'stats'))})`;
}

function whereOf(filter: TransactionFilter): SQL | undefined {
  return buildWhere(filter, (_name, value) => value, false);
}

/** A filter's shape (which conditions it has) names its prepared statement; its values are the parameters. */
function shapeOf(filter: TransactionFilter) {
  const params: Record<string, unknown> = {};
  const bind: Bind = (name, value) => {
    params[name] = value;
    return sql.placeholder(name);
  };
  const codes = !filter.codes ? 'all' : filter.codes.length === 0 ? 'none' : filter.codes.length === 1 ? 'code' : 'codes';
  // Short: PostgreSQL cuts statement names at 63 characters.
  const key = [codes, filter.day ? 'day' : '', filter.status ?? '', filter.phoneNumber ? 'phone' : ''].join('_');
  // Built on every call, not only when first prepared: binding is what fills in this call's values.
  buildWhere(filter, bind, true);
  buildWhere(filter, bind, true, 'stats');
  return { bind, key, params };
}

export function transactionsRepository(db: Db) {
  const preparePage = (filter: TransactionFilter, bind: Bind, name: string) =>
    db
      .select({ tx: transactions, categoryName: categories.name, total: totalOf(db, filter, bind, true).mapWith(Number) })
      .from(transactions)
      .leftJoin(categories, eq(transactions.categoryId, categories.id))
      .where(buildWhere(filter, bind, true))
      .orderBy(desc(transactions.createdAt), desc(transactions.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(name);
  const pageStatements = new Map<string, ReturnType<typeof preparePage>>();
  const prepareSummary = (filter: TransactionFilter, bind: Bind, name: string) => {
    const t = transactionDailyStats;
    const where = and(
      ...(filter.codes ? [filter.codes.length === 1 ? sql`${t.serviceCode} = ${bind('code', filter.codes[0])}` : sql`${t.serviceCode} = any(${bind('codes', [...filter.codes])}::text[])`] : []),
      sql`${t.day} = ${bind('day', filter.day)}`,
    );
    return db
      .select({
        dimension: t.dimension,
        key: t.key,
        isComplete: t.isComplete,
        isDeleted: t.isDeleted,
        calls: sql<number>`sum(${t.calls})::int`,
        amount: sql<number>`sum(${t.amount})::bigint`.mapWith(Number),
      })
      .from(t)
      .where(where)
      .groupBy(t.dimension, t.key, t.isComplete, t.isDeleted)
      .prepare(name);
  };
  const summaryStatements = new Map<string, ReturnType<typeof prepareSummary>>();
  const selectRows = (tx: DbOrTx = db) =>
    tx
      .select({ tx: transactions, categoryName: categories.name })
      .from(transactions)
      .leftJoin(categories, eq(transactions.categoryId, categories.id));

  return {
    /**
     * One page, newest first, and the filtered total, in one round trip (the count is an init plan).
     * Prepared once per filter shape, so PostgreSQL does not parse and plan it on every call.
     */
    async page(filter: TransactionFilter, offset: number, limit: number) {
      const { bind, key, params } = shapeOf(filter);
      let statement = pageStatements.get(key);
      if (!statement) {
        statement = preparePage(filter, bind, `tx_page_${key}`);
        pageStatements.set(key, statement);
      }
      const rows = await statement.execute({ ...params, limit, offset });
      // A page past the end has no row to carry the total.
      const total = rows.length ? rows[0].total : offset > 0 ? await this.count(filter) : 0;
      return { docs: rows.map(toTransaction), total };
    },

    async count(filter: TransactionFilter) {
      const result = await db.execute(sql`select ${totalOf(db, filter, (_name, value) => value, false)} as total`);
      // Both drivers answer raw SQL with `rows`.
      const [{ total }] = (result as unknown as { rows: { total: number | string }[] }).rows;
      return Number(total);
    },

    /** Walks the whole filtered set newest first in keyset chunks, so memory stays flat. */
    async *chunks(filter: TransactionFilter, size = 5000): AsyncGenerator<Transaction[]> {
      const where = whereOf(filter);
      let lastId: string | undefined;
      for (;;) {
        // The last row's instant is read back in SQL: a JS Date would drop its microseconds.
        const lastTime = sql`(select k.created_at from transactions k where k.id = ${lastId})`;
        const keyset = lastId
          ? sql`${transactions.createdAt} <= ${lastTime} and (${transactions.createdAt} < ${lastTime} or ${transactions.id} < ${lastId})`
          : undefined;
        const rows = await selectRows()
          .where(and(where, keyset))
          .orderBy(desc(transactions.createdAt), desc(transactions.id))
          .limit(size);
        if (rows.length === 0) return;
        yield rows.map(toTransaction);
        if (rows.length < size) return;
        lastId = rows[rows.length - 1].tx.id;
      }
    },

    async findById(id: string) {
      const [row] = await db.select().from(transactions).where(eq(transactions.id, id)).limit(1);
      return row;
    },

    async findRow(id: string) {
      const [row] = await selectRows().where(eq(transactions.id, id)).limit(1);
      return row ? toTransaction(row) : undefined;
    },

    /** Marks a failed call resolved once; a second call keeps the first resolver. */
    async resolve(id: string, userId: string) {
      await db
        .update(transactions)
        .set({ isResolved: true, resolvedById: userId, resolvedAt: sql`now()` })
        .where(and(eq(transactions.id, id), eq(transactions.isResolved, false)));
    },

    /** The service codes under categories an agent owns. */
    async codesOwnedBy(userId: string): Promise<string[]> {
      const rows = await db
        .select({ name: serviceCodes.name })
        .from(serviceCodes)
        .innerJoin(categories, eq(serviceCodes.categoryId, categories.id))
        .where(eq(categories.userId, userId));
      return rows.map((r) => r.name);
    },

    /** A day's counts by hour, category level and network, for one code, some or all (see `summarize`). */
    async dailyStats(filter: TransactionFilter & { day: string }) {
      const { bind, key, params } = shapeOf(filter);
      const name = `tx_stats_${key}`;
      let statement = summaryStatements.get(name);
      if (!statement) {
        statement = prepareSummary(filter, bind, name);
        summaryStatements.set(name, statement);
      }
      return statement.execute(params);
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

    async activeTicket(categoryId: string, categoryLevel: string) {
      const [row] = await db
        .select({ message: contents.message })
        .from(contents)
        .where(and(eq(contents.categoryId, categoryId), eq(contents.categoryLevel, categoryLevel), eq(contents.active, true)))
        .limit(1);
      return row?.message;
    },

    async serviceCodeWithCategory(name: string) {
      const [row] = await db
        .select({ code: serviceCodes, category: categories })
        .from(serviceCodes)
        .leftJoin(categories, eq(serviceCodes.categoryId, categories.id))
        .where(eq(serviceCodes.name, name))
        .limit(1);
      return row;
    },
  };
}

export type TransactionsRepository = ReturnType<typeof transactionsRepository>;
