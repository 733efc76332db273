/**
 * A campaign and its rounds as data (DESIGN §6): what each round asks a voter, one rule for the
 * demo votes (seed), the USSD menu and the API alike.
 * - kind 'teams': pick one of the campaign's teams (or a TV vote's contestants).
 * - kind 'games': pick the winner of one of the round's own games, entered as pairs.
 */
export type CampaignStatus = 'draft' | 'live' | 'closed';
export const CAMPAIGN_STATUSES: readonly CampaignStatus[] = ['draft', 'live', 'closed'];

export type RoundKind = 'teams' | 'games';
export const ROUND_KINDS: readonly RoundKind[] = ['teams', 'games'];

/** A game: the first team is named first. */
export type Game = readonly [string, string];

export interface CampaignRound {
  key: string;
  label: string;
  kind: RoundKind;
  /** A games round's games; absent for a teams round. */
  games?: [string, string][];
  /** ISO times: the round takes votes from `opensAt` (or publishing) until `closesAt` or a close by hand (`closedAt`). */
  opensAt?: string | null;
  closesAt?: string | null;
  closedAt?: string | null;
}

/** What a round asks a voter. */
export type RoundChoice = { kind: 'teams'; teams: string[] } | { kind: 'games'; games: Game[] };

/** UGX a vote costs when the campaign sets no price and its service code has no priced category level (the demo votes' price). */
export const DEFAULT_VOTE_PRICE = 500;

export function roundChoice(round: Pick<CampaignRound, 'kind' | 'games'>, teams: readonly string[]): RoundChoice {
  if (round.kind === 'games') return { kind: 'games', games: (round.games ?? []).map(([a, b]) => [a, b] as const) };
  return { kind: 'teams', teams: [...teams] };
}

/** Whether a round takes votes at `at`: opened, not past its closing time, not closed by hand. */
export function roundIsOpen(round: CampaignRound, at: Date): boolean {
  const time = at.getTime();
  if (round.closedAt && Date.parse(round.closedAt) <= time) return false;
  if (round.opensAt && Date.parse(round.opensAt) > time) return false;
  if (round.closesAt && Date.parse(round.closesAt) <= time) return false;
  return true;
}

const WEEK = /^week(\d+)$/;

/** A stored round key in words when its label is not at hand: 'General', 'Week 2', 'Final'. */
export function roundLabel(round: string): string {
  const week = WEEK.exec(round);
  if (week) return `Week ${Number(week[1])}`;
  return round.charAt(0).toUpperCase() + round.slice(1);
}
