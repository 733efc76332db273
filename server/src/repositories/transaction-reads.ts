import { sql, type SQL } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import type { Transaction, UserRef } from '../../../src/domain/entities';
import { serviceTimeZone } from '../../../src/domain/format';
import type { ResolveReason } from '../../../src/domain/resolution';
import type { TransactionStatus } from '../../../src/domain/transaction-status';
import type { Db } from '../db/client';
import { preparedReadRows, type PlaceholderValues } from '../db/prepared';
import { callIs, categories, refunds, transactionDailyStats, transactions, users } from '../db/schema';
import { callStatus, isoTime } from './sql-fragments';

/**
 * The read side of transactions: the lists, their totals, the export and the dashboard's counts.
 * These are the API's busiest calls, so PostgreSQL builds each call's JSON (`TRANSACTION_JSON`):
 * a page comes back as one text that goes into the response as it is, instead of 50 rows of 20
 * fields parsed, mapped and serialized again. Each filter shape is one prepared statement.
 */

export interface TransactionFilter {
  /** Only these service codes; undefined means every code. */
  codes?: readonly string[];
  /** A calendar day in the service's zone; with `dayTo`, the first day of a range. */
  day?: string;
  /** The last day of a range that starts on `day`, both included. */
  dayTo?: string;
  status?: TransactionStatus;
  phoneNumber?: string;
  /** Created after this instant (ISO 8601)… */
  since?: string;
  /** …and up to this one. */
  until?: string;
}

const t = transactions;
const c = categories;
const s = transactionDailyStats;
/** The call a keyset chunk starts after. */
const k = alias(transactions, 'k');

/**
 * A call as the API answers it: one SQL expression per field of `Transaction`, from the call and
 * its category. The type makes a missing, extra or renamed field (or column) a compile error.
 */
export const TRANSACTION_JSON = {
  _id: sql<string>`${t.id}`,
  name: sql<string>`${t.serviceCode}`,
  shortCode: sql<{ name: string }>`json_build_object('name', ${t.serviceCode})`,
  phoneNumber: sql<string>`${t.phoneNumber}`,
  network: sql<string>`${t.network}`,
  createdAt: isoTime(t.createdAt),
  callbackTime: isoTime(t.callbackTime),
  isComplete: sql<boolean>`${t.isComplete}`,
  isDeleted: sql<boolean>`${t.isDeleted}`,
  isResolved: sql<boolean>`${t.isResolved}`,
  categoryLevel: sql<string | null>`${t.categoryLevel}`,
  category: sql<{ _id: string; name: string } | null>`case when ${c.id} is not null then json_build_object('_id', ${c.id}, 'name', ${c.name}) end`,
  amount: sql<number | null>`${t.amount}`,
  campaignKey: sql<string | null>`${t.campaignKey}`,
  round: sql<string | null>`${t.round}`,
  teamName: sql<string | null>`${t.teamName}`,
  teamName2: sql<string | null>`${t.teamName2}`,
  messageStatuses: sql<string | null>`${t.messageStatuses}`,
  ticket: sql<{ message: string } | null>`case when ${t.ticketMessage} <> '' then json_build_object('message', ${t.ticketMessage}) end`,
  paymentRef: sql<string | null>`${t.paymentRef}`,
  // A subquery rather than a join: only the page's few resolved calls look their resolver up.
  resolvedBy: sql<UserRef | null>`(select json_build_object('_id', ${users.id}, 'userName', ${users.userName}) from ${users} where ${users.id} = ${t.resolvedById})`,
  resolvedAt: isoTime(t.resolvedAt),
  resolvedReason: sql<ResolveReason | null>`${t.resolvedReason}`,
  resolvedNote: sql<string | null>`${t.resolvedNote}`,
  failureReason: sql<string | null>`${t.failureReason}`,
  // A subquery on the refunds' call index: most calls have none.
  refundedAmount: sql<number>`(select coalesce(sum(r.amount), 0)::int from refunds r where r.transaction_id = ${t.id} and r.state = 'completed')`,
} satisfies { [K in keyof Transaction]-?: SQL<Transaction[K]> };

/**
 * A select list whose aliases are the JSON keys, turned into JSON as a whole record, which is
 * about a third cheaper for PostgreSQL than one json_build_object per call.
 */
export const transactionColumns = sql.join(
  Object.entries(TRANSACTION_JSON).map(([key, value]) => sql`${value} as ${sql.identifier(key)}`),
  sql`, `,
);

/**
 * The calls of `listSql` as one JSON array text. PostgreSQL aggregates a sorted subquery in its
 * order (as its documentation notes for ordered aggregates), so the array is newest first.
 */
const jsonArrayOf = (list: SQL) => sql`select coalesce(json_agg(p), '[]')::text as docs from (${list}) p`;

