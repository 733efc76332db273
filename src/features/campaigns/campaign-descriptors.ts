import type { Campaign } from '../../api/campaigns-api';
import type { CampaignRound } from '../../domain/campaign-rounds';
import { AFCON, ALL_ROUNDS, keyedCampaignScreens, WORLD_CUP, type CampaignInfo, type CampaignScreenEntry } from '../../domain/campaigns';

/** The list calls of a campaign (DESIGN §3), each `POST ...?page=&limit=50` answering paged transactions. */
export interface CampaignListCalls {
  /** Body `{ name, date }`: the campaign's service code and a day, default today. */
  transactions: string;
  /** Body `{ name?, date? }`: no date means every day. */
  failed: string;
  /** Body `{ isResolved: true }`; answers the row. */
  resolve: (id: string) => string;
  /** Body `{ ids, reason?, note? }`; answers each id's outcome (Resolve selected). */
  bulkResolve: string;
  /** Body `{ phoneNumber }`. */
  search: string;
}

/** A screen entry with the call it makes: a list call, or its ranking call (`POST` body `{ serviceCode }`). */
export type CampaignScreen = CampaignScreenEntry & { call: string };

/**
 * One campaign for the campaign module (DESIGN §5): its routes, calls and extras. The fixed
 * service code is not here: it is read from `GET /v1/campaigns` by `key`; the list columns are
 * `useTransactionColumns(kind, { subject: 'team' })`.
 */
export interface CampaignDescriptor {
  key: string;
  name: string;
  screens: readonly CampaignScreen[];
  lists: CampaignListCalls;
  /**
   * The rounds a keyed campaign's ranking screen chooses between (`?round=`, its ranking call
   * taking the round as a query); null for SPEC's campaigns, whose rankings are a screen per round.
   */
  rounds: CampaignRound[] | null;
  extras: {
    /** AFCON shows its service code in green (SPEC §2). */
    greenServiceCode: boolean;
    /** AFCON adds the line 'Transactions for {date} ( total )' above its lists (SPEC §2). */
    dayTotalLine: boolean;
    /** What SPEC's campaign lists lack, on a keyed campaign's: the count in the heading, the Amount column, Export CSV. */
    listExtras: boolean;
  };
}

const listCalls = (prefix: string): CampaignListCalls => ({
  transactions: `${prefix}/analysis/all`,
  failed: `${prefix}/analysis/to/give/attention`,
  resolve: (id) => `${prefix}/analysis/to/give/attention/${encodeURIComponent(id)}`,
  bulkResolve: `${prefix}/analysis/to/give/attention/bulk`,
  search: `${prefix}/analysis/search`,
});

function withCalls(info: CampaignInfo, lists: CampaignListCalls, rankings: Partial<Record<string, string>>): CampaignScreen[] {
  return info.screens.map((entry) => {
    const call = entry.kind === 'ranking' ? rankings[entry.round] : lists[entry.kind];
    if (!call) throw new Error(`${info.key}: no call for ${entry.path}`);
    return { ...entry, call };
  });
}

const worldCupLists = listCalls('/v1/world/cup');
export const WORLD_CUP_DESCRIPTOR: CampaignDescriptor = {
  key: WORLD_CUP.key,
  name: WORLD_CUP.name,
  lists: worldCupLists,
  rounds: null,
  extras: { greenServiceCode: false, dayTotalLine: false, listExtras: false },
  screens: withCalls(WORLD_CUP, worldCupLists, {
    all: '/v1/world/cup/better/all',
    week2: '/v1/world/cup/week2/better/all',
    week3: '/v1/world/cup/week3/better/all',
    week4: '/v1/world/cup/week4/better/all',
    final: '/v1/world/cup/final/winner/better/all',
  }),
};

const afconLists = listCalls('/v1/afcon/2024');
export const AFCON_DESCRIPTOR: CampaignDescriptor = {
  key: AFCON.key,
  name: AFCON.name,
  lists: afconLists,
  rounds: null,
  extras: { greenServiceCode: true, dayTotalLine: true, listExtras: false },
  screens: withCalls(AFCON, afconLists, { all: '/v1/afcon/2024/better/all' }),
};

export const CAMPAIGN_DESCRIPTORS: readonly CampaignDescriptor[] = [WORLD_CUP_DESCRIPTOR, AFCON_DESCRIPTOR];

/**
 * A campaign of `GET /v1/campaigns` as the campaign screens take it, under `/campaigns/{key}/…`
 * with the keyed calls (`/v1/campaigns/{key}/…`): one ranking screen whose round is chosen on it,
 * and the suspicious numbers.
 */
export function keyedDescriptor(campaign: Pick<Campaign, 'key' | 'name' | 'rounds'>): CampaignDescriptor {
  const calls = `/v1/campaigns/${encodeURIComponent(campaign.key)}`;
  const lists: CampaignListCalls = {
    transactions: `${calls}/transactions`,
    failed: `${calls}/failed`,
    resolve: (id) => `${calls}/failed/${encodeURIComponent(id)}`,
    bulkResolve: `${calls}/failed/bulk`,
    search: `${calls}/search`,
  };
  const screens = keyedCampaignScreens(campaign).flatMap((entry): CampaignScreen[] => {
    if (entry.kind === 'ranking') return [{ ...entry, kind: 'ranking', round: ALL_ROUNDS, call: `${calls}/ranking` }];
    if (entry.kind === 'suspicious') return [];
    return [{ ...entry, kind: entry.kind, call: lists[entry.kind] }];
  });
  return {
    key: campaign.key,
    name: campaign.name,
    lists,
    rounds: campaign.rounds,
    extras: { greenServiceCode: false, dayTotalLine: false, listExtras: true },
    screens,
  };
}

/** The campaign's descriptor: SPEC's own for its two, a keyed one for any other. */
export function descriptorOf(campaign: Pick<Campaign, 'key' | 'name' | 'rounds'>): CampaignDescriptor {
  return CAMPAIGN_DESCRIPTORS.find((descriptor) => descriptor.key === campaign.key) ?? keyedDescriptor(campaign);
}
