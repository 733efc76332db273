import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { VoteFlag } from '../../../src/domain/vote-integrity';
import { BURST_NUMBERS, BURST_PREFIX_DIGITS, NEAR_CAP_SHARE } from '../../../src/domain/vote-integrity';
import type { Db, DbOrTx } from '../db/client';
import { preparedRows, type PlaceholderValues } from '../db/prepared';
import { isoTime, rowsOf } from './sql-fragments';

/**
 * Vote integrity: how each voter voted in a round (votes, the peak in any 60 seconds, share of the
 * cap, first and last vote) and the flags that makes (src/domain/vote-integrity.ts). The figures are
 * the rows of `campaign_voter_figures`, which the vote trigger keeps from the settled votes (held and
 * rejected ones included: they are how the number voted), never from the counted ones alone. The
 * flags are worked out here on reading, against the campaign's thresholds as they stand. Round 'all'
 * reads every round: its peak spans rounds, its share of the cap is the fullest round's, its flags
 * any round's.
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

/** The prefix length as a literal, never a parameter: campaign_voter_figures_burst_idx is keyed by `left(phone_number, 9)`, which only the same expression finds. */
const PREFIX_DIGITS = sql.raw(String(BURST_PREFIX_DIGITS));

/** A window of 60 seconds at the database's microsecond resolution: `(t - 60 s, t]`. */
const MINUTE = sql.raw(`interval '59.999999 seconds'`);

/** The campaign's thresholds and its rounds' keys, as the CTE `settings(velocity, cap, rounds)`. */
const settingsCte = (key: string | Placeholder) =>
  sql`settings as (select c.velocity_per_minute as velocity, c.votes_per_round_cap as cap,
    array(select r ->> 'key' from jsonb_array_elements(c.rounds) r) as rounds from campaigns c where c.key = ${key})`;

/**
 * How many numbers of figures row `alias`'s prefix made their first vote in its round for the same
 * pick within 60 seconds either side of its own (itself included, counting no further than a burst
 * needs), `others` leaving the row's own number out.
 */
const sameFirstVotes = (alias: string, { key, round, phone, team, team2, at }: Record<'key' | 'round' | 'phone' | 'team' | 'team2' | 'at', SQL>, limit: number, others = false) =>
  sql`(select count(*) from (select 1 from campaign_voter_figures ${sql.raw(alias)}
    where ${sql.raw(alias)}.campaign_key = ${key} and ${sql.raw(alias)}.round = ${round} and ${sql.raw(alias)}.round <> 'all'
      and ${sql.raw(alias)}.first_team_name = ${team} and left(${sql.raw(alias)}.phone_number, ${PREFIX_DIGITS}) = left(${phone}, ${PREFIX_DIGITS})
      and ${sql.raw(alias)}.first_team_name2 = ${team2}
      and ${sql.raw(alias)}.first_vote_at > ${at} - interval '60 seconds' and ${sql.raw(alias)}.first_vote_at < ${at} + interval '60 seconds'
      ${others ? sql`and ${sql.raw(alias)}.phone_number <> ${phone}` : sql``}
    limit ${sql.raw(String(limit))}) same)`;

/** Whether a round's figures row (by its alias) is in a burst. */
const inBurst = (row: string) => {
  const of = (column: string) => sql.raw(`${row}.${column}`);
  return sql`${sameFirstVotes(`${row}_same`, { key: of('campaign_key'), round: of('round'), phone: of('phone_number'), team: of('first_team_name'), team2: of('first_team_name2'), at: of('first_vote_at') }, BURST_NUMBERS)} >= ${BURST_NUMBERS}`;
};

/** Figures row `f` over `settings s`'s velocity, and at the share of its cap that flags it. */
const OVER_VELOCITY = sql`f.peak_per_minute > s.velocity`;
const NEAR_CAP = sql`(s.cap > 0 and f.fullest_round_votes >= ${NEAR_CAP_SHARE}::float8 * s.cap)`;

