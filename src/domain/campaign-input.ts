import type { CampaignRound, RoundKind } from './campaign-rounds';
import type { FieldError } from './entities';
import { DEFAULT_VELOCITY_PER_MINUTE } from './vote-integrity';

/**
 * A campaign as staff create or edit it (`POST /v1/campaigns`, `PATCH /v1/campaigns/{key}`), and
 * the checks it must pass, one message per field; the same rules serve the form and the API.
 */
export interface CampaignInput {
  key: string;
  name: string;
  serviceCode: string;
  teams: string[];
  votesPerRoundCap: number | null;
  votePrice: number | null;
  /** Votes one number may cast in any minute before it is flagged `velocity`. */
  velocityPerMinute: number;
  /** Whether a flagged number's new votes settle held out of the counts until a reviewer decides. */
  holdSuspicious: boolean;
  rounds: RoundInput[];
}

export type RoundInput = Pick<CampaignRound, 'key' | 'label' | 'kind' | 'games' | 'opensAt' | 'closesAt'>;

export const CAMPAIGN_KEY_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,48}[a-z0-9])?$/;
const ROUND_KEY_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,28}[a-z0-9])?$/;
/** What a voter's handset can page through on one USSD list (97 options). */
export const MAX_TEAMS = 97;
export const MAX_GAMES = 97;
export const MAX_ROUNDS = 20;
/** The key the rankings use for every round at once; no round may take it. */
const RESERVED_ROUND_KEYS = new Set(['all']);

export const CAMPAIGN_MESSAGES = {
  key: 'Key must be 1 to 50 characters of a-z, 0-9 and -, starting and ending with a letter or digit',
  name: 'Please provide a name of at most 100 characters',
  serviceCode: 'Please provide a service code',
  teams: `Please provide 2 to ${MAX_TEAMS} teams`,
  team: 'A team is a name of 1 to 50 characters',
  teamTwice: 'This team is listed twice',
  cap: 'The cap is a whole number from 1 to 1,000,000, or empty for no cap',
  price: 'The vote price is a whole number of UGX from 1 to 10,000,000, or empty for the category price',
  velocity: 'Votes a minute is a whole number from 1 to 10,000',
  hold: 'Hold suspicious votes is true or false',
  rounds: `Please provide 1 to ${MAX_ROUNDS} rounds`,
  roundKey: "A round key is 1 to 30 characters of a-z, 0-9 and -, and not 'all'",
  roundTwice: 'This round key is used twice',
  label: 'A round label is 1 to 40 characters',
  kind: "The kind is 'teams' or 'games'",
  games: `A games round needs 1 to ${MAX_GAMES} games`,
  noGames: 'Only a games round has games',
  game: 'A game is two different teams of the campaign',
  gameTwice: 'This game is listed twice',
  time: 'A time is an ISO date and time, or empty',
  closesBeforeOpens: 'The round must close after it opens',
} as const;

/** Text a person typed: no control characters (NUL included), trimmed, within `max`. */
function cleanText(value: unknown, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return undefined;
  const text = value.trim();
  return text.length >= 1 && text.length <= max ? text : undefined;
}

const wholeIn = (value: unknown, min: number, max: number) => typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

function time(value: unknown): string | null | undefined {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || value.length > 40 || !/^\d{4}-\d{2}-\d{2}T/.test(value)) return undefined;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : new Date(at).toISOString();
}

/**
 * Checks a whole campaign (a create's body, or a stored campaign with a PATCH's fields over it) and
 * answers it cleaned, or the field errors (`teams[2]`, `rounds[1].games[0]`). Fields it does not
 * know are left out.
 */
