import { sql } from 'drizzle-orm';
import type { CampaignRound } from '../../../src/domain/campaign-rounds';
import type { Db, DbOrTx } from '../db/client';
import { preparedOn, preparedReadRows, preparedRows } from '../db/prepared';
import { isoTime } from './sql-fragments';
import { transactionEvents, transactions } from '../db/schema';
import { attachSessionHopsSql, paymentRequestedRowsSql, recordEventsSql, transactionEvent } from './transaction-events-repository';

/** A dialled code's catalogue as one row: its campaign, or its category with prices and active levels. */
export interface ServiceRow {
  campaign: { key: string; name: string; status: 'live' | 'closed'; rounds: CampaignRound[]; teams: string[]; cap: number | null; votePrice: number | null } | null;
  /** The code's category: its row as JSON (prices under `price_<level>`) and the levels with an active content. */
  category: { id: string; name: string; prices: Record<string, number | null>; active: string[] } | null;
}

/** The pending call a confirmed menu creates, with its payment reference (stored before the provider is asked). */
export interface NewCall {
  sessionId: string;
  serviceCode: string;
  phoneNumber: string;
  network: string;
  categoryId: string | null;
  categoryLevel: string | null;
  amount: number;
  paymentRef: string;
  campaignKey?: string | null;
  round?: string | null;
  teamName?: string | null;
  teamName2?: string | null;
}

/** The call a confirmed menu made: what is needed to request its payment. */
export interface PlacedCall {
  id: string;
  paymentRef: string | null;
  phoneNumber: string;
}

/**
 * `created`: a new call; `existing`: the session's call made by an earlier hop (the network
 * repeating it); `capped`: a vote past the number's cap for the round; `limited`: past the
 * number's confirmations a minute; `closed`: a vote in a round or campaign that no longer takes
 * votes. Nothing is created but `created`.
 */
export type CreatedCall = { outcome: 'created' | 'existing'; call: PlacedCall } | { outcome: 'capped' } | { outcome: 'limited' } | { outcome: 'closed' };

export interface VoteCap {
  cap: number;
  campaignKey: string;
  round: string;
  phoneNumber: string;
}

const p = (name: string) => sql.placeholder(name);


/**
 * A new call, its session's earlier hops attached to it and its 'payment_requested' event, in one
 * statement (one commit): these were four round trips, a third of a confirming hop's time
 * (bench:ingest). No row when the session already has its call.
 */
const createCallStatement = sql`with open_round as (
    -- A vote is made only while its campaign is live and its round takes votes, for a pick the
    -- round still offers, read as of this statement: the menu the voter walked through may be
    -- older than a close or an edit made before the campaign's first vote.
    select ${p('campaignKey')}::text is null or exists (
      select 1 from campaigns c cross join lateral jsonb_array_elements(c.rounds) r
      where c.key = ${p('campaignKey')}::text and c.status = 'live' and r ->> 'key' = ${p('round')}::text
        and r ->> 'closedAt' is null
        and coalesce((r ->> 'opensAt')::timestamptz <= now(), true)
        and coalesce((r ->> 'closesAt')::timestamptz > now(), true)
        and case when r ->> 'kind' = 'games'
          then r -> 'games' @> jsonb_build_array(jsonb_build_array(${p('teamName')}::text, ${p('teamName2')}::text))
            or r -> 'games' @> jsonb_build_array(jsonb_build_array(${p('teamName2')}::text, ${p('teamName')}::text))
          else c.teams @> jsonb_build_array(${p('teamName')}::text) end) as ok
  ), gate as (
    insert into ussd_confirmations as g (phone_number, recent) select ${p('phoneNumber')}, array[now()] where (select ok from open_round)
    on conflict (phone_number) do update set recent = (
      select case when cardinality(a) < ${p('confirmsPerMinute')}::int then a || now() else a end
      from (select array(select t from unnest(g.recent) t where t > now() - interval '1 minute' order by t) as a) kept)
    where not exists (select 1 from transactions where session_id = ${p('sessionId')})
    returning now() = any(recent) as admitted
  ), created as (
    insert into transactions (service_code, phone_number, network, category_id, category_level, amount, session_id, payment_ref, campaign_key, round, team_name, team_name2)
    select ${p('serviceCode')}, ${p('phoneNumber')}, ${p('network')}, ${p('categoryId')}::uuid, ${p('categoryLevel')}, ${p('amount')}::int, ${p('sessionId')},
      ${p('paymentRef')}, ${p('campaignKey')}::text, ${p('round')}::text, ${p('teamName')}, ${p('teamName2')}
    where (select admitted from gate)
    on conflict (session_id) do nothing
    returning id, payment_ref, phone_number
  ), attached as (
    ${attachSessionHopsSql(sql`${p('sessionId')}`, sql`(select id from created)`, sql`exists (select 1 from created)`)}
  ), requested as (
    ${recordEventsSql(paymentRequestedRowsSql(sql`${p('requestedDetail')}`, sql`created`))}
  )
  select id, payment_ref as "paymentRef", phone_number as "phoneNumber", true as admitted, true as "roundOpen" from created
  union all
  select null, null, null, coalesce((select admitted from gate), true), (select ok from open_round) where not exists (select 1 from created)`;

