/**
 * What a campaign round asks a voter (DESIGN §6), one rule for the demo votes (seed) and the USSD
 * menu alike. Teams are listed favourites first.
 * - 'general' (and any round that is not a week or the final): pick one team.
 * - 'weekN': pick the winner of one of the round's games. Week 2 is the first game round with
 *   teams/2 games, each next week half as many; game i is team i against team i + games.
 * - 'final': the one game between the two favourites (World Cup 2022: Argentina v France).
 */
export type RoundChoice = { kind: 'teams'; teams: string[] } | { kind: 'games'; games: Game[] };

/** A game: the first team is the favourite. */
export type Game = readonly [string, string];

/** UGX a vote costs when the campaign's service code has no priced category level (the demo votes' price). */
export const DEFAULT_VOTE_PRICE = 500;

const WEEK = /^week(\d+)$/;

export function roundChoice(round: string, teams: readonly string[]): RoundChoice {
  if (round === 'final' && teams.length >= 2) return { kind: 'games', games: [[teams[0], teams[1]]] };
  const week = WEEK.exec(round);
  if (!week || teams.length < 2) return { kind: 'teams', teams: [...teams] };
  const gameRound = Math.max(1, Number(week[1]) - 1);
  const count = Math.max(1, Math.floor(teams.length / 2) >> Math.min(30, gameRound - 1));
  return { kind: 'games', games: Array.from({ length: count }, (_, i) => [teams[i], teams[i + count]] as const) };
}

/** 'General', 'Week 2', 'Final'. */
export function roundLabel(round: string): string {
  const week = WEEK.exec(round);
  if (week) return `Week ${Number(week[1])}`;
  return round.charAt(0).toUpperCase() + round.slice(1);
}
