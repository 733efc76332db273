import type { CampaignInput } from '../domain/campaign-input';
import type { ApiEnvelope } from '../domain/entities';
import { baseApi } from './base-api';
import type { Campaign } from './campaigns-api';

/** What a create sends; an edit sends the same without the key. */
export type CampaignBody = CampaignInput;

// The admin's list is the campaigns API's own query (one GET /v1/campaigns for the sidebar, the
// campaign screens and this list); every write here invalidates its tag, so the whole app reads again.
const CAMPAIGN_LIST = [{ type: 'Campaign' as const, id: 'LIST' }];

export const campaignAdminApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    createCampaign: build.mutation<Campaign, CampaignBody>({
      query: (body) => ({ url: '/v1/campaigns', method: 'POST', body }),
      transformResponse: (response: ApiEnvelope<Campaign>) => response.results,
      invalidatesTags: (_result, error) => (error ? [] : CAMPAIGN_LIST),
    }),
    updateCampaign: build.mutation<Campaign, Omit<CampaignBody, 'key'> & { key: string }>({
      query: ({ key, ...body }) => ({ url: `/v1/campaigns/${encodeURIComponent(key)}`, method: 'PATCH', body }),
      transformResponse: (response: ApiEnvelope<Campaign>) => response.results,
      invalidatesTags: (_result, error) => (error ? [] : CAMPAIGN_LIST),
    }),
    publishCampaign: build.mutation<Campaign, string>({
      query: (key) => ({ url: `/v1/campaigns/${encodeURIComponent(key)}/publish`, method: 'POST' }),
      transformResponse: (response: ApiEnvelope<Campaign>) => response.results,
      invalidatesTags: (_result, error) => (error ? [] : CAMPAIGN_LIST),
    }),
    closeCampaign: build.mutation<Campaign, string>({
      query: (key) => ({ url: `/v1/campaigns/${encodeURIComponent(key)}/close`, method: 'POST' }),
      transformResponse: (response: ApiEnvelope<Campaign>) => response.results,
      invalidatesTags: (_result, error) => (error ? [] : CAMPAIGN_LIST),
    }),
    closeCampaignRound: build.mutation<Campaign, { key: string; round: string }>({
      query: ({ key, round }) => ({ url: `/v1/campaigns/${encodeURIComponent(key)}/rounds/${encodeURIComponent(round)}/close`, method: 'POST' }),
      transformResponse: (response: ApiEnvelope<Campaign>) => response.results,
      invalidatesTags: (_result, error) => (error ? [] : CAMPAIGN_LIST),
    }),
  }),
});

export const {
  useCreateCampaignMutation,
  useUpdateCampaignMutation,
  usePublishCampaignMutation,
  useCloseCampaignMutation,
  useCloseCampaignRoundMutation,
} = campaignAdminApi;
