import { useGetCampaignsQuery } from '../../api/campaigns-api';

/** The campaign's fixed service code, read from `GET /v1/campaigns` (DESIGN §3). */
export function useCampaignServiceCode(key: string) {
  const campaigns = useGetCampaignsQuery();
  const serviceCode = campaigns.data?.find((c) => c.key === key)?.serviceCode;
  return { serviceCode, isError: campaigns.isError };
}
