import crypto from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { CATEGORY_LEVELS, categoryLevelLabel, type CategoryLevel } from '../../../src/domain/category-levels';
import { serviceTimeZone } from '../../../src/domain/format';
import { MESSAGE_STATUS, type TransactionEventDetail, type TransactionEventKind } from '../../../src/domain/transaction-events';
import type { DbOrTx } from './client';
import { DEFAULT_REFUND_SMS_TEXT } from '../../../src/domain/refunds';
import { refundEvent, refundSmsText } from '../refunds/refund-flow';
import { refunds, serviceCodes, smsMessages, transactionEvents } from './schema';
import { DEMO_CATEGORIES, DEMO_REFUNDS, HOUR_WEIGHTS, LEVEL_WEIGHTS } from './seed-data';

/**
 * The bulk generators of the demo data: calls and SMS made up in volume, with set-based SQL where
 * the counts are large. seed.ts decides what a demo database holds; these make it.
 */

/** A ticket SMS well under 160 GSM-7 characters. */
export function ticketMessage(categoryName: string, level: CategoryLevel, picks: string[], seed: number) {
  const chosen = [0, 1, 2].map((k) => picks[(seed + k * 2) % picks.length]);
  const message = `${categoryName} ${categoryLevelLabel(level)}: ${chosen.join(', ')}. Bet responsibly.`;
  return message.length <= 160 ? message : `${message.slice(0, 157)}...`;
}

/** The k-th number of the demo pool: MTN (76, 77, 78) for 3 in 5, Airtel (70, 75) for 2 in 5. */
export function demoPhoneNumber(k: number) {
  const prefix = ['77', '78', '76', '70', '75'][k % 5];
  return `256${prefix}${String((k * 7919 + 1234567) % 10_000_000).padStart(7, '0')}`;
}

/**
 * Session ids and payment references are unique: a random prefix per statement plus the row
 * number keeps them so, and rising keys are far cheaper to index than random ones.
 */
export const batchId = () => crypto.randomBytes(6).toString('hex');
export const sessionPrefix = () => `ATUid_${batchId()}`;

/** Index lists whose uniform draw follows the weights, for picking in SQL with one random(). */
function weighted<T>(entries: [T, number][]): T[] {
  return entries.flatMap(([value, weight]) => Array.from({ length: weight }, () => value));
}

// The same pool formula in SQL as demoPhoneNumber, from a pool index k.
export const phoneSql = (k: ReturnType<typeof sql>) =>
  sql`'256' || (array['77','78','76','70','75'])[(${k} % 5) + 1] || lpad(((${k}::bigint * 7919 + 1234567) % 10000000)::text, 7, '0')`;
export const networkSql = (k: ReturnType<typeof sql>) => sql`case when ${k} % 5 < 3 then 'MTN' else 'Airtel' end`;

/** Local times weighted by hour over the last `days` days (today included), never in the future. */
export function callTimeSql(rows: number, days: number, timeZone: string) {
  const hours = JSON.stringify(weighted(HOUR_WEIGHTS.map((w, h) => [h, w])));
  return sql`
    day_start as (select ((now() at time zone ${timeZone})::date)::timestamp at time zone ${timeZone} as today),
    times as (
      select g, ts, (ts > now()) as future from (
        select g, ((d.today at time zone ${timeZone}) - make_interval(days => floor(random() * ${days})::int)
          + make_interval(hours => (${hours}::jsonb ->> floor(random() * jsonb_array_length(${hours}::jsonb))::int)::int, secs => random() * 3600))
          at time zone ${timeZone} as ts
        from generate_series(1, ${Math.floor(rows)}::int) g, day_start d
      ) raw
    ),
    calls as (
      select g, case when future then d.today + random() * (now() - d.today) else ts end as created_at,
        random() as r_status, random() as r_pick, random() as r_phone, random() as r_level, random() as r_extra
      from times, day_start d
    )`;
}

