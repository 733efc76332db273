import type { FastifyRequest } from 'fastify';
import { isManager } from '../../../src/domain/roles';
import { forbidden, HttpError, notFound } from '../http/http-error';
import type { AnswerCache } from '../plugins/answer-cache';
import { ALL_ROUNDS, type CampaignVotesRepository } from '../repositories/campaign-votes-repository';
import type { CampaignView } from '../repositories/campaigns-repository';

/** The campaign the Afcon-only account may read (DESIGN §4). */
export const AFCON_CAMPAIGN = 'afcon-2024';
export const WORLD_CUP_CAMPAIGN = 'world-cup-2022';

/**
 * The campaign a caller asks for, if it may read it (DESIGN §4): admin and super-user any, the
 * Afcon-only account AFCON only, agents none. The routes of the Afcon calls allow that account in
 * (route config `afcon`); this decides which campaign.
 */
export async function readableCampaign(repo: CampaignFinder, request: FastifyRequest, key: string): Promise<CampaignView> {
  const { role, isAfcon } = request.user;
  if (!(isAfcon ? key === AFCON_CAMPAIGN : isManager(role))) throw forbidden('Only an admin can read the campaigns');
  // A key no campaign could have (odd characters, NUL) is unknown without asking the database.
  const campaign = /^[\w-]{1,50}$/.test(key) ? await repo.find(key) : undefined;
  if (!campaign) throw notFound('Campaign');
  return campaign;
}

type CampaignFinder = Pick<CampaignVotesRepository, 'find'>;

/** Campaigns looked up through the answer cache, so that a cached ranking or result costs no database work at all. */
export function cachedCampaigns(repo: CampaignFinder, cache: AnswerCache): CampaignFinder {
  return { find: (key) => cache.answer(key, 'campaign', () => repo.find(key)) };
}

/** A service code given for a campaign must be the campaign's own: 400 on that field otherwise. */
export function ownServiceCode(campaign: CampaignView, field: string, given: string | undefined) {
  if (given && given !== campaign.serviceCode) {
    const message = `${field} must be the campaign's service code ${campaign.serviceCode}`;
    throw new HttpError(400, message, [{ field, message }]);
  }
}

/** A round of the campaign, or `all` for every round (also when none is given); 400 otherwise. */
export function campaignRound(campaign: CampaignView, round: string | undefined): string {
  if (!round || round === ALL_ROUNDS) return ALL_ROUNDS;
  if (!campaign.rounds.some((r) => r.key === round)) throw new HttpError(400, 'Unknown round', [{ field: 'round', message: 'Unknown round' }]);
  return round;
}