function codesSql(column: PgColumn, codes: readonly string[]): SQL {
  if (codes.length === 0) return sql`false`;
  if (codes.length === 1) return sql`${column} = ${sql.placeholder('code')}`;
  return sql`${column} = any(${sql.placeholder('codes')}::text[])`;
}

/** The WHERE over the calls. */
function callsWhere(filter: TransactionFilter): SQL[] {
  const parts: SQL[] = [];
  if (filter.codes) parts.push(codesSql(t.serviceCode, filter.codes));
  if (filter.day) {
    const [day, zone] = [sql.placeholder('day'), sql.placeholder('zone')];
    const last = filter.dayTo ? sql.placeholder('dayTo') : day;
    parts.push(sql`${t.createdAt} >= ${day}::date::timestamp at time zone ${zone}::text and ${t.createdAt} < (${last}::date + 1)::timestamp at time zone ${zone}::text`);
  }
  if (filter.status) parts.push(callIs[filter.status](t));
  if (filter.phoneNumber) parts.push(sql`${t.phoneNumber} = ${sql.placeholder('phone')}`);
  if (filter.since) parts.push(sql`${t.createdAt} > ${sql.placeholder('since')}::timestamptz`);
  if (filter.until) parts.push(sql`${t.createdAt} <= ${sql.placeholder('until')}::timestamptz`);
  return parts;
}

/** The WHERE over the daily counts (migration 0002), for filters without a phone number. */
function statsWhere(filter: TransactionFilter): SQL[] {
  const parts: SQL[] = [];
  if (filter.codes) parts.push(codesSql(s.serviceCode, filter.codes));
  if (filter.day && filter.dayTo) parts.push(sql`${s.day} between ${sql.placeholder('day')}::date and ${sql.placeholder('dayTo')}::date`);
  else if (filter.day) parts.push(sql`${s.day} = ${sql.placeholder('day')}::date`);
  if (filter.status) parts.push(callIs[filter.status](s));
  return parts;
}

const where = (parts: SQL[]) => (parts.length ? sql`where ${sql.join(parts, sql` and `)}` : sql``);

/**
 * How many calls a filter matches: read from the daily counts (a few rows per code and day), or,
 * for a phone number, counted from its index (a caller's calls are few).
 */
function totalSql(filter: TransactionFilter): SQL {
  // The daily counts know no instants: a window is counted from the calls' time index.
  if (filter.phoneNumber || filter.since || filter.until) return sql`select count(*)::int from ${t} ${where(callsWhere(filter))}`;
  return sql`select coalesce(sum(${s.calls}), 0)::int from ${s} ${where([sql`${s.dimension} = 'network'`, ...statsWhere(filter)])}`;
}

/**
 * How many calls a list takes, written into its statement: `limit` as a number, and whether it
 * skips any (an offset from the 'offset' placeholder) or starts at the first. With both as
 * parameters, PostgreSQL's generic plan assumed a tenth of the range skipped and a tenth taken; at
 * 10,000,000 calls that cost more than planning each call afresh, so every page 1 was planned
 * again (0.8 ms of its CPU against 0.45). Written in, page 1 keeps its generic plan at any size.
 */
export interface RowsTaken {
  limit: number;
  skips: boolean;
}

/** The most rows a list statement takes (a page's limit is at most 100, an export's chunk 500): a bound on the text written in. */
const MOST_ROWS_TAKEN = 1_000_000;

function takenSql({ limit, skips }: RowsTaken): SQL {
  // Written into the SQL text, so only a whole number in range ever gets there.
  if (!Number.isInteger(limit) || limit < 1 || limit > MOST_ROWS_TAKEN) throw new Error(`a list takes a whole number of rows from 1 to ${MOST_ROWS_TAKEN}`);
  return sql`limit ${sql.raw(String(limit))} offset ${skips ? sql.placeholder('offset') : sql.raw('0')}`;
}

const takenKey = ({ limit, skips }: RowsTaken) => `${limit}${skips ? '_skip' : ''}`;

/** Newest first, `id` breaking ties, as the ordered indexes run; `afterKeyset` starts after the call `after`. */
function listSql(filter: TransactionFilter, rows: RowsTaken, afterKeyset = false): SQL {
  const parts = callsWhere(filter);
  if (afterKeyset) {
    // The last row's instant is read back in SQL: a JS Date would drop its microseconds.
    const after = sql.placeholder('after');
    const time = sql`(select ${k.createdAt} from ${t} as ${sql.identifier('k')} where ${k.id} = ${after}::uuid)`;
    parts.push(sql`${t.createdAt} <= ${time} and (${t.createdAt} < ${time} or ${t.id} < ${after}::uuid)`);
  }
  const newestFirst = sql`order by ${t.createdAt} desc, ${t.id} desc`;
  // The page is picked before its JSON is built: PostgreSQL computes a select list (the timestamps'
  // text, the refund and resolver subqueries) for every row it passes up, and the rows an offset
  // skips are passed up too, so page 20 built the JSON of 1,000 calls to send 50. The subquery
  // keeps the table's name, so the select list's columns read the page's rows.
  return sql`select ${transactionColumns}
    from (select * from ${t} ${where(parts)} ${newestFirst} ${takenSql(rows)}) as ${t}
    left join ${c} on ${c.id} = ${t.categoryId}
    ${newestFirst}`;
}

