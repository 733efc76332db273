/**
 * The vote campaigns' screens (SPEC §2, DESIGN §3 and §5): keys, paths and titles, read by the
 * sidebar and by the campaigns feature alike. Service codes, rounds and teams come from
 * `GET /v1/campaigns`.
 */
export type CampaignKey = 'world-cup-2022' | 'afcon-2024';

export type CampaignListKind = 'transactions' | 'failed' | 'search';

/** A round's key ('general', 'week2', a created campaign's own), or 'all' for the rankings over every round. */
export type RankingRound = string;

/** The overall ranking's round. */
export const ALL_ROUNDS = 'all';

interface ScreenEntryBase {
  path: string;
  /** The screen's heading. */
  title: string;
  /** Its entry in the admins' 'Campaigns' menu group, short enough for the sidebar. */
  menuLabel: string;
}

export type CampaignScreenEntry = (ScreenEntryBase & { kind: CampaignListKind }) | (ScreenEntryBase & { kind: 'ranking'; round: RankingRound });

export interface CampaignInfo {
  key: string;
  name: string;
  screens: readonly CampaignScreenEntry[];
}

export const WORLD_CUP: CampaignInfo = {
  key: 'world-cup-2022',
  name: 'World Cup 2022',
  screens: [
    { kind: 'transactions', path: '/world/cup/transactions', title: 'World Cup Transactions', menuLabel: 'World Cup Transactions' },
    { kind: 'failed', path: '/world/cup/failed', title: 'World Cup Failed Transactions', menuLabel: 'World Cup Failed' },
    { kind: 'search', path: '/world/cup/search', title: 'World Cup Trans Search', menuLabel: 'World Cup Search' },
    { kind: 'ranking', round: 'all', path: '/world/cup/most/general', title: 'World Cup Overall Ranking', menuLabel: 'World Cup Overall' },
    { kind: 'ranking', round: 'week2', path: '/world/cup/week/2/ranking', title: 'World Cup Week 2 Ranking', menuLabel: 'World Cup Week 2' },
    { kind: 'ranking', round: 'week3', path: '/world/cup/week/3/ranking', title: 'World Cup Week 3 Ranking', menuLabel: 'World Cup Week 3' },
    { kind: 'ranking', round: 'week4', path: '/world/cup/week/4/ranking', title: 'World Cup Week 4 Ranking', menuLabel: 'World Cup Week 4' },
    { kind: 'ranking', round: 'final', path: '/world/cup/final/winner', title: 'World Cup Final Winner Ranking', menuLabel: 'World Cup Final Winner' },
  ],
};

export const AFCON: CampaignInfo = {
  key: 'afcon-2024',
  name: 'AFCON 2024',
  screens: [
    { kind: 'transactions', path: '/afcon/2024/transactions', title: 'Afcon Transactions', menuLabel: 'Afcon Transactions' },
    { kind: 'failed', path: '/afcon/2024/failed', title: 'Afcon Failed Transactions', menuLabel: 'Afcon Failed' },
    { kind: 'search', path: '/afcon/2024/search', title: 'Afcon Trans Search', menuLabel: 'Afcon Search' },
    { kind: 'ranking', round: 'all', path: '/afcon/2024/ranking', title: 'Afcon Ranking', menuLabel: 'Afcon Ranking' },
  ],
};

export const CAMPAIGNS: readonly CampaignInfo[] = [WORLD_CUP, AFCON];

/** Whether a campaign is one of SPEC's two, whose screens keep SPEC's paths. */
export function isSpecCampaign(key: string): key is CampaignKey {
  return CAMPAIGNS.some((campaign) => campaign.key === key);
}

/**
 * The screens every campaign has under `/campaigns/{key}/…`: SPEC's four kinds (the ranking's round
 * chosen on the screen, `?round=`) and the suspicious numbers of vote integrity.
 */
export const CAMPAIGN_SCREEN_KINDS = ['transactions', 'failed', 'search', 'ranking', 'suspicious'] as const;
export type CampaignScreenKind = (typeof CAMPAIGN_SCREEN_KINDS)[number];

/** A campaign's screen by key: `/campaigns/cecafa-2025/ranking`. */
export const campaignScreenPath = (key: string, kind: CampaignScreenKind) => `/campaigns/${key}/${kind}`;

/** `/campaigns/{key}/{kind}`: the key and kind of a campaign's screen path, or null for any other path. */
export function campaignScreenAt(path: string): { key: string; kind: CampaignScreenKind } | null {
  const match = /^\/campaigns\/([a-z0-9-]{1,50})\/([a-z]+)$/.exec(path);
  const kind = CAMPAIGN_SCREEN_KINDS.find((k) => k === match?.[2]);
  return match && kind ? { key: match[1], kind } : null;
}

/** A campaign's screens under its key, titled and labelled after its name as SPEC's are. */
export function keyedCampaignScreens({ key, name }: { key: string; name: string }): (ScreenEntryBase & { kind: CampaignScreenKind })[] {
  const entry = (kind: CampaignScreenKind, title: string, menuLabel: string) => ({ kind, path: campaignScreenPath(key, kind), title: `${name} ${title}`, menuLabel: `${name} ${menuLabel}` });
  return [
    entry('transactions', 'Transactions', 'Transactions'),
    entry('failed', 'Failed Transactions', 'Failed'),
    entry('search', 'Trans Search', 'Search'),
    entry('ranking', 'Ranking', 'Ranking'),
    entry('suspicious', 'Suspicious Numbers', 'Suspicious'),
  ];
}

/** The rounds query value: a round name, or nothing for every round. */
export function roundParam(round: RankingRound): { round?: string } {
  return round === 'all' ? {} : { round };
}

/** SPEC §2 'View more': a phone number is shown with a plus prefix. */
export function withPlus(phoneNumber: string): string {
  return phoneNumber.startsWith('+') ? phoneNumber : `+${phoneNumber}`;
}

/** SPEC §2: 'teamName2 vs teamName' for a game, 'General prediction' without a second team. */
export function voteGame(vote: { teamName: string; teamName2?: string | null }): string {
  return vote.teamName2 ? `${vote.teamName2} vs ${vote.teamName}` : 'General prediction';
}

/** A campaign's name by key ('World Cup 2022'); the key itself for a campaign this code does not know. */
export function campaignName(key: string): string {
  return CAMPAIGNS.find((campaign) => campaign.key === key)?.name ?? key;
}

/** What a vote call picked: the team, its game ('' for a general pick), its campaign and round. */
export interface VotePick {
  pick: string;
  game: string;
  campaign: string;
  round: string;
}

/** A call's vote (shown pick first, wherever a vote appears), or null for a call that is no vote. */
export function votePick(call: { teamName?: string | null; teamName2?: string | null; campaignKey?: string | null; round?: string | null }): VotePick | null {
  if (!call.teamName) return null;
  return {
    pick: call.teamName,
    game: call.teamName2 ? voteGame({ teamName: call.teamName, teamName2: call.teamName2 }) : '',
    campaign: call.campaignKey ? campaignName(call.campaignKey) : '',
    round: call.round ?? '',
  };
}
