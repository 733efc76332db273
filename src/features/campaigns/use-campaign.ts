import { useEffect } from 'react';
import { useSnackbar } from 'notistack';
import { useGetCampaignsQuery } from '../../api/campaigns-api';
import type { CampaignKey } from '../../domain/campaigns';

/** The campaign's fixed service code, read from `GET /v1/campaigns` (DESIGN §3). */
export function useCampaignServiceCode(key: CampaignKey) {
  const campaigns = useGetCampaignsQuery();
  const serviceCode = campaigns.data?.find((c) => c.key === key)?.serviceCode;
  return { serviceCode, isError: campaigns.isError };
}

/**
 * SPEC §8: each finished load says what it loaded, or 'Unexpected error'. `quiet` keeps the
 * success toast back, so a live ranking does not toast every 10 seconds.
 */
export function useLoadToasts(load: { requestId?: string; isFetching: boolean; isError: boolean }, message: string, quiet = false) {
  const { enqueueSnackbar } = useSnackbar();
  const { requestId, isFetching, isError } = load;
  useEffect(() => {
    if (isError && !isFetching) enqueueSnackbar('Unexpected error', { variant: 'error' });
    else if (requestId && !isFetching && !quiet) enqueueSnackbar(message, { variant: 'success' });
    // Once per request: message and quiet are read when that request ends.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [requestId, isFetching, isError]);
}