export function checkCampaignInput(body: unknown): { value: CampaignInput; errors: [] } | { value: null; errors: FieldError[] } {
  const input = (body && typeof body === 'object' && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  const errors: FieldError[] = [];
  const fail = (field: string, message: string) => {
    errors.push({ field, message });
    return undefined;
  };

  const key = typeof input.key === 'string' && CAMPAIGN_KEY_PATTERN.test(input.key) ? input.key : fail('key', CAMPAIGN_MESSAGES.key);
  const name = cleanText(input.name, 100) ?? fail('name', CAMPAIGN_MESSAGES.name);
  const serviceCode = cleanText(input.serviceCode, 50) ?? fail('serviceCode', CAMPAIGN_MESSAGES.serviceCode);

  const teams: string[] = [];
  if (!Array.isArray(input.teams) || input.teams.length < 2 || input.teams.length > MAX_TEAMS) fail('teams', CAMPAIGN_MESSAGES.teams);
  else {
    const seen = new Set<string>();
    input.teams.forEach((given, i) => {
      const team = cleanText(given, 50);
      if (team === undefined) return fail(`teams[${i}]`, CAMPAIGN_MESSAGES.team);
      if (seen.has(team.toLowerCase())) return fail(`teams[${i}]`, CAMPAIGN_MESSAGES.teamTwice);
      seen.add(team.toLowerCase());
      teams.push(team);
    });
  }

  const cap = input.votesPerRoundCap ?? null;
  if (cap !== null && !wholeIn(cap, 1, 1_000_000)) fail('votesPerRoundCap', CAMPAIGN_MESSAGES.cap);
  const price = input.votePrice ?? null;
  if (price !== null && !wholeIn(price, 1, 10_000_000)) fail('votePrice', CAMPAIGN_MESSAGES.price);
  const velocityPerMinute = input.velocityPerMinute ?? DEFAULT_VELOCITY_PER_MINUTE;
  if (!wholeIn(velocityPerMinute, 1, 10_000)) fail('velocityPerMinute', CAMPAIGN_MESSAGES.velocity);
  const holdSuspicious = input.holdSuspicious ?? false;
  if (typeof holdSuspicious !== 'boolean') fail('holdSuspicious', CAMPAIGN_MESSAGES.hold);

  const rounds: RoundInput[] = [];
  if (!Array.isArray(input.rounds) || input.rounds.length < 1 || input.rounds.length > MAX_ROUNDS) fail('rounds', CAMPAIGN_MESSAGES.rounds);
  else {
    const keys = new Set<string>();
    const known = new Set(teams);
    input.rounds.forEach((given, i) => {
      const at = `rounds[${i}]`;
      if (!given || typeof given !== 'object' || Array.isArray(given)) return fail(at, CAMPAIGN_MESSAGES.roundKey);
      const r = given as Record<string, unknown>;
      let roundKey = typeof r.key === 'string' && ROUND_KEY_PATTERN.test(r.key) && !RESERVED_ROUND_KEYS.has(r.key) ? r.key : fail(`${at}.key`, CAMPAIGN_MESSAGES.roundKey);
      if (roundKey !== undefined && keys.has(roundKey)) roundKey = fail(`${at}.key`, CAMPAIGN_MESSAGES.roundTwice);
      if (roundKey !== undefined) keys.add(roundKey);
      const label = cleanText(r.label, 40) ?? fail(`${at}.label`, CAMPAIGN_MESSAGES.label);
      const kind = r.kind === 'teams' || r.kind === 'games' ? (r.kind as RoundKind) : fail(`${at}.kind`, CAMPAIGN_MESSAGES.kind);
      const games: [string, string][] = [];
      if (kind === 'games') {
        if (!Array.isArray(r.games) || r.games.length < 1 || r.games.length > MAX_GAMES) fail(`${at}.games`, CAMPAIGN_MESSAGES.games);
        else {
          const pairs = new Set<string>();
          r.games.forEach((game, g) => {
            const [a, b] = Array.isArray(game) && game.length === 2 ? game.map((team) => cleanText(team, 50)) : [];
            if (a === undefined || b === undefined || a === b || !known.has(a) || !known.has(b)) return fail(`${at}.games[${g}]`, CAMPAIGN_MESSAGES.game);
            const pair = [a, b].sort().join('\u0000');
            if (pairs.has(pair)) return fail(`${at}.games[${g}]`, CAMPAIGN_MESSAGES.gameTwice);
            pairs.add(pair);
            games.push([a, b]);
          });
        }
      } else if (kind === 'teams' && r.games !== undefined && r.games !== null && !(Array.isArray(r.games) && r.games.length === 0)) {
        fail(`${at}.games`, CAMPAIGN_MESSAGES.noGames);
      }
      const opensAt = time(r.opensAt);
      if (opensAt === undefined) fail(`${at}.opensAt`, CAMPAIGN_MESSAGES.time);
      const closesAt = time(r.closesAt);
      if (closesAt === undefined) fail(`${at}.closesAt`, CAMPAIGN_MESSAGES.time);
      else if (closesAt && opensAt && Date.parse(closesAt) <= Date.parse(opensAt)) fail(`${at}.closesAt`, CAMPAIGN_MESSAGES.closesBeforeOpens);
      if (roundKey && label && kind) {
        rounds.push({ key: roundKey, label, kind, ...(kind === 'games' ? { games } : {}), opensAt: opensAt ?? null, closesAt: closesAt ?? null });
      }
    });
  }

  if (errors.length > 0) return { value: null, errors };
  return { value: { key: key!, name: name!, serviceCode: serviceCode!, teams, votesPerRoundCap: cap as number | null, votePrice: price as number | null, velocityPerMinute: velocityPerMinute as number, holdSuspicious: holdSuspicious as boolean, rounds }, errors: [] };
}