/**
 * How a seeded call ended, from its draw `r` (0 to 1) against the shares: 'processed', 'failed' (the
 * provider refused), or unanswered: 'pending' while younger than the payment timeout, else
 * 'timedOut', as the sweeper leaves such a payment (all of them when no timeout is given). Every
 * seeded call reached the payment step and has a reference, so none is stuck pending: the sweeper
 * asks about the pending ones once they pass the timeout, as it does for any payment.
 */
/**
 * The `codes` CTE of a set-based seed: each code's place in `codes`, its category and that category as
 * JSON (the prices). Materialized so each category row turns into JSON once, not once per call.
 */
export const seedCodesSql = (codes: string[]) => sql`codes as materialized (
  select (x.ord - 1)::int as idx, x.name, sc.category_id, c.user_id, to_jsonb(c) as category
  from jsonb_array_elements_text(${JSON.stringify(codes)}::jsonb) with ordinality as x(name, ord)
  left join service_codes sc on sc.name = x.name
  left join categories c on c.id = sc.category_id
)`;

export function callOutcomeSql(r: SQL, createdAt: SQL, shares: { processed: number; failed: number }, paymentTimeoutMinutes?: number) {
  const stillPending = paymentTimeoutMinutes === undefined ? sql`false` : sql`${createdAt} > now() - make_interval(mins => ${paymentTimeoutMinutes}::int)`;
  return sql`case when ${r} < ${shares.processed} then 'processed' when ${r} < ${shares.processed + shares.failed} then 'failed'
    when ${stillPending} then 'pending' else 'timedOut' end`;
}

/** A failed seeded call's reason, as settlement writes it. */
export const failureStatusSql = (outcome: SQL) =>
  sql`case ${outcome} when 'failed' then ${MESSAGE_STATUS.paymentFailed} when 'timedOut' then ${MESSAGE_STATUS.paymentTimedOut} end`;

/** When a seeded call was settled: seconds after it for an answer, the timeout and a sweep after it for a timed-out one. */
export const settledAtSql = (outcome: SQL, createdAt: SQL, r: SQL, paymentTimeoutMinutes = 0) =>
  sql`case ${outcome} when 'pending' then null
    when 'timedOut' then least(${createdAt} + make_interval(mins => ${paymentTimeoutMinutes}::int, secs => ${r} * 60), now())
    else ${createdAt} + make_interval(secs => 2 + ${r} * 18) end`;

export interface SeedTransactionsOptions {
  count: number;
  /** Spread over this many days back from today (default 30). */
  days?: number;
  /** Codes to spread over, busiest first; default every registered service code. */
  serviceCodes?: string[];
  timeZone?: string;
  /** Distinct callers (default 5,000). */
  phonePool?: number;
  /** PAYMENT_TIMEOUT_MINUTES: unanswered calls younger than this are left pending; without it none are. */
  paymentTimeoutMinutes?: number;
}

/**
 * Adds `count` synthetic ticket transactions with set-based SQL: ~78% processed, ~12% failed
 * (some resolved), ~10% unanswered (`callOutcomeSql`: pending within the payment timeout, timed
 * out before it); amount is the category's price for the level and processed ones carry the active
 * ticket. Big counts go in chunks of 100,000 to bound memory.
 */
