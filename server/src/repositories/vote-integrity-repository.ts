import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { VoteFlag } from '../../../src/domain/vote-integrity';
import { BURST_NUMBERS, BURST_PREFIX_DIGITS, NEAR_CAP_SHARE } from '../../../src/domain/vote-integrity';
import type { Db, DbOrTx } from '../db/client';
import { preparedRows, type PlaceholderValues } from '../db/prepared';
import { isoTime, rowsOf } from './sql-fragments';

/**
 * Vote integrity: how each voter voted in a round (votes, the peak in any 60 seconds, share of the
 * cap, first and last vote) and the flags that makes (src/domain/vote-integrity.ts), computed from
 * the settled votes themselves (held and rejected ones included: they are how the number voted),
 * never from the trigger-kept counts, which hold counted votes only. Round 'all' reads every round:
 * its peak spans rounds, its share of the cap is the fullest round's, its flags any round's.
 */

/** One voter's figures and flags in a round. */
export interface VoterFlags {
  phoneNumber: string;
  votes: number;
  peakPerMinute: number;
  /** The fullest round's votes over the cap; null when the campaign has no cap. */
  shareOfCap: number | null;
  firstVoteAt: string;
  lastVoteAt: string;
  heldVotes: number;
  flags: VoteFlag[];
}

/** A campaign key or round: a value, or a placeholder of a prepared statement. */
type Value = string | Placeholder;

/** The prefix length as a literal, never a parameter: transactions_round_pick_prefix_idx is keyed by `left(phone_number, 9)`, which only the same expression finds. */
const PREFIX_DIGITS = sql.raw(String(BURST_PREFIX_DIGITS));

/** A window of 60 seconds at the database's microsecond resolution: `(t - 60 s, t]`. */
const MINUTE = sql.raw(`interval '59.999999 seconds'`);

/** A vote settled, or the one being settled (`settling`: its hold is decided before its update). */
const settled = (alias: string, settling?: Value) =>
  settling ? sql`(${sql.raw(alias)}.is_complete or ${sql.raw(alias)}.id = ${settling}::uuid)` : sql`${sql.raw(alias)}.is_complete`;

/**
 * A campaign's settled votes in a round (or every round for 'all'). `oneRound`: the round is never
 * 'all', so a prepared statement's generic plan may key on it.
 */
const roundVotes = (key: Value, round: Value, settling?: Value, oneRound = false) => {
  const inRound = oneRound ? sql`t.round = ${round}::text` : sql`t.round is not null and (${round}::text = 'all' or t.round = ${round}::text)`;
  return sql`t.campaign_key = ${key} and ${settled('t', settling)} and ${inRound}`;
};

/**
 * The figures and flags of the numbers `targets` selects (a CTE's `select phone_number ...`), as
 * the CTEs `voter_flags(phone_number, votes, peak, share, first_at, last_at, held, flags)`. Each
 * number costs its own votes (transactions_voter_idx) and, for `burst`, the first votes near its
 * first vote with the same pick from its prefix (transactions_round_pick_prefix_idx): a ranking page pays for its rows only.
 */