/** Processed and pending votes: a failed payment gives the vote back. */
const countedVote = sql`not ${transactions.isDeleted}`;

// A capped vote's statements run inside its transaction; each is prepared, as every hop's are:
// a vote runs them once each, and rendering and planning them afresh cost more than running them.
const callOfSessionStatement = preparedOn<PlacedCall>(
  'ussd_call_of_session',
  sql`select ${transactions.id} as id, ${transactions.paymentRef} as "paymentRef", ${transactions.phoneNumber} as "phoneNumber"
    from ${transactions} where ${transactions.sessionId} = ${p('sessionId')} limit 1`,
);
/**
 * With the number's lock, the campaign's row as the vote's foreign key will hold it, before the
 * statements that read the campaign: an edit of its structure (allowed before the first vote
 * only) holds the row until it commits, so the vote then reads the campaign as the edit left
 * it. An uncapped vote is one statement, whose foreign key waits for the edit the same way but
 * whose check read the campaign before: a pick the edit took away in that instant is let through.
 */
const lockVoterStatement = preparedOn(
  'ussd_lock_voter',
  sql`select pg_advisory_xact_lock(hashtext(${p('lockKey')}::text)) from campaigns where key = ${p('campaignKey')}::text for key share`,
);
const roundVotesStatement = preparedOn<{ votes: number }>(
  'ussd_round_votes',
  sql`select count(*)::int as votes from ${transactions}
    where ${transactions.campaignKey} = ${p('campaignKey')}::text and ${transactions.phoneNumber} = ${p('phoneNumber')}::text
      and ${transactions.round} = ${p('round')}::text and ${countedVote}`,
);
const insertCallStatement = preparedOn<{ id: string | null; paymentRef: string | null; phoneNumber: string | null; admitted: boolean; roundOpen: boolean }>(
  'ussd_create_call',
  createCallStatement,
);

