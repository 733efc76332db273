/**
 * A year of calls on PostgreSQL, fast enough to make 10,000,000 of them in minutes:
 *
 *   npm run bench:seed-year -- --db year_10m [--calls 10000000] [--months 12] [--codes 25]
 *
 * The database (on BENCH_DATABASE_URL's server, default the local PostgreSQL) is dropped, created
 * and migrated by openDatabase. Users, categories, contents and service codes come from the demo
 * seed (a few hundred rows); the calls and their timelines are made by set-based statements, one
 * chunk of CHUNK calls at a time, so memory stays flat and progress shows. The load runs with the
 * triggers and foreign key checks off (session_replication_role = replica) and without the
 * secondary indexes; afterwards the daily stats are counted in one statement, exactly as the
 * triggers count them, and the indexes are built. There are no campaign calls, so the campaign
 * vote counts (the other trigger-kept table) stay empty as the triggers would leave them.
 * Prints the seconds taken and the database size per million calls.
 */
import { sql, type SQL } from 'drizzle-orm';
import { Client } from 'pg';
import { CATEGORY_LEVELS } from '../src/domain/category-levels';
import { MESSAGE_STATUS } from '../src/domain/transaction-events';
import { ensureFirstAdmin } from '../server/src/auth/first-admin';
import { openDatabase, type Database } from '../server/src/db/client';
import { seedDemoData } from '../server/src/db/seed';
import { LEVEL_WEIGHTS } from '../server/src/db/seed-data';
import { batchId, callOutcomeSql, callTimeSql, failureStatusSql, networkSql, phoneSql, seedCodesSql, sessionPrefix, settledAtSql } from '../server/src/db/seed-generators';
import { serviceCodes } from '../server/src/db/schema';

const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ADMIN = { userName: 'bench-admin', password: 'bench-password-1' };
/** Calls a statement: big enough that a statement's overhead vanishes, small enough for flat memory. */
const CHUNK = 250_000;
/** The demo's PAYMENT_TIMEOUT_MINUTES: unanswered calls younger than this stay pending, as the sweeper leaves them. */
const PAYMENT_TIMEOUT_MINUTES = 15;
/** A few numbers call all day (shops, agents): this share of the calls goes to BUSY_NUMBERS of them. */
const BUSY_SHARE = 0.005;
const BUSY_NUMBERS = 20;

const log = (...parts: unknown[]) => console.log(`[seed-year ${new Date().toISOString().slice(11, 19)}]`, ...parts);

function options(argv: string[]) {
  const value = (name: string) => {
    const at = argv.indexOf(`--${name}`);
    return at >= 0 ? argv[at + 1] : undefined;
  };
  const count = (name: string, fallback: number, max: number) => {
    const raw = value(name);
    const n = raw === undefined ? fallback : Number(raw.replace(/_/g, ''));
    if (!Number.isInteger(n) || n < 1 || n > max) throw new Error(`--${name} takes a whole number from 1 to ${max}`);
    return n;
  };
  const db = value('db');
  if (!db || !/^[a-z_][a-z0-9_]{0,62}$/.test(db)) throw new Error('--db NAME is required: lower-case letters, digits and _');
  if (db === 'postgres' || db.startsWith('template')) throw new Error('--db must name a scratch database: it is dropped first');
  return { db, calls: count('calls', 10_000_000, 100_000_000), months: count('months', 12, 120), codes: count('codes', 25, 25) };
}

/** Index lists whose uniform draw follows the weights, for picking in SQL with one random(). */
const weighted = <T>(entries: [T, number][]) => entries.flatMap(([value, weight]) => Array.from({ length: weight }, () => value));

async function freshDatabase(name: string): Promise<{ database: Database; url: string }> {
  const admin = new Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return { database: await openDatabase({ databaseUrl: url.toString() }), url: url.toString() };
}

const rowsOf = async <T>(database: Database, query: SQL): Promise<T[]> => ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;

/**
 * One chunk of calls and, in the same statement, their timelines: the USSD hops that made the
 * call, its payment request, the provider's answer or the sweeper's poll, the settlement, the
 * ticket SMS and its delivery report, and support's resolve of some failed ones; about eight
 * events a call, written as the app writes them (kinds, actors, details and duplicate keys).
 */
