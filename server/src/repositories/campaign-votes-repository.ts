import type { CampaignResults } from '../../../src/domain/schemas/campaigns';
import type { Db } from '../db/client';
import { sql, type SQL } from 'drizzle-orm';
import { preparedRows } from '../db/prepared';
import type { CampaignView } from './campaigns-repository';

/**
 * The votes of a campaign: rankings, one voter's votes and the team results. Counts come from the
 * tables the vote triggers keep (campaign_voters, campaign_round_totals, campaign_team_votes), so no
 * call here counts votes; PostgreSQL builds each page's JSON, as the transaction lists do.
 */

/** SQL text with `$1…$n` parameters as a drizzle statement whose placeholders are named `p1…pn`. */
function positional(text: string): SQL {
  const parts = text.split(/\$(\d+)/);
  return sql.join(parts.map((part, i) => (i % 2 === 0 ? sql.raw(part) : sql.placeholder(`p${part}`))));
}

/** Runs `text` prepared once per `name` (or unnamed), with `values` bound to `$1…$n`. */
const statements = new WeakMap<Db, Map<string, (values: Record<string, unknown>) => Promise<unknown[]>>>();
async function rowsOf<Row>(db: Db, query: { name?: string; text: string; values: unknown[] }): Promise<Row[]> {
  const params = Object.fromEntries(query.values.map((value, i) => [`p${i + 1}`, value]));
  if (!query.name) return (await preparedRows<Row>(db, '', positional(query.text))(params)) as Row[];
  let byName = statements.get(db);
  if (!byName) statements.set(db, (byName = new Map()));
  let run = byName.get(query.name);
  if (!run) byName.set(query.name, (run = preparedRows<unknown>(db, query.name, positional(query.text))));
  return (await run(params)) as Row[];
}

/** Round 'all' is every round, in the counted tables as in the API. */
export const ALL_ROUNDS = 'all';

/** A ranking row's newest votes (SPEC §7: a row carries at most 50). */
export const VOTES_PER_ROW = 50;

const isoTime = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * A vote as ranking rows and the votes call answer it (`VoteTransaction`, no `teamName2` for a
 * single-team pick), from `t`, as JSON text. Written out rather than with json_build_object: a
 * ranking page carries up to 2,500 votes, and text is about a third cheaper for PostgreSQL to make.
 */
const VOTE_JSON = `'{"_id":"' || t.id || '","createdAt":"' || ${isoTime('t.created_at')} || '","teamName":' || coalesce(to_json(t.team_name)::text, 'null')
  || coalesce(',"teamName2":' || to_json(t.team_name2)::text, '') || '}'`;

/** JSON array text of the `item` texts of a sorted subquery, in its order. */
const jsonArray = (item: string, from: string) => `(select '[' || coalesce(string_agg(${item}, ','), '') || ']' from (${from}) a)`;

/**
 * One voter's counted votes, newest first, in a round or in all (`$2`), each read from its partial
 * index alone, as a JSON array text. `voter` is the SQL of the phone number.
 */
function votesOf(voter: string, round: 'all' | 'one', limit: string, offset = '0') {
  const inRound = round === 'all' ? 't.round is not null' : 't.round = $2';
  return jsonArray(
    'a.vote',
    `select ${VOTE_JSON} as vote from transactions t
    where t.campaign_key = $1 and ${inRound} and t.phone_number = ${voter} and t.is_complete
    order by t.created_at desc, t.id desc limit ${limit} offset ${offset}`,
  );
}

/** The ranking order of campaign_ranking_idx: most votes, the earlier last vote, then the phone number. */
const RANKING_ORDER = 'v.votes desc, v.last_vote_at asc, v.phone_number asc';

export interface RankingLine {
  phoneNumber: string;
  votes: number;
  lastVoteAt: string;
}

