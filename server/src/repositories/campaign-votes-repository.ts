import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { CampaignResults } from '../../../src/domain/schemas/campaigns';
import type { Db } from '../db/client';
import { preparedRows, type PlaceholderValues } from '../db/prepared';
import { campaignRoundTotals, campaignTeamVotes, campaignVoters, campaigns } from '../db/schema';
import type { CampaignView } from './campaigns-repository';
import { isoTime } from './sql-fragments';

/**
 * The votes of a campaign: rankings, one voter's votes and the team results. Counts come from the
 * tables the vote triggers keep (campaign_voters, campaign_round_totals, campaign_team_votes), so no
 * call here counts votes; PostgreSQL builds each page's JSON, as the transaction lists do. Every
 * statement is built with drizzle's `sql` from the schema's columns and prepared once by name.
 */

/** Round 'all' is every round, in the counted tables as in the API. */
export const ALL_ROUNDS = 'all';

const v = campaignVoters;
const totals = campaignRoundTotals;
const teamVotes = campaignTeamVotes;
const p = (name: string) => sql.placeholder(name);

/** The ranking order of campaign_voters_ranking_idx: most votes, the earlier last vote, then the phone number. */
const RANKING_ORDER = sql`${v.votes} desc, ${v.lastVoteAt} asc, ${v.phoneNumber} asc`;

/** A round's voters with at least one counted vote. */
const votersOf = sql`${v.campaignKey} = ${p('key')} and ${v.round} = ${p('round')} and ${v.votes} > 0`;

/** The number of voters or votes of a round, from the totals the triggers keep. */
const roundTotal = (column: PgColumn) => sql`(select coalesce(sum(${column}), 0)::int from ${totals} where ${totals.campaignKey} = ${p('key')} and ${totals.round} = ${p('round')})`;

/**
 * One ranking page: 50 voters in ranking order, each with its votes as the JSON text the trigger
 * keeps (so a page reads 50 rows, not 2,500 votes), and the round's total. `flaggedOnly` ranks the
 * numbers of `phones` alone (the round's flagged numbers) and counts them as the total. The anomaly
 * figures are not here: they cost each voter's every vote, so the route keeps them per voter.
 */
const rankingPageSql = (flaggedOnly: boolean) => {
  const flagged = flaggedOnly ? sql` and ${v.phoneNumber} = any(${p('phones')}::text[])` : sql``;
  return sql`select t.total, page.phone_number as "phoneNumber", page.votes, page.recent
    from (select ${flaggedOnly ? sql`(select count(*)::int from ${v} where ${votersOf}${flagged})` : roundTotal(totals.voters)} as total) t
    left join lateral (
      select ${v.phoneNumber} as phone_number, ${v.votes} as votes, ${v.lastVoteAt} as last_vote_at, ${v.recentVotes} as recent
      from ${v} where ${votersOf}${flagged} order by ${RANKING_ORDER} limit ${p('limit')} offset ${p('offset')}) page on true
    order by page.votes desc, page.last_vote_at asc, page.phone_number asc`;
};

/** A ranking page's row: the voter, its counted votes and its newest votes as JSON text. */
export interface RankingRow {
  phoneNumber: string;
  votes: number;
  recent: string;
}

/** A voter's anomaly figures as a ranking row shows them. */
export interface RankingFigures {
  peakPerMinute: number;
  flags: string[];
}

/** The page's rows as the API's JSON array text: the rows' vote JSON is put in as it is kept, never parsed. */
export function rankingDocsJson(rows: RankingRow[], serviceCode: string, figures: Map<string, RankingFigures>): string {
  const code = JSON.stringify(serviceCode);
  const docs = rows.map((row) => {
    const phone = JSON.stringify(row.phoneNumber);
    const found = figures.get(row.phoneNumber);
    return `{"_id":${phone},"phoneNumber":${phone},"serviceCode":${code},"count":${Number(row.votes)},"peakPerMinute":${found?.peakPerMinute ?? 0},"flags":${JSON.stringify(found?.flags ?? [])},"transactions":${row.recent}}`;
  });
  return `[${docs.join(',')}]`;
}

/** One voter's counted votes, newest first, as JSON text (the database function of migration 0007), and how many. */
const VOTES_PAGE = sql`select campaign_votes_json(${p('key')}, ${p('round')}, ${p('phone')}, ${p('limit')}, ${p('offset')}) as docs,
    (select coalesce(max(${v.votes}), 0) from ${v} where ${v.campaignKey} = ${p('key')} and ${v.round} = ${p('round')} and ${v.phoneNumber} = ${p('phone')}) as total`;

/** Votes per team and per game, from the counted picks of one round or of all (`inRound`). */
const resultsSql = (inRound: boolean) => sql`with picks as (
    select ${teamVotes.teamName} as team_name, ${teamVotes.teamName2} as team_name2, sum(${teamVotes.votes})::int as votes from ${teamVotes}
    where ${teamVotes.campaignKey} = ${p('key')} ${inRound ? sql`and ${teamVotes.round} = ${p('round')}` : sql``}
    group by 1, 2 having sum(${teamVotes.votes}) > 0)
  select
    (select coalesce(json_agg(json_build_object('teamName', x.team_name, 'votes', x.votes) order by x.votes desc, x.team_name), '[]')
       from (select team_name, sum(votes)::int as votes from picks group by 1) x) as teams,
    (select coalesce(json_agg(json_build_object('teamName', g.team_name, 'teamName2', g.team_name2, 'votes', g.votes) order by g.votes desc, g.team_name, g.team_name2), '[]')
       from picks g where g.team_name2 <> '') as games,
    ${roundTotal(totals.votes)} as "totalVotes",
    ${roundTotal(totals.voters)} as "distinctVoters"`;

