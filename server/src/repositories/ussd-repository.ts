import { and, eq, sql } from 'drizzle-orm';
import { CATEGORY_LEVELS, type CategoryLevel } from '../../../src/domain/category-levels';
import { DEFAULT_VOTE_PRICE } from '../../../src/domain/campaign-rounds';
import type { Db, DbOrTx } from '../db/client';
import { transactions } from '../db/schema';
import { preparedRows } from '../db/prepared';
import type { UssdService } from '../ussd-menu';

/** A dialled code's menu data, with what the route needs to record the call. */
export interface LoadedService {
  service: UssdService;
  serviceCode: string;
  categoryId: string | null;
  /** The category level a vote is priced at, when the campaign's code has a priced category. */
  voteLevel: CategoryLevel | null;
  campaignKey: string | null;
}

export type NewCall = typeof transactions.$inferInsert & { sessionId: string };

/** The call a confirmed menu made: what the route needs to request its payment. */
export interface PlacedCall {
  id: string;
  paymentRef: string | null;
}

export type CreatedCall = { capped: true } | { capped: false; created: boolean; call: PlacedCall };

/** What `createCall` records on the new call's timeline in the same statement: the payment it requests. */
export interface PaymentRequested {
  detail: { amount: number; provider: string };
}

export interface VoteCap {
  cap: number;
  campaignKey: string;
  round: string;
  phoneNumber: string;
}

interface ServiceRow {
  campaign: { key: string; name: string; rounds: string[]; teams: string[]; cap: number | null } | null;
  /** The code's category: its row as JSON (prices under `price_<level>`) and the levels with an active content. */
  category: { id: string; name: string; prices: Record<string, number | null>; active: string[] } | null;
}

/**
 * A new call, its session's earlier hops attached to it and its 'payment_requested' event, in one
 * statement (one commit): these were four round trips, a third of a confirming hop's time
 * (bench:ingest). No row when the session already has its call.
 */
const createCallStatement = sql`with created as (
    insert into transactions (service_code, phone_number, network, category_id, category_level, amount, session_id, payment_ref, campaign_key, round, team_name, team_name2)
    values (${sql.placeholder('serviceCode')}, ${sql.placeholder('phoneNumber')}, ${sql.placeholder('network')}, ${sql.placeholder('categoryId')},
      ${sql.placeholder('categoryLevel')}, ${sql.placeholder('amount')}, ${sql.placeholder('sessionId')}, ${sql.placeholder('paymentRef')},
      ${sql.placeholder('campaignKey')}, ${sql.placeholder('round')}, ${sql.placeholder('teamName')}, ${sql.placeholder('teamName2')})
    on conflict (session_id) do nothing
    returning id, payment_ref
  ), attached as (
    update transaction_events set transaction_id = (select id from created)
    where session_id = ${sql.placeholder('sessionId')} and transaction_id is null and exists (select 1 from created)
  ), requested as (
    insert into transaction_events (transaction_id, kind, actor, detail, dedupe_key)
    select id, 'payment_requested', 'system', ${sql.placeholder('requestedDetail')}::jsonb, 'payment_requested:' || id from created
    on conflict (dedupe_key) do nothing
  )
  select id, payment_ref as "paymentRef" from created`;

/** Codes remembered at most; past this many (codes dialled at random) the cache starts again. */
const MENU_CACHE_CODES = 1_000;

/**
 * Each dialled code's menu data (its campaign, category, prices and active levels, or that it is
 * unknown), kept `ttlMs` (USSD_MENU_CACHE_MS; 0 keeps nothing). Every hop read it again: a third of
 * the statements of a sale (bench:ingest). Forgotten at once when the catalogue changes through this
 * API (app.ts); another instance's change shows within `ttlMs`. A number's votes are never cached.
 */
export function ussdMenuCache(ttlMs: number) {
  // The read itself is kept, so hops arriving together while it runs (a server just started, an
  // entry just expired) share one statement instead of each asking.
  const entries = new Map<string, { row: Promise<ServiceRow | undefined>; until: number }>();
  return {
    get(code: string, load: () => Promise<ServiceRow | undefined>): Promise<ServiceRow | undefined> {
      if (ttlMs <= 0) return load();
      const now = Date.now();
      const hit = entries.get(code);
      if (hit && hit.until > now) return hit.row;
      if (entries.size >= MENU_CACHE_CODES) entries.clear();
      const entry = { row: load(), until: now + ttlMs };
      entries.set(code, entry);
      // A failed read is not remembered: the next hop asks again.
      entry.row.catch(() => entries.get(code) === entry && entries.delete(code));
      return entry.row;
    },
    clear() {
      entries.clear();
    },
  };
}

export type UssdMenuCache = ReturnType<typeof ussdMenuCache>;

/** Processed and pending votes: a failed payment gives the vote back. */
const countedVote = sql`not ${transactions.isDeleted}`;