function chunkSql(calls: number, days: number, timeZone: string, codes: string[], phonePool: number): SQL {
  const levels = JSON.stringify(weighted(CATEGORY_LEVELS.map((level) => [level, LEVEL_WEIGHTS[level]])));
  const outcome = callOutcomeSql(sql`r_status`, sql`created_at`, { processed: 0.78, failed: 0.12 }, PAYMENT_TIMEOUT_MINUTES);
  const busy = sql`floor(r_phone / ${BUSY_SHARE}::float8 * ${BUSY_NUMBERS})::int`;
  const tail = sql`${BUSY_NUMBERS} + floor(power((r_phone - ${BUSY_SHARE}::float8) / (1 - ${BUSY_SHARE}::float8), 1.35) * ${phonePool})::int`;
  return sql`
    with ${callTimeSql(calls, days, timeZone)},
    ${seedCodesSql(codes)},
    picked as (
      select calls.*, codes.idx + 1 as code_no, codes.name as service_code, codes.category_id, codes.user_id, codes.category,
        (${levels}::jsonb ->> floor(r_level * jsonb_array_length(${levels}::jsonb))::int) as level,
        case when r_phone < ${BUSY_SHARE}::float8 then ${busy} else ${tail} end as k,
        ${outcome} as outcome
      from calls
      join codes on codes.idx = floor(power(r_pick, 1.6) * ${codes.length})::int
    ),
    ended as (
      select p.*, p.outcome in ('failed', 'timedOut') and p.r_extra < 0.45 and p.created_at < now() - interval '1 day' as resolved,
        ${sessionPrefix()} || lpad(p.g::text, 8, '0') as session_id,
        'MP' || ${batchId()} || lpad(p.g::text, 8, '0') as payment_ref
      from picked p
    ),
    inserted as (
      insert into transactions (service_code, phone_number, network, category_id, category_level, amount, session_id, payment_ref,
        is_complete, is_deleted, is_resolved, resolved_by, resolved_at, resolved_reason, callback_time, message_statuses, ticket_message, created_at)
      select p.service_code, ${phoneSql(sql`p.k`)}, ${networkSql(sql`p.k`)}, p.category_id, p.level,
        coalesce((p.category ->> ('price_' || lower(p.level)))::int, 1000),
        p.session_id, p.payment_ref,
        p.outcome = 'processed',
        p.outcome in ('failed', 'timedOut'),
        p.resolved,
        case when p.resolved then p.user_id end,
        case when p.resolved then p.created_at + p.r_extra * interval '12 hours' end,
        case when p.resolved then 'reached-helped' end,
        ${settledAtSql(sql`p.outcome`, sql`p.created_at`, sql`p.r_extra`, PAYMENT_TIMEOUT_MINUTES)},
        case when p.outcome = 'processed' then (case when p.r_extra < 0.04 then ${MESSAGE_STATUS.sent} else ${MESSAGE_STATUS.delivered} end)
          else ${failureStatusSql(sql`p.outcome`)} end,
        case when p.outcome = 'processed' then coalesce(t.message, 'Your ' || p.level || ' ticket is ready. Bet responsibly.') end,
        p.created_at
      from ended p
      left join contents t on t.category_id = p.category_id and t.category_level = p.level and t.active
      returning id, session_id, payment_ref, amount, created_at, callback_time, message_statuses, resolved_by, resolved_at, resolved_reason, is_complete
    ),
    -- The call's outcome again, from what was inserted (pending has no callback time; timed out says so).
    calls_made as (
      select i.*, p.code_no, p.level, p.r_extra,
        case when i.is_complete then 'processed' when i.callback_time is null then 'pending'
          when i.message_statuses = ${MESSAGE_STATUS.paymentTimedOut} then 'timedOut' else 'failed' end as outcome
      from inserted i join ended p on p.payment_ref = i.payment_ref
    ),
    events (transaction_id, session_id, kind, actor, actor_user_id, detail, dedupe_key, created_at) as (
      -- The menu's four hops, the last of which made the call.
      select c.id, c.session_id, 'ussd_hop', 'customer', null::uuid, jsonb_build_object('input', h.input, 'reply', h.reply),
        'hop:' || c.session_id || ':' || h.text, c.created_at - make_interval(secs => h.before)
      from calls_made c
      cross join lateral (values
        ('', '', 'CON Welcome. 1. Buy a ticket 2. My tickets', 24),
        ('1', '1', 'CON Choose a level', 16),
        ('1*2', '2', 'CON Confirm ' || c.level || ' for ' || c.amount || ' UGX: 1. Yes', 8),
        ('1*2*1', '1', 'END Approve the payment of ' || c.amount || ' UGX on your phone. Your ' || c.level || ' ticket will come by SMS.', 0)
      ) as h(text, input, reply, before)
      union all
      select c.id, null, 'payment_requested', 'system', null, jsonb_build_object('amount', c.amount, 'provider', 'local'),
        'payment_requested:' || c.id, c.created_at
      from calls_made c
      union all
      -- The provider's callback of an answered payment; a timed-out one is polled by the sweeper instead.
      select c.id, null, 'payment_callback', 'provider:local', null,
        jsonb_build_object('status', case c.outcome when 'processed' then 'SUCCESSFUL' else 'FAILED' end),
        'callback:' || c.payment_ref || ':' || case c.outcome when 'processed' then 'SUCCESSFUL' else 'FAILED' end || ':' || md5(c.payment_ref), c.callback_time
      from calls_made c where c.outcome in ('processed', 'failed')
      union all
      select c.id, null, 'payment_polled', 'provider:local', null, jsonb_build_object('status', 'PENDING', 'provider', 'local'), null, c.callback_time
      from calls_made c where c.outcome = 'timedOut'
      union all
      select c.id, null, 'payment_settled', case c.outcome when 'timedOut' then 'sweeper' else 'provider:local' end, null,
        case c.outcome
          when 'processed' then jsonb_build_object('status', 'SUCCESSFUL', 'via', 'callback', 'reason', null)
          when 'failed' then jsonb_build_object('status', 'FAILED', 'via', 'callback', 'reason', ${MESSAGE_STATUS.paymentFailed}::text, 'failureReason', 'Insufficient balance')
          else jsonb_build_object('status', 'FAILED', 'via', 'timeout', 'reason', ${MESSAGE_STATUS.paymentTimedOut}::text) end,
        'settled:' || c.payment_ref, c.callback_time
      from calls_made c where c.outcome <> 'pending'
      union all
      select c.id, null, 'sms_sent', 'system', null,
        jsonb_build_object('status', 'sent', 'provider', 'local', 'providerRef', 'local-' || c.payment_ref, 'failureReason', null),
        null, c.callback_time + interval '1 second'
      from calls_made c where c.outcome = 'processed'
      union all
      select c.id, null, 'sms_delivery', 'provider:local', null, jsonb_build_object('status', 'Delivered', 'failureReason', null),
        'delivery:local-' || c.payment_ref || ':delivered', c.callback_time + make_interval(secs => 3 + c.r_extra * 40)
      from calls_made c where c.outcome = 'processed' and c.message_statuses = ${MESSAGE_STATUS.delivered}
      union all
      select c.id, null, 'resolved', 'user', c.resolved_by, jsonb_build_object('reason', c.resolved_reason, 'note', null),
        'resolved:' || c.id, c.resolved_at
      from calls_made c where c.resolved_by is not null
    )
    insert into transaction_events (transaction_id, session_id, kind, actor, actor_user_id, detail, dedupe_key, created_at)
    select * from events`;
}

