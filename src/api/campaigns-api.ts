import type { CampaignRound, CampaignStatus } from '../domain/campaign-rounds';
import type { RankingRound } from '../domain/campaigns';
import type { VoteFlag } from '../domain/vote-integrity';
import { roundParam } from '../domain/campaigns';
import type { ApiEnvelope, Transaction, VoteRow, VoteTransaction } from '../domain/entities';
import { readPagedList, type PagedList } from '../domain/paged-list';
import { baseApi, listTags } from './base-api';
import type { CampaignResults } from '../domain/schemas/campaigns';
import { resolveInCachedLists } from './resolve-in-cache';
import { resolveBody, type Resolution } from './transactions-api';
import { csvFileOf, type CsvFile } from './csv-file';

/** A vote campaign as `GET /v1/campaigns` lists it (DESIGN §3). */
export interface Campaign {
  key: string;
  name: string;
  serviceCode: string;
  status: CampaignStatus;
  rounds: CampaignRound[];
  teams: string[];
  votesPerRoundCap: number | null;
  votePrice: number | null;
  /** Votes one number may cast in a minute before it is flagged 'velocity'. */
  velocityPerMinute: number;
  /** Whether a flagged number's new votes are held out of the counts until a reviewer decides. */
  holdSuspicious: boolean;
  totalVotes: number;
  revenue: number;
  publishedAt: string | null;
  closedAt: string | null;
}

export interface RankingQuery {
  /** The ranking call of the screen, e.g. '/v1/world/cup/week2/better/all'. */
  call: string;
  serviceCode: string;
  page: number;
  limit?: number;
  /** The round of a campaign's keyed ranking call (`/v1/campaigns/{key}/ranking`); SPEC's calls name theirs in the path. */
  round?: RankingRound;
  /** 'Flagged only': the numbers with a vote-integrity flag. */
  flagged?: boolean;
}

export interface VoterVotesQuery {
  key: string;
  phoneNumber: string;
  round: RankingRound;
  page: number;
  limit?: number;
}

export interface CampaignRoundQuery {
  key: string;
  round: RankingRound;
}

/**
 * A campaign list call (DESIGN §3): `call` is the descriptor's transactions, failed or search URL;
 * the rest is its body (`{ name, date }` or `{ phoneNumber }`).
 */
export interface CampaignTransactionsQuery {
  call: string;
  name?: string;
  date?: string;
  phoneNumber?: string;
  page: number;
  limit?: number;
}

/** A number flagged in a round (vote integrity), as `GET /v1/campaigns/{key}/suspicious` lists it. */
export interface SuspiciousVoter {
  phoneNumber: string;
  votes: number;
  peakPerMinute: number;
  /** Of the fullest round, 0 to 1; null when the campaign has no cap. */
  shareOfCap: number | null;
  firstVoteAt: string;
  lastVoteAt: string;
  /** Votes paid but held out of the counts until a reviewer decides. */
  heldVotes: number;
  flags: VoteFlag[];
}

export interface SuspiciousQuery extends CampaignRoundQuery {
  page: number;
  limit?: number;
}

/** A reviewer's decision on a number's held votes; a rejection says why. */
export interface HeldVotesDecision {
  key: string;
  phoneNumber: string;
  decision: 'release' | 'reject';
  reason?: string;
  /** One round's held votes; every round's when left out. */
  round?: string;
}

/** A resolve: the descriptor's resolve URL for the row, the row's id for the tags, and why. */
export interface CampaignResolve extends Resolution {
  call: string;
  id: string;
}

const rankingTag = (key: string, round: RankingRound) => `${key}:${round}`;