/** What the USSD callback reads and writes (DESIGN §6): a code's menu data, and the call a confirmed menu creates. */
export function ussdRepository(db: Db, menuCache: UssdMenuCache = ussdMenuCache(0)) {
  // Every hop asks this: one statement, prepared once per connection.
  const serviceOf = preparedRows<ServiceRow>(
    db,
    'ussd_service',
    sql`select
      (select json_build_object('key', c.key, 'name', c.name, 'rounds', c.rounds, 'teams', c.teams, 'cap', c.votes_per_round_cap)
         from campaigns c where c.service_code = ${sql.placeholder('code')} limit 1) as campaign,
      (select json_build_object('id', k.id, 'name', k.name, 'prices', to_jsonb(k),
          'active', coalesce((select json_agg(distinct n.category_level) from contents n where n.category_id = k.id and n.active), '[]'))
         from service_codes s join categories k on k.id = s.category_id where s.name = ${sql.placeholder('code')} limit 1) as category`,
  );
  const insertCall = preparedRows<PlacedCall>(db, 'ussd_create_call', createCallStatement);
  return {
    /**
     * The service behind a dialled code: a campaign's (its rounds, teams, vote price and this
     * number's votes per round, other sessions only) or a ticket category's levels that have a price
     * and an active content. Undefined for an unknown code.
     */
    async loadService(code: string, phoneNumber: string, sessionId: string): Promise<LoadedService | undefined> {
      const row = await menuCache.get(code, async () => (await serviceOf({ code }))[0]);
      const campaign = row?.campaign;
      const found = row?.category;
      const category = found ? { id: found.id, name: found.name, price: (level: CategoryLevel) => Number(found.prices[`price_${level.toLowerCase()}`] ?? 0) } : undefined;
      const pricedLevels = category ? CATEGORY_LEVELS.filter((level) => category.price(level) > 0) : [];

      if (campaign) {
        // A vote costs the campaign code's category's cheapest price, or the demo votes' price.
        const cheapest = category ? pricedLevels.reduce<CategoryLevel | null>((low, level) => (low && category.price(low) <= category.price(level) ? low : level), null) : null;
        const votesCast: Record<string, number> = {};
        if (campaign.cap !== null) {
          const rows = await db
            .select({ round: transactions.round, votes: sql<number>`count(*)::int` })
            .from(transactions)
            .where(
              and(
                eq(transactions.campaignKey, campaign.key),
                eq(transactions.phoneNumber, phoneNumber),
                countedVote,
                // This session's own vote is the one being answered again, not an earlier one.
                sql`${transactions.sessionId} is distinct from ${sessionId}`,
              ),
            )
            .groupBy(transactions.round);
          for (const row of rows) if (row.round) votesCast[row.round] = Number(row.votes);
        }
        return {
          service: {
            kind: 'campaign',
            name: campaign.name,
            rounds: campaign.rounds,
            teams: campaign.teams,
            price: category && cheapest ? category.price(cheapest) : DEFAULT_VOTE_PRICE,
            cap: campaign.cap,
            votesCast,
          },
          serviceCode: code,
          categoryId: cheapest ? category!.id : null,
          voteLevel: cheapest,
          campaignKey: campaign.key,
        };
      }

      if (!category) return undefined;
      const active = new Set(found!.active);
      return {
        service: {
          kind: 'catalogue',
          categoryName: category.name,
          levels: pricedLevels.filter((level) => active.has(level)).map((level) => ({ level, price: category.price(level) })),
        },
        serviceCode: code,
        categoryId: category.id,
        voteLevel: null,
        campaignKey: null,
      };
    },

    /**
     * Creates the session's pending call once, attaches the session's earlier hops to it and records
     * `requested` on its timeline. A repeated hop finds the call it already made (`created` false)
     * and records nothing. A vote past the number's cap for the round creates nothing (`capped`);
     * counting and inserting hold a lock on the number, so two sessions at once cannot both pass.
     */
    async createCall(values: NewCall, requested: PaymentRequested, voteCap?: VoteCap): Promise<CreatedCall> {
      const row = {
        serviceCode: values.serviceCode,
        phoneNumber: values.phoneNumber,
        network: values.network,
        categoryId: values.categoryId ?? null,
        categoryLevel: values.categoryLevel ?? null,
        amount: values.amount ?? null,
        sessionId: values.sessionId,
        paymentRef: values.paymentRef ?? null,
        campaignKey: values.campaignKey ?? null,
        round: values.round ?? null,
        teamName: values.teamName ?? null,
        teamName2: values.teamName2 ?? null,
        requestedDetail: JSON.stringify(requested.detail),
      };
      const insert = async (tx: DbOrTx): Promise<CreatedCall> => {
        const [created] = await (tx === db ? insertCall(row) : preparedRows<PlacedCall>(tx as Db, 'ussd_create_call', createCallStatement)(row));
        if (created) return { capped: false, created: true, call: { id: created.id, paymentRef: created.paymentRef } };
        // Read in a statement of its own: a concurrent repeat of this hop may have committed the call
        // after the insert's snapshot was taken.
        const [earlier] = await tx.select({ id: transactions.id, paymentRef: transactions.paymentRef }).from(transactions).where(eq(transactions.sessionId, values.sessionId)).limit(1);
        return { capped: false, created: false, call: earlier };
      };
      if (!voteCap) return insert(db);
      return db.transaction(async (tx) => {
        const [earlier] = await tx.select({ id: transactions.id, paymentRef: transactions.paymentRef }).from(transactions).where(eq(transactions.sessionId, values.sessionId)).limit(1);
        if (earlier) return { capped: false, created: false, call: earlier };
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`vote:${voteCap.campaignKey}:${voteCap.phoneNumber}`}))`);
        const [{ votes }] = await tx
          .select({ votes: sql<number>`count(*)::int` })
          .from(transactions)
          .where(and(eq(transactions.campaignKey, voteCap.campaignKey), eq(transactions.phoneNumber, voteCap.phoneNumber), eq(transactions.round, voteCap.round), countedVote));
        if (Number(votes) >= voteCap.cap) return { capped: true };
        return insert(tx);
      });
    },
  };
}