/** Names a filter's shape: the same shape always gives the same text, so it is prepared once. */
function shapeKey(filter: TransactionFilter): string {
  const codes = !filter.codes ? 'all' : filter.codes.length === 0 ? 'none' : filter.codes.length === 1 ? 'code' : 'codes';
  return [codes, filter.day ? (filter.dayTo ? 'range' : 'day') : '', filter.status ?? '', filter.phoneNumber ? 'phone' : '', filter.since ? 'since' : '', filter.until ? 'until' : ''].join('_');
}

/** A filter's values for the placeholders its statements use (bench:api gives them to pgbench too). */
export function filterValues(filter: TransactionFilter): PlaceholderValues {
  return {
    code: filter.codes?.[0],
    codes: filter.codes ? [...filter.codes] : undefined,
    day: filter.day,
    dayTo: filter.dayTo,
    zone: serviceTimeZone(),
    phone: filter.phoneNumber,
    since: filter.since,
    until: filter.until,
  };
}

/** One page of calls as JSON text (`docs`, newest first) and the filtered total (`total`), in one statement. */
export const pageSql = (filter: TransactionFilter, rows: RowsTaken = { limit: 50, skips: false }) =>
  sql`select (${jsonArrayOf(listSql(filter, rows))}) as docs, (${totalSql(filter)}) as total`;

/**
 * The WHERE over the refunds completed on a day (in the service's zone) of some codes. A refund
 * settles after it was made, so its creation bounds the state index's range from above.
 */
function refundDayWhere(filter: Pick<TransactionFilter, 'codes'> & { day: string }): SQL[] {
  const [day, zone] = [sql.placeholder('day'), sql.placeholder('zone')];
  const end = sql`(${day}::date + 1)::timestamp at time zone ${zone}::text`;
  const parts = [
    sql`${refunds.settledAt} >= ${day}::date::timestamp at time zone ${zone}::text and ${refunds.settledAt} < ${end}`,
    sql`${refunds.createdAt} < ${end}`,
  ];
  if (filter.codes) parts.push(codesSql(t.serviceCode, filter.codes));
  return parts;
}

/**
 * A day's figures as the dashboard shows them (`DashboardSummary`), folded by PostgreSQL from the
 * daily counts into one JSON text: the route sends it as it is, as the lists send their pages,
 * instead of parsing some 140 count rows and folding and serializing them again.
 * Each dimension (network, hour, category level) counts every call once, so the network rows give
 * the day's totals; revenue is the processed calls' amounts by level ('unknown' for none). Refunds
 * are those completed that day, whenever their call was made, and net revenue is revenue less them.
 */
export const dailySummarySql = (filter: Pick<TransactionFilter, 'codes'> & { day: string }) => sql`
  with counted as (
    select ${s.dimension} as dimension, ${s.key} as key,
      ${callStatus(s)} as status,
      sum(${s.calls})::int as calls, sum(${s.amount})::float8 as amount
    from ${s} ${where(statsWhere(filter))}
    group by 1, 2, 3
    having sum(${s.calls}) <> 0
  ),
  day_counts as (
    select coalesce(sum(calls) filter (where status = 'processed'), 0)::int as processed,
      coalesce(sum(calls) filter (where status = 'failed'), 0)::int as failed,
      coalesce(sum(calls) filter (where status = 'pending'), 0)::int as pending,
      coalesce(sum(calls), 0)::int as total
    from counted where dimension = 'network'
  ),
  levels as (
    select case when key = '' then 'unknown' else key end as level, sum(amount)::float8 as amount, sum(calls)::int as count
    from counted where dimension = 'level' and status = 'processed'
    group by 1
  ),
  refunded as (
    select count(*)::int as count, coalesce(sum(${refunds.amount}), 0)::float8 as amount
    from ${refunds} join ${t} on ${t.id} = ${refunds.transactionId}
    ${where([sql`${refunds.state} = 'completed'`, ...refundDayWhere(filter)])}
  )
  select json_build_object(
    'date', to_char(${sql.placeholder('day')}::date, 'YYYY-MM-DD'),
    'name', ${sql.placeholder('name')}::text,
    'total', d.total, 'processed', d.processed, 'failed', d.failed, 'pending', d.pending,
    'successRate', case when d.total > 0 then (round(d.processed * 1000.0 / d.total) / 10)::float8 else 0 end,
    'revenue', (select coalesce(sum(amount), 0)::float8 from levels),
    'refunds', json_build_object('count', rf.count, 'amount', rf.amount),
    'netRevenue', (select coalesce(sum(amount), 0)::float8 from levels) - rf.amount,
    'revenueByLevel', (select coalesce(json_agg(json_build_object('level', level, 'amount', amount, 'count', count) order by amount desc, level), '[]') from levels),
    'perHour', (
      select json_agg(json_build_object('hour', h, 'total', total, 'processed', processed, 'failed', failed, 'pending', pending) order by h)
      from (
        select h, coalesce(sum(calls), 0)::int as total,
          coalesce(sum(calls) filter (where status = 'processed'), 0)::int as processed,
          coalesce(sum(calls) filter (where status = 'failed'), 0)::int as failed,
          coalesce(sum(calls) filter (where status = 'pending'), 0)::int as pending
        from generate_series(0, 23) h left join counted on dimension = 'hour' and key = h::text
        group by h) hours),
    'perNetwork', (
      select coalesce(json_agg(json_build_object('network', key, 'total', calls) order by calls desc, key), '[]')
      from (select key, sum(calls)::int as calls from counted where dimension = 'network' group by key) n)
  )::text as summary
  from day_counts d cross join refunded rf`;