/** The whole ranking in order from a keyset (`after`), for the CSV export. */
const rankingChunkSql = (after: boolean) => sql`select ${v.phoneNumber} as "phoneNumber", ${v.votes} as votes,
    ${isoTime(v.lastVoteAt)} as "lastVoteAt", ${v.lastVoteAt}::text as "cursorTime"
  from ${v} where ${votersOf}
    ${after ? sql`and (${v.votes} < ${p('votes')} or (${v.votes} = ${p('votes')} and (${v.lastVoteAt}, ${v.phoneNumber}) > (${p('time')}::timestamptz, ${p('phone')})))` : sql``}
  order by ${RANKING_ORDER} limit ${p('limit')}`;

export interface RankingLine {
  phoneNumber: string;
  votes: number;
  lastVoteAt: string;
}

export function campaignVotesRepository(db: Db) {
  const statements = new Map<string, (values: PlaceholderValues) => Promise<unknown[]>>();
  /** The statement named `name`, prepared the first time only. */
  function statement<Row>(name: string, query: () => SQL) {
    let found = statements.get(name);
    if (!found) statements.set(name, (found = preparedRows<unknown>(db, name, query())));
    return found as (values: PlaceholderValues) => Promise<Row[]>;
  }

  return {
    async find(key: string): Promise<CampaignView | undefined> {
      const find = statement<CampaignView>('campaign_find', () => {
        const c = campaigns;
        return sql`select ${c.key} as key, ${c.name} as name, ${c.serviceCode} as "serviceCode", ${c.status} as status, ${c.rounds} as rounds,
          ${c.teams} as teams, ${c.votesPerRoundCap} as "votesPerRoundCap", ${c.votePrice} as "votePrice",
          to_char(${c.publishedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "publishedAt",
          to_char(${c.closedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "closedAt"
          from ${c} where ${c.key} = ${p('key')}`;
      });
      const [row] = await find({ key });
      return row;
    },

    /** One ranking page's rows (without their anomaly figures) and the number of voters in the round (those of `onlyPhones` alone when given). */
    async rankingPage(campaignKey: string, round: string, offset: number, limit: number, onlyPhones?: string[]): Promise<{ rows: RankingRow[]; total: number }> {
      const flaggedOnly = onlyPhones !== undefined;
      const page = statement<RankingRow & { total: number }>(flaggedOnly ? 'campaign_ranking_flagged' : 'campaign_ranking', () => rankingPageSql(flaggedOnly));
      // An empty page is the one row of the total, its voter columns null.
      const found = await page({ key: campaignKey, round, limit, offset, ...(flaggedOnly ? { phones: onlyPhones } : {}) });
      return { rows: found.filter((row) => row.phoneNumber !== null), total: Number(found[0]?.total ?? 0) };
    },

    /** One voter's counted votes, newest first, as JSON text, and how many there are. */
    async votesPageJson(campaignKey: string, round: string, phoneNumber: string, offset: number, limit: number): Promise<{ docsJson: string; total: number }> {
      const page = statement<{ docs: string; total: number }>('campaign_votes', () => VOTES_PAGE);
      const [row] = await page({ key: campaignKey, round, phone: phoneNumber, limit, offset });
      return { docsJson: row.docs, total: Number(row.total) };
    },

    /** Votes per team and per game, total votes and distinct voters, from the counted tables. */
    async results(campaignKey: string, round: string): Promise<CampaignResults> {
      const all = round === ALL_ROUNDS;
      const results = statement<Omit<CampaignResults, 'round'>>(`campaign_results_${all ? 'all' : 'one'}`, () => resultsSql(!all));
      const [row] = await results({ key: campaignKey, round });
      return {
        round: all ? null : round,
        totalVotes: Number(row.totalVotes),
        distinctVoters: Number(row.distinctVoters),
        teams: row.teams,
        games: row.games,
      };
    },

    /** The whole ranking in order, in keyset chunks so memory stays flat (CSV export). */
    async *ranking(campaignKey: string, round: string, size = 5000): AsyncGenerator<RankingLine[]> {
      const first = statement<RankingLine & { cursorTime: string }>('campaign_ranking_chunk', () => rankingChunkSql(false));
      const next = statement<RankingLine & { cursorTime: string }>('campaign_ranking_chunk_after', () => rankingChunkSql(true));
      let after: RankingLine | undefined;
      for (;;) {
        const values = { key: campaignKey, round, limit: size };
        const lines = after ? await next({ ...values, votes: after.votes, time: after.lastVoteAt, phone: after.phoneNumber }) : await first(values);
        if (lines.length === 0) return;
        yield lines;
        if (lines.length < size) return;
        const last = lines[lines.length - 1];
        // The cursor keeps PostgreSQL's own text of the instant: the ISO form drops microseconds.
        after = { ...last, lastVoteAt: last.cursorTime };
      }
    },
  };
}

export type CampaignVotesRepository = ReturnType<typeof campaignVotesRepository>;