/** The flags of figures row `f` against `settings s`; an 'all' row is in a burst when any of its rounds is. */
const FLAGS = sql`array_remove(array[
    case when ${OVER_VELOCITY} then 'velocity' end,
    case when ${NEAR_CAP} then 'near-cap' end,
    case when (case when f.round <> 'all' then ${inBurst('f')}
      else exists (select 1 from campaign_voter_figures r where r.campaign_key = f.campaign_key and r.round = any(s.rounds) and r.phone_number = f.phone_number and ${inBurst('r')}) end)
      then 'burst' end
  ], null)`;

/** A figures row `f` and its flags (`FLAGS`, or a CTE's column that holds them) as the API answers them. */
const flagsRow = (flags: SQL) => sql`f.phone_number as "phoneNumber", f.votes, f.peak_per_minute as "peakPerMinute",
  case when s.cap > 0 then round(f.fullest_round_votes::numeric / s.cap, 4)::float8 end as "shareOfCap",
  ${isoTime(sql`f.first_vote_at`)} as "firstVoteAt", ${isoTime(sql`f.last_vote_at`)} as "lastVoteAt", f.held_votes as "heldVotes", ${flags} as flags`;

/**
 * A round's numbers (or every round's, for 'all') that may be flagged or wait for a reviewer, as the
 * CTE `candidates(f...)`: over a threshold of their own figures, with votes held, or with a first
 * vote that has enough like it to make a burst (one pass over the round's first votes, in the burst
 * index's order). Materialized: the few candidates are sorted for a page, not every row of the round.
 */
const candidatesCte = (key: string, round: string) => sql`bursting as (
    select w.round, w.phone_number from (
      select g.round, g.phone_number, count(*) over (
          partition by g.round, g.first_team_name, left(g.phone_number, ${PREFIX_DIGITS}), g.first_team_name2
          order by g.first_vote_at range between ${MINUTE} preceding and ${MINUTE} following) as n
      from campaign_voter_figures g where g.campaign_key = ${key} and g.round <> 'all' and (${round}::text = 'all' or g.round = ${round}::text)) w
    where w.n >= ${BURST_NUMBERS}
  ),
  candidates as materialized (
    select f.*, ${FLAGS} as flags from campaign_voter_figures f cross join settings s
    where f.campaign_key = ${key} and f.round = ${round}
      and (${OVER_VELOCITY} or ${NEAR_CAP} or f.held_votes > 0
        or f.phone_number in (select b.phone_number from bursting b))
  )`;

/** A candidate the suspicious list shows: flagged, or with votes waiting for a reviewer. */
const LISTED = sql`(cardinality(c.flags) > 0 or c.held_votes > 0)`;

/**
 * Whether one number is flagged in one round once the vote `settling` (being paid) counts: its
 * figures so far, the peak of the windows around the settling vote, the cap with one vote more,
 * and the burst of the number's first vote (the settling one when it is earlier). Asked by every
 * paid vote of a campaign that holds, so it is prepared once.
 */