export function campaignVotesRepository(db: Db) {
  return {
    async find(key: string): Promise<CampaignView | undefined> {
      const [row] = await rowsOf<CampaignView>(db, {
        name: 'campaign_find',
        text: 'select key, name, service_code as "serviceCode", rounds, teams from campaigns where key = $1',
        values: [key],
      });
      return row;
    },

    /** One ranking page as JSON text (`VoteRow`s) and the number of voters in the round. */
    async rankingPageJson(campaign: CampaignView, round: string, offset: number, limit: number): Promise<{ docsJson: string; total: number }> {
      const scope = round === ALL_ROUNDS ? 'all' : 'one';
      const text = `select
          ${jsonArray(
            `'{"_id":' || a.phone || ',"phoneNumber":' || a.phone || ',"serviceCode":' || to_json($3::text)::text
              || ',"count":' || a.votes || ',"transactions":' || a.votes_json || '}'`,
            `select to_json(v.phone_number)::text as phone, v.votes, ${votesOf('v.phone_number', scope, String(VOTES_PER_ROW))} as votes_json
            from campaign_voters v
            where v.campaign_key = $1 and v.round = $2 and v.votes > 0
            order by ${RANKING_ORDER}
            limit $4 offset $5`,
          )} as docs,
          (select coalesce(max(voters), 0) from campaign_round_totals where campaign_key = $1 and round = $2) as total`;
      const [row] = await rowsOf<{ docs: string; total: number }>(db, {
        name: `campaign_ranking_${scope}`,
        text,
        values: [campaign.key, round, campaign.serviceCode, limit, offset],
      });
      return { docsJson: row.docs, total: Number(row.total) };
    },

    /** One voter's counted votes, newest first, as JSON text, and how many there are. */
    async votesPageJson(campaignKey: string, round: string, phoneNumber: string, offset: number, limit: number): Promise<{ docsJson: string; total: number }> {
      const scope = round === ALL_ROUNDS ? 'all' : 'one';
      const text = `select
          ${votesOf('$3', scope, '$4', '$5')} as docs,
          (select coalesce(max(v.votes), 0) from campaign_voters v where v.campaign_key = $1 and v.round = $2 and v.phone_number = $3) as total`;
      const [row] = await rowsOf<{ docs: string; total: number }>(db, {
        name: `campaign_votes_${scope}`,
        text,
        values: [campaignKey, round, phoneNumber, limit, offset],
      });
      return { docsJson: row.docs, total: Number(row.total) };
    },

    /** Votes per team and per game, total votes and distinct voters, from the counted tables. */
    async results(campaignKey: string, round: string): Promise<CampaignResults> {
      const inRound = round === ALL_ROUNDS ? '' : 'and s.round = $2';
      const text = `with picks as (
          select s.team_name, s.team_name2, sum(s.votes)::int as votes from campaign_team_votes s
          where s.campaign_key = $1 ${inRound} group by 1, 2 having sum(s.votes) > 0)
        select
          (select coalesce(json_agg(json_build_object('teamName', x.team_name, 'votes', x.votes) order by x.votes desc, x.team_name), '[]')
             from (select team_name, sum(votes)::int as votes from picks group by 1) x) as teams,
          (select coalesce(json_agg(json_build_object('teamName', p.team_name, 'teamName2', p.team_name2, 'votes', p.votes) order by p.votes desc, p.team_name, p.team_name2), '[]')
             from picks p where p.team_name2 <> '') as games,
          (select coalesce(max(t.votes), 0) from campaign_round_totals t where t.campaign_key = $1 and t.round = $2) as "totalVotes",
          (select coalesce(max(t.voters), 0) from campaign_round_totals t where t.campaign_key = $1 and t.round = $2) as "distinctVoters"`;
      const [row] = await rowsOf<Omit<CampaignResults, 'round'>>(db, {
        name: `campaign_results_${round === ALL_ROUNDS ? 'all' : 'one'}`,
        text,
        values: [campaignKey, round],
      });
      return {
        round: round === ALL_ROUNDS ? null : round,
        totalVotes: Number(row.totalVotes),
        distinctVoters: Number(row.distinctVoters),
        teams: row.teams,
        games: row.games,
      };
    },

    /** The whole ranking in order, in keyset chunks so memory stays flat (CSV export). */
    async *ranking(campaignKey: string, round: string, size = 5000): AsyncGenerator<RankingLine[]> {
      let after: RankingLine | undefined;
      for (;;) {
        const values: unknown[] = [campaignKey, round, size];
        let keyset = '';
        if (after) {
          values.push(after.votes, after.lastVoteAt, after.phoneNumber);
          keyset = 'and (v.votes < $4 or (v.votes = $4 and (v.last_vote_at, v.phone_number) > ($5::timestamptz, $6)))';
        }
        const lines = await rowsOf<RankingLine>(db, {
          text: `select v.phone_number as "phoneNumber", v.votes, ${isoTime('v.last_vote_at')} as "lastVoteAt", v.last_vote_at::text as "cursorTime"
            from campaign_voters v where v.campaign_key = $1 and v.round = $2 and v.votes > 0 ${keyset}
            order by ${RANKING_ORDER} limit $3`,
          values,
        });
        if (lines.length === 0) return;
        yield lines;
        if (lines.length < size) return;
        const last = lines[lines.length - 1] as RankingLine & { cursorTime: string };
        // The cursor keeps PostgreSQL's own text of the instant: the ISO form drops microseconds.
        after = { ...last, lastVoteAt: last.cursorTime };
      }
    },
  };
}

export type CampaignVotesRepository = ReturnType<typeof campaignVotesRepository>;
