import type { CampaignRound, CampaignStatus } from '../domain/campaign-rounds';
import type { CampaignKey, RankingRound } from '../domain/campaigns';
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
  key: CampaignKey;
  name: string;
  serviceCode: string;
  status: CampaignStatus;
  rounds: CampaignRound[];
  teams: string[];
  votesPerRoundCap: number | null;
  votePrice: number | null;
  totalVotes: number;
  revenue: number;
}

export interface RankingQuery {
  /** The ranking call of the screen, e.g. '/v1/world/cup/week2/better/all'. */
  call: string;
  serviceCode: string;
  page: number;
  limit?: number;
}

export interface VoterVotesQuery {
  key: CampaignKey;
  phoneNumber: string;
  round: RankingRound;
  page: number;
  limit?: number;
}

export interface CampaignRoundQuery {
  key: CampaignKey;
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

/** A resolve: the descriptor's resolve URL for the row, the row's id for the tags, and why. */
export interface CampaignResolve extends Resolution {
  call: string;
  id: string;
}

const rankingTag = (key: CampaignKey, round: RankingRound) => `${key}:${round}`;

export const campaignsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getCampaigns: build.query<Campaign[], void>({
      query: () => '/v1/campaigns',
      transformResponse: (response: ApiEnvelope<Campaign[]>) => response.results,
      providesTags: [{ type: 'Campaign', id: 'LIST' }],
    }),
    getRanking: build.query<PagedList<VoteRow>, RankingQuery>({
      query: ({ call, serviceCode, page, limit = 50 }) => ({ url: call, method: 'POST', params: { page, limit }, body: { serviceCode } }),
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
} = campaignsApi;
