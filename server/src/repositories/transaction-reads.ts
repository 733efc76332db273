import type { DailyStat } from '../../../src/domain/dashboard-summary';
import type { Transaction } from '../../../src/domain/entities';
import { SERVICE_TIME_ZONE } from '../../../src/domain/format';
import type { TransactionStatus } from '../../../src/domain/transaction-status';
import type { Db } from '../db/client';
import { rawRows } from '../db/raw';

/**
 * The read side of transactions: the lists, their totals, the export and the dashboard's counts.
 * These are the API's busiest calls, so they are plain SQL run without drizzle's row mapping, and
 * PostgreSQL builds each call's JSON (`TRANSACTION_FIELDS`): a page comes back as one text that goes
 * into the response as it is, instead of 50 rows of 20 fields parsed, mapped and serialized again.
 */

export interface TransactionFilter {
  /** Only these service codes; undefined means every code. */
  codes?: readonly string[];
  /** A calendar day in the service's zone. */
  day?: string;
  status?: TransactionStatus;
  phoneNumber?: string;
}

if (!/^[A-Za-z_/+-]+$/.test(SERVICE_TIME_ZONE)) throw new Error(`bad time zone ${SERVICE_TIME_ZONE}`);
/** Inlined (a known IANA name) so that PostgreSQL sees a constant, as the stats triggers do. */
const ZONE = `'${SERVICE_TIME_ZONE}'`;

const isoTime = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * A call as the API answers it (`Transaction` in src/domain/entities.ts), from `t` and its category
 * `c`: a select list whose aliases are the JSON keys, turned into JSON as a whole record, which is
 * about a third cheaper for PostgreSQL than one json_build_object per call.
 */
const TRANSACTION_FIELDS = `t.id as "_id",
  t.service_code as "name",
  json_build_object('name', t.service_code) as "shortCode",
  t.phone_number as "phoneNumber",
  t.network as "network",
  ${isoTime('t.created_at')} as "createdAt",
  ${isoTime('t.callback_time')} as "callbackTime",
  t.is_complete as "isComplete",
  t.is_deleted as "isDeleted",
  t.is_resolved as "isResolved",
  t.category_level as "categoryLevel",
  case when c.id is not null then json_build_object('_id', c.id, 'name', c.name) end as "category",
  t.amount as "amount",
  t.team_name as "teamName",
  t.team_name2 as "teamName2",
  t.message_statuses as "messageStatuses",
  case when t.ticket_message <> '' then json_build_object('message', t.ticket_message) end as "ticket",
  t.payment_ref as "paymentRef"`;

/**
 * The calls of `listSql` as one JSON array text. PostgreSQL aggregates a sorted subquery in its
 * order (as its documentation notes for ordered aggregates), so the array is newest first.
 */
const jsonArrayOf = (list: string) => `select coalesce(json_agg(p), '[]')::text as docs from (${list}) p`;

/** Positional parameters, each named value bound once however often the text mentions it. */
class Params {
  readonly values: unknown[] = [];
  private readonly named = new Map<string, string>();
  bind(name: string, value: unknown): string {
    let placeholder = this.named.get(name);
    if (!placeholder) {
      this.values.push(value);
      placeholder = `$${this.values.length}`;
      this.named.set(name, placeholder);
    }
    return placeholder;
  }
}

/** Written as the partial indexes' predicates so PostgreSQL can use them. */
function statusSql(status: TransactionStatus, alias: string): string {
  if (status === 'processed') return `${alias}.is_complete`;
  if (status === 'failed') return `${alias}.is_deleted and not ${alias}.is_complete`;
  return `not ${alias}.is_complete and not ${alias}.is_deleted`;
}

function codesSql(column: string, codes: readonly string[], params: Params): string {
  if (codes.length === 0) return 'false';
  if (codes.length === 1) return `${column} = ${params.bind('code', codes[0])}`;
  return `${column} = any(${params.bind('codes', [...codes])}::text[])`;
}

/** The WHERE over the calls `t`. */
function callsWhere(filter: TransactionFilter, params: Params): string[] {
  const parts: string[] = [];
  if (filter.codes) parts.push(codesSql('t.service_code', filter.codes, params));
  if (filter.day) {
    const day = params.bind('day', filter.day);
    parts.push(`t.created_at >= ${day}::date::timestamp at time zone ${ZONE} and t.created_at < (${day}::date + 1)::timestamp at time zone ${ZONE}`);
  }
  if (filter.status) parts.push(statusSql(filter.status, 't'));
  if (filter.phoneNumber) parts.push(`t.phone_number = ${params.bind('phone', filter.phoneNumber)}`);
  return parts;
}

