import { useGetCampaignsQuery } from '../../api/campaigns-api';
import type { CampaignKey } from '../../domain/campaigns';

/** The campaign's fixed service code, read from `GET /v1/campaigns` (DESIGN §3). */
export function useCampaignServiceCode(key: CampaignKey) {
  const campaigns = useGetCampaignsQuery();
  const serviceCode = campaigns.data?.find((c) => c.key === key)?.serviceCode;
  return { serviceCode, isError: campaigns.isError };
}