export function voterFlagsCtes(key: Value, round: Value, targets: SQL, settling?: Value, oneRound = false): SQL {
  const sameRound = sql`o.campaign_key = ${key} and ${settled('o', settling)} and o.round = f.round`;
  return sql`targets as (${targets}),
  settings as (select c.velocity_per_minute as velocity, c.votes_per_round_cap as cap from campaigns c where c.key = ${key}),
  votes as materialized (
    select t.id, t.phone_number, t.round, t.created_at, t.team_name, t.team_name2, t.vote_hold
    from transactions t where ${roundVotes(key, round, settling, oneRound)} and t.phone_number in (select phone_number from targets)
  ),
  peaks as materialized (
    select w.phone_number, max(w.n)::int as peak from (
      select phone_number, count(*) over (partition by phone_number order by created_at range between ${MINUTE} preceding and current row) as n from votes) w
    group by 1
  ),
  rounds_most as materialized (select r.phone_number, max(r.n) as n from (select phone_number, round, count(*)::int as n from votes group by 1, 2) r group by 1),
  firsts as materialized (
    select distinct on (phone_number, round) phone_number, round, created_at, team_name, team_name2
    from votes order by phone_number, round, created_at, id
  ),
  bursts as materialized (
    -- The numbers whose first vote in the round is for the same pick, from the same prefix, within 60 s either side.
    select f.phone_number, max((select count(*) from (
        select 1 from transactions o
        where ${sameRound} and o.team_name = f.team_name and o.team_name2 is not distinct from f.team_name2
          and o.created_at > f.created_at - interval '60 seconds' and o.created_at < f.created_at + interval '60 seconds'
          and left(o.phone_number, ${PREFIX_DIGITS}) = left(f.phone_number, ${PREFIX_DIGITS})
          and not exists (select 1 from transactions e where e.campaign_key = ${key} and ${settled('e', settling)} and e.round = f.round
            and e.phone_number = o.phone_number and e.created_at <= o.created_at and (e.created_at, e.id) < (o.created_at, o.id))
        limit ${BURST_NUMBERS}) x))::int as n
    from firsts f group by 1
  ),
  totals as materialized (
    select phone_number, count(*)::int as votes, min(created_at) as first_at, max(created_at) as last_at,
      (count(*) filter (where vote_hold = 'held'))::int as held
    from votes group by 1
  ),
  voter_flags as (
    select a.phone_number, a.votes, p.peak,
      case when s.cap > 0 then round(m.n::numeric / s.cap, 4)::float8 end as share,
      a.first_at, a.last_at, a.held,
      array_remove(array[
        case when p.peak > s.velocity then 'velocity' end,
        case when s.cap > 0 and m.n >= ${NEAR_CAP_SHARE}::float8 * s.cap then 'near-cap' end,
        case when b.n >= ${BURST_NUMBERS} then 'burst' end
      ], null) as flags
    from totals a join peaks p on p.phone_number = a.phone_number join rounds_most m on m.phone_number = a.phone_number
      join bursts b on b.phone_number = a.phone_number cross join settings s
  )`;
}

/**
 * The numbers that may carry a flag in a round, a superset of the flagged: more votes than a
 * velocity or near-cap flag needs (the counted votes, plus any number with votes held or decided),
 * and every number whose first vote has enough like it to make a burst (one pass over the round's
 * first votes).
 */
function candidatesSql(key: Value, round: Value): SQL {
  return sql`select v.phone_number from campaign_voters v, campaigns c
      where c.key = ${key} and v.campaign_key = ${key} and v.round = ${round}
        and v.votes > least(c.velocity_per_minute, case when c.votes_per_round_cap > 0 then ceil(${NEAR_CAP_SHARE}::float8 * c.votes_per_round_cap)::int - 1 end)
    union
    select t.phone_number from transactions t where t.campaign_key = ${key} and t.vote_hold is not null and (${round}::text = 'all' or t.round = ${round}::text)
    union
    select w.phone_number from (
      select f.phone_number, count(*) over (
          partition by f.round, f.team_name, f.team_name2, left(f.phone_number, ${BURST_PREFIX_DIGITS})
          order by f.created_at range between ${MINUTE} preceding and ${MINUTE} following) as n
      from (select distinct on (t.round, t.phone_number) t.round, t.phone_number, t.created_at, t.team_name, t.team_name2
            from transactions t where ${roundVotes(key, round)} order by t.round, t.phone_number, t.created_at, t.id) f) w
    where w.n >= ${BURST_NUMBERS}`;
}

/** A row of `voter_flags` as the API answers it. */
const flagsRow = sql`f.phone_number as "phoneNumber", f.votes, f.peak as "peakPerMinute", f.share as "shareOfCap",
  ${isoTime(sql`f.first_at`)} as "firstVoteAt", ${isoTime(sql`f.last_at`)} as "lastVoteAt", f.held as "heldVotes", f.flags`;

/**
 * Whether one number is flagged in one round, counting the vote being settled: asked by every paid
 * vote of a campaign that holds, so it is prepared once (planning its CTEs cost ~6 ms a vote, five
 * times running it).
 */