/** What a USSD hop reads and writes (DESIGN §6): a code's catalogue, a number's votes, and the call a confirmed menu creates. */
export function ussdRepository(db: Db) {
  // Every hop asks this: one statement, prepared once per connection.
  const serviceOf = preparedRows<ServiceRow>(
    db,
    'ussd_service',
    sql`select
      (select json_build_object('key', c.key, 'name', c.name, 'status', c.status, 'rounds', c.rounds, 'teams', c.teams,
          'cap', c.votes_per_round_cap, 'votePrice', c.vote_price)
         from campaigns c where c.service_code = ${p('code')} and c.status <> 'draft'
         -- The code's live campaign; else its latest closed one, which ends sessions politely.
         order by c.status = 'live' desc, c.closed_at desc nulls last limit 1) as campaign,
      (select json_build_object('id', k.id, 'name', k.name, 'prices', to_jsonb(k),
          'active', coalesce((select json_agg(distinct n.category_level) from contents n where n.category_id = k.id and n.active), '[]'))
         from service_codes s join categories k on k.id = s.category_id where s.name = ${p('code')} limit 1) as category`,
  );
  // Each hop after the first of a session in a campaign of several rounds asks this (three a vote).
  const sessionStart = preparedReadRows<{ at: string | null }>(
    db,
    'ussd_session_start',
    sql`select ${isoTime(sql`min(${transactionEvents.createdAt})`)} as at from ${transactionEvents} where ${transactionEvents.sessionId} = ${p('session')}`,
  );
  // Each hop of a capped campaign asks this (four a vote).
  const votesOfNumber = preparedReadRows<{ round: string | null; votes: number }>(
    db,
    'ussd_votes_by_round',
    sql`select ${transactions.round} as round, count(*)::int as votes from ${transactions}
      where ${transactions.campaignKey} = ${p('campaignKey')}::text and ${transactions.phoneNumber} = ${p('phoneNumber')}::text and ${countedVote}
        -- This session's own vote is the one being answered again, not an earlier one.
        and ${transactions.sessionId} is distinct from ${p('sessionId')}::text
      group by ${transactions.round}`,
  );
  const callOfSession = async (tx: DbOrTx, sessionId: string): Promise<PlacedCall | undefined> => (await callOfSessionStatement(tx, { sessionId }))[0];

  return {
    /** The catalogue row of a dialled code; both halves null for an unknown code. */
    async serviceRow(code: string): Promise<ServiceRow | undefined> {
      return (await serviceOf({ code }))[0];
    },

    /** When the session's first hop was answered (its earliest recorded hop); undefined before any. */
    async sessionStartedAt(sessionId: string): Promise<Date | undefined> {
      const [row] = await sessionStart({ session: sessionId });
      return row?.at ? new Date(row.at) : undefined;
    },

    /** A number's processed and pending votes per round in a campaign, other sessions than this one only. */
    async votesByRound(campaignKey: string, phoneNumber: string, sessionId: string): Promise<Record<string, number>> {
      const rows = await votesOfNumber({ campaignKey, phoneNumber, sessionId });
      const votes: Record<string, number> = {};
      for (const row of rows) if (row.round) votes[row.round] = Number(row.votes);
      return votes;
    },

    /**
     * Creates the session's pending call once, attaches the session's earlier hops to it and records
     * its 'payment_requested' in the same statement. A repeated hop finds the call it already made
     * (`existing`) and records nothing. At most `confirmsPerMinute` calls a minute per phone number
     * (`limited` past it), counted under the number's row lock so concurrent sessions on any instance
     * count exactly. A vote past the number's cap for the round creates nothing (`capped`); counting
     * and inserting hold a lock on the number, so two sessions at once cannot both pass.
     */
    async createCall(call: NewCall, requested: { amount: number; provider: string }, limits: { confirmsPerMinute: number; voteCap?: VoteCap }): Promise<CreatedCall> {
      const row = {
        campaignKey: null,
        round: null,
        teamName: null,
        teamName2: null,
        ...call,
        confirmsPerMinute: limits.confirmsPerMinute,
        requestedDetail: JSON.stringify(transactionEvent.paymentRequested(requested)),
      };
      const insert = async (tx: DbOrTx): Promise<CreatedCall> => {
        const [inserted] = await insertCallStatement(tx, row);
        if (inserted.id) return { outcome: 'created', call: { id: inserted.id, paymentRef: inserted.paymentRef, phoneNumber: inserted.phoneNumber! } };
        if (!inserted.roundOpen) {
          // The network repeating a confirming hop after a close still gets the call it made.
          const earlier = await callOfSession(tx, call.sessionId);
          return earlier ? { outcome: 'existing', call: earlier } : { outcome: 'closed' };
        }
        // Read in a statement of its own: a concurrent repeat of this hop may have committed the call
        // after the insert's snapshot was taken.
        if (!inserted.admitted) return { outcome: 'limited' };
        return { outcome: 'existing', call: (await callOfSession(tx, call.sessionId))! };
      };
      const { voteCap } = limits;
      if (!voteCap) return insert(db);
      return db.transaction(async (tx) => {
        const earlier = await callOfSession(tx, call.sessionId);
        if (earlier) return { outcome: 'existing', call: earlier };
        await lockVoterStatement(tx, { lockKey: `vote:${voteCap.campaignKey}:${voteCap.phoneNumber}`, campaignKey: voteCap.campaignKey });
        const [{ votes }] = await roundVotesStatement(tx, { ...voteCap });
        if (Number(votes) >= voteCap.cap) return { outcome: 'capped' };
        return insert(tx);
      });
    },
  };
}

export type UssdRepository = ReturnType<typeof ussdRepository>;