export async function seedTransactions(db: DbOrTx, options: SeedTransactionsOptions): Promise<number> {
  const days = Math.max(1, options.days ?? 30);
  const timeZone = options.timeZone ?? serviceTimeZone();
  const pool = Math.max(1, options.phonePool ?? 5_000);
  const codes = options.serviceCodes ?? (await db.select({ name: serviceCodes.name }).from(serviceCodes).orderBy(serviceCodes.createdAt)).map((r) => r.name);
  if (codes.length === 0 || options.count <= 0) return 0;
  const levels = JSON.stringify(weighted(CATEGORY_LEVELS.map((level) => [level, LEVEL_WEIGHTS[level]])));
  for (let done = 0; done < options.count; done += 100_000) {
    const chunk = Math.min(100_000, options.count - done);
    await db.execute(sql`
      with ${callTimeSql(chunk, days, timeZone)},
      ${seedCodesSql(codes)},
      picked as (
        select calls.*, codes.name as service_code, codes.category_id, codes.user_id, codes.category,
          (${levels}::jsonb ->> floor(r_level * jsonb_array_length(${levels}::jsonb))::int) as level,
          floor(power(r_phone, 1.35) * ${pool})::int as k,
          ${callOutcomeSql(sql`r_status`, sql`created_at`, { processed: 0.78, failed: 0.12 }, options.paymentTimeoutMinutes)} as outcome
        from calls
        join codes on codes.idx = floor(power(r_pick, 1.6) * ${codes.length})::int
      ),
      -- Some failed calls older than a day were resolved by support.
      ended as (
        select p.*, p.outcome in ('failed', 'timedOut') and p.r_extra < 0.45 and p.created_at < now() - interval '1 day' as resolved from picked p
      )
      insert into transactions (service_code, phone_number, network, category_id, category_level, amount, session_id, payment_ref,
        is_complete, is_deleted, is_resolved, resolved_by, resolved_at, callback_time, message_statuses, ticket_message, created_at)
      select p.service_code, ${phoneSql(sql`p.k`)}, ${networkSql(sql`p.k`)}, p.category_id, p.level,
        coalesce((p.category ->> ('price_' || lower(p.level)))::int, 1000),
        ${sessionPrefix()} || lpad(p.g::text, 7, '0'),
        'MP' || ${batchId()} || lpad(p.g::text, 7, '0'),
        p.outcome = 'processed',
        p.outcome in ('failed', 'timedOut'),
        p.resolved,
        case when p.resolved then p.user_id end,
        case when p.resolved then p.created_at + p.r_extra * interval '12 hours' end,
        ${settledAtSql(sql`p.outcome`, sql`p.created_at`, sql`p.r_extra`, options.paymentTimeoutMinutes)},
        case when p.outcome = 'processed' then (case when p.r_extra < 0.04 then 'Sent' else 'Delivered' end) else ${failureStatusSql(sql`p.outcome`)} end,
        case when p.outcome = 'processed' then coalesce(t.message, 'Your ' || p.level || ' ticket is ready. Bet responsibly.') end,
        p.created_at
      from ended p
      left join contents t on t.category_id = p.category_id and t.category_level = p.level and t.active
    `);
  }
  return options.count;
}