/**
 * The secondary indexes of the two big tables, dropped so the load appends rows only; built again
 * afterwards from their own definitions (pg_indexes), which is several times cheaper than keeping
 * them up to date a row at a time. Primary keys and constraints stay.
 */
async function dropSecondaryIndexes(database: Database): Promise<{ name: string; definition: string }[]> {
  const indexes = await rowsOf<{ name: string; definition: string }>(
    database,
    sql`select indexname as name, indexdef as definition from pg_indexes
      where schemaname = 'public' and tablename in ('transactions', 'transaction_events')
        and indexname not in (select conname from pg_constraint) order by indexname`,
  );
  for (const index of indexes) await database.db.execute(sql.raw(`drop index public."${index.name}"`));
  return indexes;
}

async function recreateIndexes(database: Database, indexes: { name: string; definition: string }[]) {
  // In one transaction so the setting holds on the pool connection that builds them.
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`set local maintenance_work_mem = '256MB'`);
    for (const index of indexes) await tx.execute(sql.raw(index.definition));
  });
}

/**
 * What transaction_daily_stats_add (database-logic.sql) would have added for every call, in one
 * statement: the same day and hour in the service's zone, the same three dimensions and sums. It
 * writes stripe 0 where the triggers would have used their backend's stripe; readers sum the
 * stripes, so the counts they read are the same.
 */
