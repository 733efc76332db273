import { sql, type SQL } from 'drizzle-orm';
import { type Refund, type RefundReason, type RefundState } from '../../../src/domain/refunds';
import type { DbOrTx } from '../db/client';
import { isoTime, rowsOf } from './sql-fragments';

/** A refund with its call's facts the flow needs (who to pay back, what the provider knows the payment as). */
export interface RefundRow {
  id: string;
  transactionId: string;
  amount: number;
  reason: RefundReason;
  state: RefundState;
  providerRef: string;
  requestedBy: string | null;
  phoneNumber: string;
  serviceCode: string;
  paymentRef: string | null;
  categoryLevel: string | null;
}

/** A refund as the API answers it, built by PostgreSQL (r: refunds, t: its call). */
const REFUND_JSON = sql`json_build_object(
  '_id', r.id, 'transactionId', r.transaction_id, 'amount', r.amount, 'reason', r.reason, 'note', r.note, 'state', r.state,
  'providerRef', r.provider_ref,
  'requestedBy', (select json_build_object('_id', u.id, 'userName', u.user_name) from users u where u.id = r.requested_by),
  'decidedBy', (select json_build_object('_id', u.id, 'userName', u.user_name) from users u where u.id = r.decided_by),
  'decisionReason', r.decision_reason, 'failureReason', r.failure_reason,
  'phoneNumber', t.phone_number, 'serviceCode', t.service_code, 'callAmount', t.amount,
  'createdAt', ${isoTime(sql`r.created_at`)}, 'decidedAt', ${isoTime(sql`r.decided_at`)}, 'submittedAt', ${isoTime(sql`r.submitted_at`)},
  'settledAt', ${isoTime(sql`r.settled_at`)}, 'updatedAt', ${isoTime(sql`r.updated_at`)})`;

const ROW_COLUMNS = sql`r.id, r.transaction_id as "transactionId", r.amount, r.reason, r.state, r.provider_ref as "providerRef", r.requested_by as "requestedBy",
  t.phone_number as "phoneNumber", t.service_code as "serviceCode", t.payment_ref as "paymentRef", t.category_level as "categoryLevel"`;

/** The queue's order: awaiting approval first, then in flight, then done; newest first within each. */
const QUEUE_ORDER = sql`case when r.state = 'requested' then 0 when r.state in ('approved', 'submitted', 'unknown') then 1 else 2 end, r.created_at desc, r.id desc`;

export interface RefundFilter {
  state?: RefundState;
  transactionId?: string;
  /** Only refunds of calls on these codes; every code when undefined. */
  codes?: readonly string[];
}

function filterWhere(filter: RefundFilter): SQL {
  const parts: SQL[] = [sql`true`];
  if (filter.state) parts.push(sql`r.state = ${filter.state}`);
  if (filter.transactionId) parts.push(sql`r.transaction_id = ${filter.transactionId}::uuid`);
  if (filter.codes) parts.push(filter.codes.length ? sql`t.service_code in (${sql.join(filter.codes.map((code) => sql`${code}`), sql`, `)})` : sql`false`);
  return sql.join(parts, sql` and `);
}

/** A state change that only happens from the states given; answers the row when it did, undefined when the refund had moved on. */
export interface StateChange {
  from: readonly RefundState[];
  to: RefundState;
  set?: SQL;
}

/**
 * The refunds (src/domain/refunds.ts). Every state change is a conditional UPDATE: of any number of
 * concurrent or repeated decisions exactly one wins, and only the winner records what follows.
 * The rules (processed call, one open, within the amount) are the database's trigger's.
 */