/** The WHERE over the daily counts `s` (migration 0002), for filters without a phone number. */
function statsWhere(filter: TransactionFilter, params: Params): string[] {
  const parts: string[] = [];
  if (filter.codes) parts.push(codesSql('s.service_code', filter.codes, params));
  if (filter.day) parts.push(`s.day = ${params.bind('day', filter.day)}::date`);
  if (filter.status) parts.push(statusSql(filter.status, 's'));
  return parts;
}

const where = (parts: string[]) => (parts.length ? `where ${parts.join(' and ')}` : '');

/**
 * How many calls a filter matches: read from the daily counts (a few rows per code and day), or,
 * for a phone number, counted from its index (a caller's calls are few).
 */
function totalSql(filter: TransactionFilter, params: Params): string {
  if (filter.phoneNumber) return `(select count(*)::int from transactions t ${where(callsWhere(filter, params))})`;
  return `(select coalesce(sum(s.calls), 0)::int from transaction_daily_stats s ${where(["s.dimension = 'network'", ...statsWhere(filter, params)])})`;
}

/** Names a filter's shape: the same shape always gives the same text, so it is prepared once. */
function shapeKey(filter: TransactionFilter): string {
  const codes = !filter.codes ? 'all' : filter.codes.length === 0 ? 'none' : filter.codes.length === 1 ? 'code' : 'codes';
  return [codes, filter.day ? 'day' : '', filter.status ?? '', filter.phoneNumber ? 'phone' : ''].join('_');
}

/** Newest first, `id` breaking ties, as the ordered indexes run. */
function listSql(filter: TransactionFilter, params: Params, limit: number, offset: number, afterId?: string): string {
  const parts = callsWhere(filter, params);
  if (afterId) {
    // The last row's instant is read back in SQL: a JS Date would drop its microseconds.
    const id = params.bind('after', afterId);
    const time = `(select k.created_at from transactions k where k.id = ${id})`;
    parts.push(`t.created_at <= ${time} and (t.created_at < ${time} or t.id < ${id}::uuid)`);
  }
  return `select ${TRANSACTION_FIELDS}
    from transactions t left join categories c on c.id = t.category_id
    ${where(parts)}
    order by t.created_at desc, t.id desc
    limit ${params.bind('limit', limit)} offset ${params.bind('offset', offset)}`;
}

export function transactionReads(db: Db) {
  return {
    /**
     * One page as JSON text (an array, newest first) and the filtered total, in one round trip,
     * prepared once per filter shape so PostgreSQL does not parse and plan it on every call.
     */
    async pageJson(filter: TransactionFilter, offset: number, limit: number): Promise<{ docsJson: string; total: number }> {
      const params = new Params();
      const text = `select (${jsonArrayOf(listSql(filter, params, limit, offset))}) as docs, ${totalSql(filter, params)} as total`;
      const [row] = await rawRows<{ docs: string; total: number }>(db, { name: `tx_page_${shapeKey(filter)}`, text, values: params.values });
      return { docsJson: row.docs, total: Number(row.total) };
    },

    /** Walks the whole filtered set newest first in keyset chunks, so memory stays flat. */
    async *chunks(filter: TransactionFilter, size = 5000): AsyncGenerator<Transaction[]> {
      let afterId: string | undefined;
      for (;;) {
        const params = new Params();
        const text = jsonArrayOf(listSql(filter, params, size, 0, afterId));
        const [row] = await rawRows<{ docs: string }>(db, { text, values: params.values });
        const docs = JSON.parse(row.docs) as Transaction[];
        if (docs.length === 0) return;
        yield docs;
        if (docs.length < size) return;
        afterId = docs[docs.length - 1]._id;
      }
    },

    /** One call as the lists show it. */
    async findRow(id: string): Promise<Transaction | undefined> {
      const [row] = await rawRows<{ doc: string }>(db, {
        name: 'tx_row',
        text: `select row_to_json(p)::text as doc from (select ${TRANSACTION_FIELDS} from transactions t left join categories c on c.id = t.category_id where t.id = $1) p`,
        values: [id],
      });
      return row ? (JSON.parse(row.doc) as Transaction) : undefined;
    },

    /** A day's counts by hour, category level and network, for one code, some or all (see `summarize`). */
    async dailyStats(filter: Pick<TransactionFilter, 'codes'> & { day: string }): Promise<DailyStat[]> {
      const params = new Params();
      const text = `select s.dimension, s.key, s.is_complete as "isComplete", s.is_deleted as "isDeleted",
          sum(s.calls)::int as calls, sum(s.amount)::float8 as amount
        from transaction_daily_stats s ${where(statsWhere(filter, params))}
        group by 1, 2, 3, 4`;
      return rawRows<DailyStat>(db, { name: `tx_stats_${shapeKey(filter)}`, text, values: params.values });
    },
  };
}