/** `count` SMS sent by the given agents over the last days, a few failed, newest last. */
export function demoSmsHistory(agentIds: string[], count = 40): (typeof smsMessages.$inferInsert)[] {
  return Array.from({ length: count }, (_, i) => {
    const level = CATEGORY_LEVELS[i % 17];
    const status = i % 9 === 4 ? 'failed' : i % 3 === 0 ? 'sent' : 'delivered';
    const demo = DEMO_CATEGORIES[i % DEMO_CATEGORIES.length];
    return {
      userId: agentIds[i % agentIds.length],
      phoneNumber: demoPhoneNumber(i * 37),
      message: ticketMessage(demo.name, level, demo.picks, i),
      categoryLevel: level,
      status,
      provider: 'local',
      providerRef: `local-${i + 1}`,
      failureReason: status === 'failed' ? 'Subscriber absent' : null,
      createdAt: new Date(Date.now() - (count - i) * 8 * 60 * 60 * 1000),
    };
  });
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * The demo's refunds (DEMO_REFUNDS): one per processed call, picked among those of 2 to 20 days ago,
 * each written in its final state with the timeline its steps leave (requested, decided, submitted,
 * settled, and the customer's SMS of a completed one), as the refund flow would have. They go in
 * through the database's refund rules (a processed call, one open refund per call, within its amount).
 */
export async function seedRefunds(db: DbOrTx, { requesterId, deciderId }: { requesterId: string; deciderId: string }): Promise<number> {
  const stride = 7;
  const { rows } = (await db.execute(sql`
    select id, amount, phone_number as "phoneNumber", category_level as "categoryLevel" from transactions
    where is_complete and not is_deleted and campaign_key is null and amount > 0
      and created_at between now() - interval '20 days' and now() - interval '2 days'
    order by created_at desc limit ${DEMO_REFUNDS.length * stride}`)) as unknown as { rows: { id: string; amount: number; phoneNumber: string; categoryLevel: string | null }[] };
  const calls = rows.filter((_, i) => i % stride === 0);
  const now = Date.now();
  const planned = DEMO_REFUNDS.slice(0, calls.length).map((demo, i) => {
    const call = calls[i];
    const at = (hours: number) => new Date(now - hours * HOUR_MS);
    const requestedAt = at(demo.hoursAgo);
    const decided = demo.state !== 'requested';
    const decidedAt = at(demo.hoursAgo * 0.8);
    const sent = ['submitted', 'completed', 'failed'].includes(demo.state);
    const settled = demo.state === 'completed' || demo.state === 'failed';
    const settledAt = at(demo.hoursAgo * 0.6);
    return {
      demo,
      call,
      times: { requestedAt, decidedAt, settledAt },
      values: {
        transactionId: call.id,
        amount: Math.max(500, Math.round((call.amount * demo.share) / 500) * 500),
        reason: demo.reason,
        note: demo.note ?? null,
        state: demo.state,
        requestedBy: requesterId,
        decidedBy: decided ? deciderId : null,
        decisionReason: demo.state === 'rejected' ? 'The ticket was delivered and opened' : null,
        failureReason: demo.state === 'failed' ? 'Refused by the provider' : null,
        createdAt: requestedAt,
        decidedAt: decided ? decidedAt : null,
        submittedAt: sent ? decidedAt : null,
        settledAt: settled ? settledAt : null,
        updatedAt: settled ? settledAt : decided ? decidedAt : requestedAt,
      } satisfies typeof refunds.$inferInsert,
    };
  });
  if (planned.length === 0) return 0;
  const written = await db.insert(refunds).values(planned.map((p) => p.values)).returning({ id: refunds.id, providerRef: refunds.providerRef, amount: refunds.amount });
  const events = planned.flatMap(({ demo, call, times }, i) => {
    const refund = written[i];
    const event = (kind: TransactionEventKind, createdAt: Date, actor: string, actorUserId: string | null, detail: TransactionEventDetail) => ({
      ...refundEvent({ id: refund.id, transactionId: call.id }, kind, actor, actorUserId, detail),
      createdAt,
    });
    const steps = [event('refund_requested', times.requestedAt, 'user', requesterId, { amount: refund.amount, reason: demo.reason, note: demo.note ?? null })];
    if (demo.state === 'rejected') steps.push(event('refund_rejected', times.decidedAt, 'user', deciderId, { reason: 'The ticket was delivered and opened' }));
    else if (demo.state !== 'requested') steps.push(event('refund_approved', times.decidedAt, 'user', deciderId, { reason: null }));
    if (['submitted', 'completed', 'failed'].includes(demo.state)) {
      steps.push(event('refund_submitted', new Date(times.decidedAt.getTime() + 1000), 'system', null, { provider: 'local', providerRef: refund.providerRef, outcome: 'accepted' }));
    }
    if (demo.state === 'completed') {
      const message = refundSmsText(DEFAULT_REFUND_SMS_TEXT, { amount: refund.amount, categoryLevel: call.categoryLevel });
      steps.push(event('refund_completed', times.settledAt, 'provider:local', null, { via: 'callback', amount: refund.amount, reason: null }));
      steps.push(event('refund_sms_sent', new Date(times.settledAt.getTime() + 2000), 'system', null, { status: 'Sent', provider: 'local', providerRef: `local-refund-${i + 1}`, failureReason: null, message }));
    }
    if (demo.state === 'failed') steps.push(event('refund_failed', times.settledAt, 'provider:local', null, { via: 'callback', amount: refund.amount, reason: 'Refused by the provider' }));
    return steps;
  });
  await db.insert(transactionEvents).values(events);
  return written.length;
}