const rebuildDailyStatsSql = sql`
  insert into transaction_daily_stats as s (service_code, day, dimension, key, is_complete, is_deleted, stripe, calls, amount)
  select t.service_code, (t.created_at at time zone z.zone)::date, d.dimension, d.key, t.is_complete, t.is_deleted, 0::smallint,
    count(*)::int, coalesce(sum(t.amount), 0)::bigint
  from transactions t
  cross join (select time_zone as zone from service_settings where id = 1) z
  cross join lateral (values
    ('hour', extract(hour from t.created_at at time zone z.zone)::int::text),
    ('level', coalesce(t.category_level, '')),
    ('network', t.network)) as d(dimension, key)
  group by 1, 2, 3, 4, 5, 6
  on conflict (service_code, day, dimension, key, is_complete, is_deleted, stripe)
  do update set calls = s.calls + excluded.calls, amount = s.amount + excluded.amount`;

async function main() {
  const { db: name, calls, months, codes: codeCount } = options(process.argv.slice(2));
  const started = Date.now();
  log(`seeding ${calls.toLocaleString('en-US')} calls over ${months} months and ${codeCount} codes into ${name}`);
  const { database } = await freshDatabase(name);
  try {
    await ensureFirstAdmin(database.db, ADMIN.userName, ADMIN.password);
    // The demo's users, categories, prices, contents and codes; its calls and votes are made below instead.
    await seedDemoData(database.db, { timeZone: 'Africa/Kampala', transactions: 0, votesPerCampaign: 0, paymentTimeoutMinutes: PAYMENT_TIMEOUT_MINUTES });
    const [{ time_zone: timeZone }] = await rowsOf<{ time_zone: string }>(database, sql`select time_zone from service_settings where id = 1`);
    const codes = (await database.db.select({ name: serviceCodes.name }).from(serviceCodes).orderBy(serviceCodes.createdAt)).map((r) => r.name).slice(0, codeCount);
    const days = Math.round((months * 365) / 12);
    const phonePool = Math.max(5_000, Math.floor(calls / 8));
    const indexes = await dropSecondaryIndexes(database);
    log(`building ${indexes.length} indexes of transactions and transaction_events after the load, not row by row during it`);
    for (let done = 0; done < calls; ) {
      const chunk = Math.min(CHUNK, calls - done);
      // Replica mode skips the row-by-row foreign key checks (the ids come from the same statement)
      // and the statement triggers: the daily stats are counted once at the end instead.
      await database.db.transaction(async (tx) => {
        await tx.execute(sql`set local session_replication_role = replica`);
        await tx.execute(chunkSql(chunk, days, timeZone, codes, phonePool));
      });
      done += chunk;
      const seconds = (Date.now() - started) / 1000;
      log(`${done.toLocaleString('en-US')} calls (${((done / calls) * 100).toFixed(0)}%), ${seconds.toFixed(0)} s, ${Math.round(done / seconds).toLocaleString('en-US')} calls/s`);
    }
    const statsStarted = Date.now();
    await database.db.execute(rebuildDailyStatsSql);
    log(`daily stats counted in ${((Date.now() - statsStarted) / 1000).toFixed(0)} s`);
    const indexStarted = Date.now();
    await recreateIndexes(database, indexes);
    log(`indexes built in ${((Date.now() - indexStarted) / 1000).toFixed(0)} s`);
    log('vacuum analyze');
    await database.db.execute(sql`vacuum analyze transactions`);
    await database.db.execute(sql`vacuum analyze transaction_events`);
    await database.db.execute(sql`vacuum analyze transaction_daily_stats`);
    const seconds = (Date.now() - started) / 1000;
    const [size] = await rowsOf<{ bytes: string; events: string; transactions: string }>(
      database,
      sql`select pg_database_size(current_database())::text as bytes,
        (select count(*) from transaction_events)::text as events, (select count(*) from transactions)::text as transactions`,
    );
    const mb = Number(size.bytes) / 1024 / 1024;
    log(
      `done: ${Number(size.transactions).toLocaleString('en-US')} calls, ${Number(size.events).toLocaleString('en-US')} events ` +
        `(${(Number(size.events) / Number(size.transactions)).toFixed(2)} a call) in ${seconds.toFixed(0)} s; ` +
        `database ${(mb / 1024).toFixed(2)} GB, ${(mb / (calls / 1_000_000)).toFixed(0)} MB per million calls`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
