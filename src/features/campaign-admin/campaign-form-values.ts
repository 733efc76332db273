import * as yup from 'yup';
import type { CampaignBody } from '../../api/campaign-admin-api';
import type { Campaign } from '../../api/campaigns-api';
import { checkCampaignInput } from '../../domain/campaign-input';
import type { RoundKind } from '../../domain/campaign-rounds';
import { isoInZone, serviceTimeZone, zoneOffsetMs } from '../../domain/format';
import { DEFAULT_VELOCITY_PER_MINUTE } from '../../domain/vote-integrity';

/** A round as the form holds it: times as the datetime inputs show them, on the service zone's clock. */
export interface RoundFormValues {
  key: string;
  label: string;
  kind: RoundKind;
  /** Pairs of two of the campaign's teams; '' until chosen. */
  games: [string, string][];
  opensAt: string;
  closesAt: string;
  /** When the round was closed by hand (kept by the server through an edit); null while it is not. */
  closedAt: string | null;
}

export interface CampaignFormValues {
  key: string;
  name: string;
  serviceCode: string;
  teams: string[];
  votesPerRoundCap: string;
  votePrice: string;
  velocityPerMinute: string;
  holdSuspicious: boolean;
  rounds: RoundFormValues[];
}

export const emptyRound = (index: number): RoundFormValues => ({
  key: index === 0 ? 'general' : `round-${index + 1}`,
  label: index === 0 ? 'General' : `Round ${index + 1}`,
  kind: 'teams',
  games: [],
  opensAt: '',
  closesAt: '',
  closedAt: null,
});

export const emptyCampaignForm: CampaignFormValues = {
  key: '',
  name: '',
  serviceCode: '0',
  teams: [],
  votesPerRoundCap: '',
  votePrice: '',
  velocityPerMinute: String(DEFAULT_VELOCITY_PER_MINUTE),
  holdSuspicious: false,
  rounds: [emptyRound(0)],
};

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** An instant as a datetime input shows it ('2026-06-01T18:00'), on the service zone's clock. */
export function localTimeOf(iso: string | null | undefined, zone = serviceTimeZone()): string {
  return isoInZone(iso, zone).slice(0, 16);
}

/** A datetime input's value read on the service zone's clock, as ISO; '' is no time, anything else is left for the rules to refuse. */
export function isoOfLocalTime(local: string, zone = serviceTimeZone()): string | null {
  if (local.trim() === '') return null;
  const match = LOCAL_TIME.exec(local.trim());
  if (!match) return local;
  const [, y, mo, d, h, mi] = match.map(Number);
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  // The offset at the wall time read as UTC, then again at the instant it gives: right across a change of offset.
  const first = wall - zoneOffsetMs(wall, zone);
  return new Date(wall - zoneOffsetMs(first, zone)).toISOString();
}

/** A number field's text: '' is null (no cap, the category price); anything else must be a whole number, which the rules check. */
const numberOrNull = (text: string): number | null => (text.trim() === '' ? null : Number(text.trim()));

export function campaignFormOf(campaign: Campaign): CampaignFormValues {
  return {
    key: campaign.key,
    name: campaign.name,
    serviceCode: campaign.serviceCode,
    teams: [...campaign.teams],
    votesPerRoundCap: campaign.votesPerRoundCap === null ? '' : String(campaign.votesPerRoundCap),
    votePrice: campaign.votePrice === null ? '' : String(campaign.votePrice),
    velocityPerMinute: String(campaign.velocityPerMinute),
    holdSuspicious: campaign.holdSuspicious,
    rounds: campaign.rounds.map((round) => ({
      key: round.key,
      label: round.label,
      kind: round.kind,
      games: (round.games ?? []).map(([a, b]) => [a, b] as [string, string]),
      opensAt: localTimeOf(round.opensAt),
      closesAt: localTimeOf(round.closesAt),
      closedAt: round.closedAt ?? null,
    })),
  };
}

/** The body the API takes, from the form as typed; the shared rules (checkCampaignInput) judge it. */
export function campaignBodyOf(values: CampaignFormValues): CampaignBody {
  return {
    key: values.key.trim(),
    name: values.name,
    serviceCode: values.serviceCode === '0' ? '' : values.serviceCode,
    teams: values.teams,
    votesPerRoundCap: numberOrNull(values.votesPerRoundCap),
    votePrice: numberOrNull(values.votePrice),
    velocityPerMinute: numberOrNull(values.velocityPerMinute) ?? Number.NaN,
    holdSuspicious: values.holdSuspicious,
    rounds: values.rounds.map((round) => ({
      key: round.key.trim(),
      label: round.label,
      kind: round.kind,
      ...(round.kind === 'games' ? { games: round.games } : {}),
      opensAt: isoOfLocalTime(round.opensAt),
      closesAt: isoOfLocalTime(round.closesAt),
    })),
  };
}

/** Formik hands a schema its values with every '' made undefined: the form's texts are '' again. */
function emptyTextBack(value: unknown): unknown {
  if (value === undefined) return '';
  if (Array.isArray(value)) return value.map(emptyTextBack);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, emptyTextBack(v)]));
  return value;
}

/**
 * The form's schema: the very rules the API applies (src/domain/campaign-input.ts), so the form
 * and the API say the same words, each under its field ('rounds[1].games[0]').
 */
export const campaignFormSchema = yup.object().test('campaign', 'Please check the campaign', function check(values) {
  const checked = checkCampaignInput(campaignBodyOf(emptyTextBack(values) as CampaignFormValues));
  if (checked.value) return true;
  return new yup.ValidationError(checked.errors.map((error) => this.createError({ path: error.field, message: error.message })));
});
