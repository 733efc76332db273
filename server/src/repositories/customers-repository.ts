import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { CustomerSummary } from '../../../src/domain/customers';
import type { MonthlyReportRow } from '../../../src/domain/reports';
import { serviceTimeZone } from '../../../src/domain/format';
import { MESSAGE_STATUS } from '../../../src/domain/transaction-events';
import type { Db } from '../db/client';
import { callIs, refunds, transactionDailyStats, transactions } from '../db/schema';
import { isoTime, rowsOf } from './sql-fragments';

const t = transactions;
const s = transactionDailyStats;

/** What completed refunds gave back on the calls a WHERE part picks (over the call index of refunds). */
const refundedOn = (calls: SQL): SQL<number> =>
  sql<number>`(select coalesce(sum(r.amount), 0)::float8 from ${refunds} r join ${t} c on c.id = r.transaction_id
    where r.state = 'completed' and ${calls})`;

/** `codes` as a WHERE part: undefined reads every code, an empty list none. */
const inCodes = (column: typeof t.serviceCode | typeof s.serviceCode, codes: readonly string[] | undefined): SQL | undefined => {
  if (!codes) return undefined;
  if (codes.length === 0) return sql`false`;
  return inArray(column, [...codes]);
};

/** A customer's figures and a service code's month, read for support and for the reports. */
export function customersRepository(db: Db) {
  return {
    /** A number's figures over its calls among `codes` (every code when undefined), read through the phone index. */
    async summary(phoneNumber: string, codes: readonly string[] | undefined): Promise<CustomerSummary> {
      const [row] = await db
        .select({
          firstSeenAt: sql<string | null>`${isoTime(sql`min(${t.createdAt})`)}`,
          lastSeenAt: sql<string | null>`${isoTime(sql`max(${t.createdAt})`)}`,
          calls: sql<number>`count(*)::int`,
          processed: sql<number>`(count(*) filter (where ${callIs.processed(t)}))::int`,
          failed: sql<number>`(count(*) filter (where ${callIs.failed(t)}))::int`,
          spent: sql<number>`coalesce(sum(${t.amount}) filter (where ${callIs.processed(t)}), 0)::float8`,
          refunded: refundedOn(sql`c.phone_number = ${phoneNumber}${codes ? sql` and ${codes.length === 0 ? sql`false` : sql`c.service_code in ${[...codes]}`}` : sql``}`),
          votes: sql<number>`(count(*) filter (where ${callIs.processed(t)} and ${t.campaignKey} is not null))::int`,
          sms: sql<number>`(count(*) filter (where ${t.messageStatuses} in (${MESSAGE_STATUS.sent}, ${MESSAGE_STATUS.delivered})))::int`,
        })
        .from(t)
        .where(and(eq(t.phoneNumber, phoneNumber), inCodes(t.serviceCode, codes)));
      return {
        phoneNumber,
        firstSeenAt: row.firstSeenAt,
        lastSeenAt: row.lastSeenAt,
        calls: Number(row.calls),
        processed: Number(row.processed),
        failed: Number(row.failed),
        spent: Number(row.spent),
        refunded: Number(row.refunded),
        votes: Number(row.votes),
        sms: Number(row.sms),
      };
    },

    /** The call of a payment reference among `codes`, with its number. */
    async findByPaymentRef(reference: string, codes: readonly string[] | undefined) {
      const [row] = await db
        .select({ id: t.id, phoneNumber: t.phoneNumber })
        .from(t)
        .where(and(eq(t.paymentRef, reference), inCodes(t.serviceCode, codes)))
        .limit(1);
      return row;
    },

    /**
     * Each code's figures over the days `from`…`to`, from the daily counts (a few rows per code and
     * day; the network dimension counts every call once), busiest code first.
     */
    async monthly(from: string, to: string, codes: readonly string[] | undefined): Promise<MonthlyReportRow[]> {
      const scope = inCodes(s.serviceCode, codes);
      const rows = await rowsOf<MonthlyReportRow>(
        db,
        sql`select ${s.serviceCode} as name,
            coalesce(sum(${s.calls}), 0)::int as calls,
            coalesce(sum(${s.calls}) filter (where ${callIs.processed(s)}), 0)::int as processed,
            coalesce(sum(${s.calls}) filter (where ${callIs.failed(s)}), 0)::int as failed,
            coalesce(sum(${s.amount}) filter (where ${callIs.processed(s)}), 0)::float8 as revenue,
            ${refundedOn(sql`c.service_code = ${s.serviceCode} and (r.settled_at at time zone ${serviceTimeZone()})::date between ${from}::date and ${to}::date`)} as refunded
          from ${s}
          where ${s.dimension} = 'network' and ${s.day} between ${from}::date and ${to}::date ${scope ? sql`and ${scope}` : sql``}
          group by ${s.serviceCode}
          having sum(${s.calls}) <> 0
          order by calls desc, name`,
      );
      return rows.map((row) => {
        const calls = Number(row.calls);
        const processed = Number(row.processed);
        return {
          name: row.name,
          calls,
          processed,
          failed: Number(row.failed),
          revenue: Number(row.revenue),
          refunded: Number(row.refunded),
          successRate: calls > 0 ? Math.round((processed * 1000) / calls) / 10 : 0,
        };
      });
    },
  };
}