export function transactionReads(db: Db) {
  const statements = new Map<string, (values: PlaceholderValues) => Promise<unknown[]>>();
  /** The statement named `name`, built by `build` the first time only. */
  function statement<Row>(name: string, build: () => SQL) {
    let found = statements.get(name);
    if (!found) {
      found = preparedReadRows<Row>(db, name, build());
      statements.set(name, found);
    }
    return found as (values: PlaceholderValues) => Promise<Row[]>;
  }

  return {
    /** One page as JSON text (an array, newest first) and the filtered total, in one round trip. */
    async pageJson(filter: TransactionFilter, offset: number, limit: number): Promise<{ docsJson: string; total: number }> {
      const rows = { limit, skips: offset > 0 };
      const page = statement<{ docs: string; total: number }>(`tx_page_${shapeKey(filter)}_${takenKey(rows)}`, () => pageSql(filter, rows));
      const [row] = await page({ ...filterValues(filter), offset });
      return { docsJson: row.docs, total: Number(row.total) };
    },

    /** How many calls the filter matches (an export records it before it starts). */
    async count(filter: TransactionFilter): Promise<number> {
      const total = statement<{ total: number }>(`tx_total_${shapeKey(filter)}`, () => sql`select (${totalSql(filter)}) as total`);
      const [row] = await total(filterValues(filter));
      return Number(row.total);
    },

    /** Walks the whole filtered set newest first in keyset chunks, so memory stays flat. */
    async *chunks(filter: TransactionFilter, size = 5000): AsyncGenerator<Transaction[]> {
      const rows = { limit: size, skips: false };
      const first = statement<{ docs: string }>(`tx_chunk_${shapeKey(filter)}_${takenKey(rows)}`, () => sql`${jsonArrayOf(listSql(filter, rows))}`);
      const next = statement<{ docs: string }>(`tx_chunk_after_${shapeKey(filter)}_${takenKey(rows)}`, () => sql`${jsonArrayOf(listSql(filter, rows, true))}`);
      let after: string | undefined;
      for (;;) {
        const values = { ...filterValues(filter), after };
        const [row] = await (after ? next(values) : first(values));
        const docs = JSON.parse(row.docs) as Transaction[];
        if (docs.length === 0) return;
        yield docs;
        if (docs.length < size) return;
        after = docs[docs.length - 1]._id;
      }
    },

    /** One call as the lists show it. */
    async findRow(id: string): Promise<Transaction | undefined> {
      const row = statement<{ doc: string }>(
        'tx_row',
        () => sql`select row_to_json(p)::text as doc from (select ${transactionColumns} from ${t} left join ${c} on ${c.id} = ${t.categoryId} where ${t.id} = ${sql.placeholder('id')}::uuid) p`,
      );
      const [found] = await row({ id });
      return found ? (JSON.parse(found.doc) as Transaction) : undefined;
    },

    /** A day's figures for the dashboard as JSON text, of one code, some or all (`dailySummarySql`). */
    async dailySummaryJson(filter: Pick<TransactionFilter, 'codes'> & { day: string }, name: string | null): Promise<string> {
      const summary = statement<{ summary: string }>(`tx_summary_${shapeKey(filter)}`, () => dailySummarySql(filter));
      const [row] = await summary({ ...filterValues(filter), name });
      return row.summary;
    },
  };
}