export const campaignsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getCampaigns: build.query<Campaign[], void>({
      query: () => '/v1/campaigns',
      transformResponse: (response: ApiEnvelope<Campaign[]>) => response.results,
      providesTags: [{ type: 'Campaign', id: 'LIST' }],
    }),
    getRanking: build.query<PagedList<VoteRow>, RankingQuery>({
      query: ({ call, serviceCode, page, limit = 50, round, flagged }) => ({
        url: call,
        method: 'POST',
        params: { page, limit, ...(round === undefined ? {} : roundParam(round)), ...(flagged ? { flagged: true } : {}) },
        body: { serviceCode },
      }),
      transformResponse: (response: ApiEnvelope<PagedList<VoteRow>>) => readPagedList(response.results),
      providesTags: (_result, _error, { call }) => [{ type: 'Ranking', id: call }],
    }),
    getVoterVotes: build.query<PagedList<VoteTransaction>, VoterVotesQuery>({
      query: ({ key, phoneNumber, round, page, limit = 50 }) => ({ url: `/v1/campaigns/${key}/votes`, params: { phoneNumber, ...roundParam(round), page, limit } }),
      transformResponse: (response: ApiEnvelope<PagedList<VoteTransaction>>) => readPagedList(response.results),
    }),
    getCampaignResults: build.query<CampaignResults, CampaignRoundQuery>({
      query: ({ key, round }) => ({ url: `/v1/campaigns/${key}/results`, params: roundParam(round) }),
      transformResponse: (response: ApiEnvelope<CampaignResults>) => response.results,
      providesTags: (_result, _error, { key, round }) => [{ type: 'Ranking', id: rankingTag(key, round) }],
    }),
    getCampaignTransactions: build.query<PagedList<Transaction>, CampaignTransactionsQuery>({
      query: ({ call, page, limit = 50, ...body }) => ({ url: call, method: 'POST', params: { page, limit }, body }),
      transformResponse: (response: ApiEnvelope<PagedList<Transaction>>) => readPagedList(response.results),
      providesTags: listTags('CampaignTransaction'),
    }),
    resolveCampaignTransaction: build.mutation<Transaction, CampaignResolve>({
      query: ({ call, id: _id, ...resolution }) => ({ url: call, method: 'POST', body: resolveBody(resolution) }),
      transformResponse: (response: ApiEnvelope<Transaction>) => response.results,
      onQueryStarted: ({ id }, lifecycle) => resolveInCachedLists(id, lifecycle),
      // What the server accepted is read again: the lists (campaign and regular), the timeline, the dashboard.
      invalidatesTags: (_result, error, { id }) =>
        error ? [] : [{ type: 'CampaignTransaction', id }, { type: 'Transaction', id }, { type: 'FailedTransaction', id }, { type: 'Dashboard', id: 'SUMMARY' }],
    }),
    getSuspicious: build.query<PagedList<SuspiciousVoter>, SuspiciousQuery>({
      query: ({ key, round, page, limit = 50 }) => ({ url: `/v1/campaigns/${key}/suspicious`, params: { ...roundParam(round), page, limit } }),
      transformResponse: (response: ApiEnvelope<PagedList<SuspiciousVoter>>) => readPagedList(response.results),
      providesTags: (_result, _error, { key }) => [{ type: 'Ranking', id: `suspicious:${key}` }],
    }),
    // Released votes count from now on: every ranking, result and suspicious list is read again, and the campaigns' totals.
    decideHeldVotes: build.mutation<{ votes: number }, HeldVotesDecision>({
      query: ({ key, phoneNumber, decision, reason, round }) => ({
        url: `/v1/campaigns/${key}/suspicious/${encodeURIComponent(phoneNumber)}/${decision}`,
        method: 'POST',
        body: { ...(decision === 'reject' ? { reason } : {}), ...(round ? { round } : {}) },
      }),
      transformResponse: (response: ApiEnvelope<{ votes: number }>) => response.results,
      invalidatesTags: (_result, error) => (error ? [] : ['Ranking', { type: 'Campaign', id: 'LIST' }]),
    }),
    // A mutation: a download is asked for once and not kept in the cache; the text is serializable, a Blob is not.
    exportRanking: build.mutation<CsvFile, CampaignRoundQuery>({
      query: ({ key, round }) => ({
        url: `/v1/campaigns/${key}/ranking/export`,
        params: roundParam(round),
        responseHandler: 'text',
      }),
      transformResponse: (csv: string, meta, { key, round }) => csvFileOf(csv, meta, `ranking-${key}-${round}.csv`),
    }),
  }),
});

export const {
  useGetCampaignsQuery,
  useGetRankingQuery,
  useGetVoterVotesQuery,
  useGetCampaignResultsQuery,
  useExportRankingMutation,
  useGetCampaignTransactionsQuery,
  useResolveCampaignTransactionMutation,
  useGetSuspiciousQuery,
  useDecideHeldVotesMutation,
} = campaignsApi;