export function refundsRepository(db: DbOrTx) {
  const one = async (query: SQL) => (await rowsOf<RefundRow>(db, query))[0];
  return {
    /** A new refund; amount left out is what is left of the call's. The trigger refuses what breaks a rule. */
    async request(values: { transactionId: string; amount?: number; reason: RefundReason; note: string | null; requestedBy: string }): Promise<RefundRow> {
      const [row] = await rowsOf<RefundRow>(
        db,
        sql`with r as (
          insert into refunds (transaction_id, amount, reason, note, requested_by)
          values (${values.transactionId}::uuid, ${values.amount ?? null}::int, ${values.reason}, ${values.note}, ${values.requestedBy}::uuid)
          returning *)
        select ${ROW_COLUMNS} from r join transactions t on t.id = r.transaction_id`,
      );
      return row;
    },

    async find(id: string): Promise<RefundRow | undefined> {
      return one(sql`select ${ROW_COLUMNS} from refunds r join transactions t on t.id = r.transaction_id where r.id = ${id}::uuid`);
    },

    async findByProviderRef(reference: string): Promise<RefundRow | undefined> {
      return one(sql`select ${ROW_COLUMNS} from refunds r join transactions t on t.id = r.transaction_id where r.provider_ref::text = ${reference}`);
    },

    async findJson(id: string): Promise<Refund | undefined> {
      const [row] = await rowsOf<{ doc: Refund }>(db, sql`select ${REFUND_JSON} as doc from refunds r join transactions t on t.id = r.transaction_id where r.id = ${id}::uuid`);
      return row?.doc;
    },

    /** A page of the queue (or a call's refunds) as one JSON array text, and how many match. */
    async pageJson(filter: RefundFilter, offset: number, limit: number): Promise<{ docsJson: string; total: number }> {
      const where = filterWhere(filter);
      const [page] = await rowsOf<{ docs: string; total: number }>(
        db,
        sql`select
          (select coalesce(json_agg(p.doc), '[]')::text from (
            select ${REFUND_JSON} as doc from refunds r join transactions t on t.id = r.transaction_id where ${where}
            order by ${QUEUE_ORDER} limit ${limit} offset ${offset}) p) as docs,
          (select count(*)::int from refunds r join transactions t on t.id = r.transaction_id where ${where}) as total`,
      );
      return { docsJson: page.docs, total: page.total };
    },

    /** How many refunds match (an export records it before it starts). */
    async count(filter: RefundFilter): Promise<number> {
      const [row] = await rowsOf<{ total: number }>(db, sql`select count(*)::int as total from refunds r join transactions t on t.id = r.transaction_id where ${filterWhere(filter)}`);
      return row.total;
    },

    /** The queue in its order, `size` refunds at a time: an export's chunks. */
    async *chunks(filter: RefundFilter, size: number): AsyncGenerator<Refund[]> {
      const where = filterWhere(filter);
      for (let offset = 0; ; offset += size) {
        const rows = await rowsOf<{ doc: Refund }>(
          db,
          sql`select ${REFUND_JSON} as doc from refunds r join transactions t on t.id = r.transaction_id where ${where} order by ${QUEUE_ORDER} limit ${size} offset ${offset}`,
        );
        if (rows.length > 0) yield rows.map((row) => row.doc);
        if (rows.length < size) return;
      }
    },

    /** Moves a refund on, only from the states given: answers the row when this call made the change. */
    async change(id: string, change: StateChange): Promise<RefundRow | undefined> {
      const from = sql.join(
        change.from.map((state) => sql`${state}`),
        sql`, `,
      );
      return one(sql`with r as (
          update refunds set state = ${change.to}, updated_at = now(), sweep_claimed_until = null ${change.set ? sql`, ${change.set}` : sql``}
          where id = ${id}::uuid and state in (${from})
          returning *)
        select ${ROW_COLUMNS} from r join transactions t on t.id = r.transaction_id`);
    },

    /**
     * Claims refunds whose outcome the provider has not told: 'unknown' ones, and 'submitted' ones
     * older than `afterMinutes`. Each is claimed for `claimSeconds`, rows another instance is
     * claiming are skipped (SKIP LOCKED), so each is asked about once per sweep across instances.
     */
    async claimUnsettled(afterMinutes: number, limit: number, claimSeconds: number): Promise<RefundRow[]> {
      return rowsOf<RefundRow>(
        db,
        sql`with r as (
          update refunds set sweep_claimed_until = now() + make_interval(secs => ${claimSeconds})
          where id in (
            select id from refunds
            where (state = 'unknown' or (state = 'submitted' and submitted_at < now() - make_interval(mins => ${afterMinutes})))
              and (sweep_claimed_until is null or sweep_claimed_until < now())
            order by created_at limit ${limit}
            for update skip locked)
          returning *)
        select ${ROW_COLUMNS} from r join transactions t on t.id = r.transaction_id`,
      );
    },

    /** The completed refunds' sum of a call (what the call's JSON says as `refundedAmount`). */
    async refunded(transactionId: string): Promise<number> {
      const [row] = await rowsOf<{ sum: number }>(db, sql`select coalesce(sum(amount), 0)::int as sum from refunds where transaction_id = ${transactionId}::uuid and state = 'completed'`);
      return row.sum;
    },
  };
}

export type RefundsRepository = ReturnType<typeof refundsRepository>;