const IS_FLAGGED = (() => {
  const [key, round, phone, settling] = ['key', 'round', 'phone', 'settling'].map((name) => sql.placeholder(name));
  return sql`with ${settingsCte(key)},
  v as (select t.id, t.created_at, coalesce(t.team_name, '') as team, coalesce(t.team_name2, '') as team2 from transactions t where t.id = ${settling}::uuid),
  f as (select * from campaign_voter_figures where campaign_key = ${key} and round = ${round}::text and phone_number = ${phone}::text),
  near as (
    select t.created_at from transactions t cross join v
    where t.campaign_key = ${key} and t.phone_number = ${phone}::text and t.is_complete and t.round = ${round}::text and t.id <> v.id
      and t.created_at > v.created_at - interval '60 seconds' and t.created_at < v.created_at + interval '60 seconds'
    union all select v.created_at from v
  ),
  peak as (
    select max(w.n)::int as n from (select n.created_at, count(*) over (order by n.created_at range between ${MINUTE} preceding and current row) as n from near n) w
    cross join v where w.created_at >= v.created_at
  ),
  first_vote as (
    select case when earlier then v.created_at else f.first_vote_at end as at, case when earlier then v.team else f.first_team_name end as team,
      case when earlier then v.team2 else f.first_team_name2 end as team2
    from v left join f on true cross join lateral (select f.first_vote_at is null or (v.created_at, v.id) < (f.first_vote_at, f.first_vote_id) as earlier) e
  )
  select greatest(coalesce(f.peak_per_minute, 0), peak.n) > s.velocity
    or (s.cap > 0 and coalesce(f.votes, 0) + 1 >= ${NEAR_CAP_SHARE}::float8 * s.cap)
    or ${sameFirstVotes('g', { key: sql`${key}`, round: sql`${round}::text`, phone: sql`${phone}::text`, team: sql`first_vote.team`, team2: sql`first_vote.team2`, at: sql`first_vote.at` }, BURST_NUMBERS - 1, true)} + 1 >= ${BURST_NUMBERS} as flagged
  from settings s cross join peak cross join first_vote left join f on true`;
})();

export function voteIntegrityRepository(db: DbOrTx) {
  let isFlagged: ((values: PlaceholderValues) => Promise<{ flagged: boolean }[]>) | undefined;
  return {
    /** The figures and flags of some numbers in a round (a ranking page's rows), by phone number. */
    async flagsOf(key: string, round: string, phoneNumbers: string[]): Promise<Map<string, VoterFlags>> {
      if (phoneNumbers.length === 0) return new Map();
      const rows = await rowsOf<VoterFlags>(
        db,
        sql`with ${settingsCte(key)} select ${flagsRow(FLAGS)} from campaign_voter_figures f cross join settings s
          where f.campaign_key = ${key} and f.round = ${round} and f.phone_number = any(${sql.param(phoneNumbers)}::text[])`,
      );
      return new Map(rows.map((row) => [row.phoneNumber, row]));
    },

    /**
     * One page of a round's flagged numbers, and those with votes waiting for a reviewer (a number
     * whose flags went, its threshold raised, keeps its held votes decidable), most votes first, and
     * how many there are.
     */
    async suspiciousPage(key: string, round: string, offset: number, limit: number): Promise<{ rows: VoterFlags[]; total: number }> {
      const rows = await rowsOf<VoterFlags & { total: number }>(
        db,
        sql`with ${settingsCte(key)}, ${candidatesCte(key, round)}
          select ${flagsRow(sql`f.flags`)}, count(*) over ()::int as total from (select * from candidates c where ${LISTED}) f cross join settings s
          order by f.votes desc, f.peak_per_minute desc, f.phone_number limit ${limit} offset ${offset}`,
      );
      // An empty page past the end asks again for how many there are.
      const total = rows.length > 0 ? Number(rows[0].total) : offset === 0 ? 0 : await this.suspiciousCount(key, round);
      return { rows: rows.map(({ total: _total, ...row }) => row), total };
    },

    async suspiciousCount(key: string, round: string): Promise<number> {
      const [row] = await rowsOf<{ n: number }>(db, sql`with ${settingsCte(key)}, ${candidatesCte(key, round)} select count(*)::int as n from candidates c where ${LISTED}`);
      return Number(row?.n ?? 0);
    },

    /** The phone numbers flagged in a round (the ranking's 'flagged only'). */
    async flaggedNumbers(key: string, round: string): Promise<string[]> {
      const rows = await rowsOf<{ phone_number: string }>(db, sql`with ${settingsCte(key)}, ${candidatesCte(key, round)} select c.phone_number from candidates c where cardinality(c.flags) > 0`);
      return rows.map((row) => row.phone_number);
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