const IS_FLAGGED = sql`with ${voterFlagsCtes(sql.placeholder('key'), sql.placeholder('round'), sql`select ${sql.placeholder('phone')}::text as phone_number`, sql.placeholder('settling'), true)}
  select exists (select 1 from voter_flags where cardinality(flags) > 0) as flagged`;

/** The numbers flagged in a round, as a statement selecting `phone_number`. */
const flaggedNumbersSql = (key: Value, round: Value) =>
  sql`with ${voterFlagsCtes(key, round, candidatesSql(key, round))} select phone_number from voter_flags where cardinality(flags) > 0`;

export function voteIntegrityRepository(db: DbOrTx) {
  let isFlagged: ((values: PlaceholderValues) => Promise<{ flagged: boolean }[]>) | undefined;
  return {
    /** The figures and flags of some numbers in a round (a ranking page's rows), by phone number. */
    async flagsOf(key: string, round: string, phoneNumbers: string[]): Promise<Map<string, VoterFlags>> {
      if (phoneNumbers.length === 0) return new Map();
      const targets = sql`select unnest(${sql.param(phoneNumbers)}::text[]) as phone_number`;
      const rows = await rowsOf<VoterFlags>(db, sql`with ${voterFlagsCtes(key, round, targets)} select ${flagsRow} from voter_flags f`);
      return new Map(rows.map((row) => [row.phoneNumber, row]));
    },

    /** One page of a round's flagged numbers, most votes first, and how many are flagged. */
    async suspiciousPage(key: string, round: string, offset: number, limit: number): Promise<{ rows: VoterFlags[]; total: number }> {
      const rows = await rowsOf<VoterFlags & { total: number }>(
        db,
        sql`with ${voterFlagsCtes(key, round, candidatesSql(key, round))}
          select ${flagsRow}, count(*) over ()::int as total from voter_flags f where cardinality(f.flags) > 0
          order by f.votes desc, f.peak desc, f.phone_number limit ${limit} offset ${offset}`,
      );
      // An empty first page means none is flagged; only a page past the end asks again for how many are.
      const total = rows.length > 0 ? Number(rows[0].total) : offset === 0 ? 0 : (await this.flaggedNumbers(key, round)).length;
      return { rows: rows.map(({ total: _total, ...row }) => row), total };
    },

    /** The phone numbers flagged in a round (the ranking's 'flagged only'). */
    async flaggedNumbers(key: string, round: string): Promise<string[]> {
      return (await rowsOf<{ phone_number: string }>(db, flaggedNumbersSql(key, round))).map((row) => row.phone_number);
    },

    /** Whether a number is flagged in a round, counting the vote `settling` (being paid) as settled already. */
    async isFlagged(key: string, round: string, phoneNumber: string, settling: string): Promise<boolean> {
      // A transaction runs statements as a database does (drizzle's session), so the prepared form serves both.
      isFlagged ??= preparedRows<{ flagged: boolean }>(db as Db, 'vote_is_flagged', IS_FLAGGED);
      const [row] = await isFlagged({ key, round, phone: phoneNumber, settling });
      return row?.flagged ?? false;
    },

    /**
     * A reviewer's decision on a number's held votes in a campaign (one round, or all): released
     * votes count from now on (the vote triggers add them once), rejected ones never. Only votes
     * still held change, so deciding twice changes nothing the second time.
     */
    async decideHeld(key: string, phoneNumber: string, round: string | null, decision: 'released' | 'rejected', reviewerId: string | null, reason: string | null) {
      const rows = await rowsOf<{ round: string; votes: number }>(
        db,
        sql`with decided as (
            update transactions set vote_hold = ${decision}, vote_hold_by = ${reviewerId}::uuid, vote_hold_at = now(), vote_hold_reason = ${reason}::text
            where campaign_key = ${key} and phone_number = ${phoneNumber} and vote_hold = 'held' ${round ? sql`and round = ${round}` : sql``}
            returning round)
          select round, count(*)::int as votes from decided group by 1 order by 1`,
      );
      return { votes: rows.reduce((sum, row) => sum + Number(row.votes), 0), rounds: rows.map((row) => row.round) };
    },
  };
}

export type VoteIntegrityRepository = ReturnType<typeof voteIntegrityRepository>;
