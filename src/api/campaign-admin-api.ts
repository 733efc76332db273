import type { CampaignInput } from '../domain/campaign-input';
import type { ApiEnvelope } from '../domain/entities';
import { baseApi } from './base-api';
import type { Campaign } from './campaigns-api';

/** A campaign as an admin manages it: the list's campaign with when it was published and closed. */
export interface ManagedCampaign extends Campaign {
  publishedAt: string | null;
  closedAt: string | null;
}

/** What a create sends; an edit sends the same without the key. */
export type CampaignBody = CampaignInput;

// The list tag the campaigns API provides (the sidebar's live campaigns, the campaign screens):
// every write here invalidates it, so the whole app reads the campaigns again.
const CAMPAIGN_LIST = [{ type: 'Campaign' as const, id: 'LIST' }];

export const campaignAdminApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getManagedCampaigns: build.query<ManagedCampaign[], void>({
      query: () => '/v1/campaigns',
      transformResponse: (response: ApiEnvelope<ManagedCampaign[]>) => response.results,
      providesTags: CAMPAIGN_LIST,
    }),
    createCampaign: build.mutation<ManagedCampaign, CampaignBody>({
      query: (body) => ({ url: '/v1/campaigns', method: 'POST', body }),
      transformResponse: (response: ApiEnvelope<ManagedCampaign>) => response.results,
      invalidatesTags: (_result, error) => (error ? [] : CAMPAIGN_LIST),
    }),
    updateCampaign: build.mutation<ManagedCampaign, Omit<CampaignBody, 'key'> & { key: string }>({
      query: ({ key, ...body }) => ({ url: `/v1/campaigns/${encodeURIComponent(key)}`, method: 'PATCH', body }),
      transformResponse: (response: ApiEnvelope<ManagedCampaign>) => response.results,
      invalidatesTags: (_result, error) => (error ? [] : CAMPAIGN_LIST),
    }),
    publishCampaign: build.mutation<ManagedCampaign, string>({
      query: (key) => ({ url: `/v1/campaigns/${encodeURIComponent(key)}/publish`, method: 'POST' }),
      transformResponse: (response: ApiEnvelope<ManagedCampaign>) => response.results,
      invalidatesTags: (_result, error) => (error ? [] : CAMPAIGN_LIST),
    }),
    closeCampaign: build.mutation<ManagedCampaign, string>({
      query: (key) => ({ url: `/v1/campaigns/${encodeURIComponent(key)}/close`, method: 'POST' }),
      transformResponse: (response: ApiEnvelope<ManagedCampaign>) => response.results,
      invalidatesTags: (_result, error) => (error ? [] : CAMPAIGN_LIST),
    }),
    closeCampaignRound: build.mutation<ManagedCampaign, { key: string; round: string }>({
      query: ({ key, round }) => ({ url: `/v1/campaigns/${encodeURIComponent(key)}/rounds/${encodeURIComponent(round)}/close`, method: 'POST' }),
      transformResponse: (response: ApiEnvelope<ManagedCampaign>) => response.results,
      invalidatesTags: (_result, error) => (error ? [] : CAMPAIGN_LIST),
    }),
  }),
});

export const {
  useGetManagedCampaignsQuery,
  useCreateCampaignMutation,
  useUpdateCampaignMutation,
  usePublishCampaignMutation,
  useCloseCampaignMutation,
  useCloseCampaignRoundMutation,
} = campaignAdminApi;
