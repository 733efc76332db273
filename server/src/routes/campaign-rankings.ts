import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parsePaging } from '../../../src/domain/paged-list';
import { campaignRankingSchema, campaignRoundSchema } from '../../../src/domain/schemas/campaigns';
import { rankingFilterSchema } from '../../../src/domain/schemas/vote-integrity';
import { AFCON_CAMPAIGN, cachedCampaigns, campaignRound, ownServiceCode, readableCampaign, WORLD_CUP_CAMPAIGN } from '../access/campaign-access';
import { pagedJson, sendJson } from '../http/envelope';
import { pagingQuery } from '../http/route-schemas';
import { validBody } from '../http/valid-body';
import { documented, results } from '../openapi';
import { ALL_ROUNDS, campaignVotesRepository, rankingDocsJson } from '../repositories/campaign-votes-repository';
import type { CampaignView } from '../repositories/campaigns-repository';
import { voteIntegrityRepository } from '../repositories/vote-integrity-repository';

/** The page, and 'flagged only' (`flagged=true`): the numbers with a vote-integrity flag. */
const rankingQuery = { type: 'object', properties: { ...pagingQuery.properties, flagged: { type: 'string', maxLength: 10 } } } as const;

type Paging = { page?: number; limit?: number; flagged?: string };

/** The ranking calls of SPEC §7 and DESIGN §3, each over one round of one campaign. */
const RANKINGS = [
  { path: '/v1/world/cup/better/all', key: WORLD_CUP_CAMPAIGN, round: ALL_ROUNDS, summary: 'World Cup ranking over all rounds' },
  { path: '/v1/world/cup/final/winner/better/all', key: WORLD_CUP_CAMPAIGN, round: 'final', summary: 'World Cup final winner ranking' },
  { path: '/v1/world/cup/week2/better/all', key: WORLD_CUP_CAMPAIGN, round: 'week2', summary: 'World Cup week 2 ranking' },
  { path: '/v1/world/cup/week3/better/all', key: WORLD_CUP_CAMPAIGN, round: 'week3', summary: 'World Cup week 3 ranking' },
  { path: '/v1/world/cup/week4/better/all', key: WORLD_CUP_CAMPAIGN, round: 'week4', summary: 'World Cup week 4 ranking' },
  { path: '/v1/afcon/2024/better/all', key: AFCON_CAMPAIGN, round: ALL_ROUNDS, summary: 'AFCON 2024 ranking over all rounds' },
];

/**
 * Phone numbers ranked by counted votes: most votes first, then the earlier last vote, then the
 * phone number, so pages never repeat or skip a voter. Each row carries its 50 newest votes.
 * Pages come from the answer cache (RANKING_CACHE_MS), after the caller's rights and input are checked.
 */
export default async function campaignRankingsRoutes(app: FastifyInstance) {
  const votes = campaignVotesRepository(app.db);
  const campaigns = cachedCampaigns(votes, app.answerCache);
  const integrity = voteIntegrityRepository(app.db);

  /** One ranking page of the campaign `key`, in the round `roundOf` picks for it (a round key or 'all'). */
  async function rankingPage(request: FastifyRequest, reply: FastifyReply, key: string, roundOf: (campaign: CampaignView) => string) {
    const campaign = await readableCampaign(campaigns, request, key);
    const query = request.query as Paging;
    const { page, limit, offset } = parsePaging(query, 50);
    const { flagged } = await validBody(rankingFilterSchema, { flagged: query.flagged });
    const { serviceCode } = await validBody(campaignRankingSchema, request.body);
    ownServiceCode(campaign, 'serviceCode', serviceCode);
    const round = roundOf(campaign);
    // The whole answer is kept as bytes: encoding a ~300 kB page again cost a hit more than all the rest.
    const body = await app.answerCache.answer(campaign.key, `ranking ${round} ${offset} ${limit}${flagged ? ' flagged' : ''}`, async () => {
      const only = flagged ? await integrity.flaggedNumbers(campaign.key, round) : undefined;
      const { rows, total } = await votes.rankingPage(campaign.key, round, offset, limit, only);
      const phones = rows.map((row) => row.phoneNumber);
      const figures = await app.answerCache.voterFigures(campaign.key, round, phones, (missing) => integrity.flagsOf(campaign.key, round, missing));
      return Buffer.from(pagedJson('User ranking by votes', rankingDocsJson(rows, campaign.serviceCode, figures), page, limit, total));
    });
    return sendJson(reply, body);
  }

  for (const { path, key, round, summary } of RANKINGS) {
    app.post(
      path,
      {
        schema: { tags: [key === AFCON_CAMPAIGN ? 'afcon 2024' : 'world cup'], summary, querystring: rankingQuery },
        onRequest: [app.authenticate],
        config: { afcon: key === AFCON_CAMPAIGN, swaggerTransform: documented({ body: campaignRankingSchema, query: rankingFilterSchema, results: results.page('VoteRow'), errors: { 404: 'The campaign is not set up' } }) },
      },
      (request, reply) => rankingPage(request, reply, key, () => round),
    );
  }

  app.post<{ Params: { key: string }; Querystring: Paging & { round?: string } }>(
    '/v1/campaigns/:key/ranking',
    {
      schema: {
        tags: ['campaigns'],
        summary: "Any campaign's ranking, of one round or over all rounds (no round, or 'all')",
        params: { type: 'object', properties: { key: { type: 'string', maxLength: 100 } }, required: ['key'] },
        querystring: { type: 'object', properties: { ...rankingQuery.properties, round: { type: 'string' } } },
      },
      onRequest: [app.authenticate],
      config: { afcon: true, swaggerTransform: documented({ body: campaignRankingSchema, query: campaignRoundSchema.concat(rankingFilterSchema), results: results.page('VoteRow') }) },
    },
    // The caller's rights come first; a round the campaign lacks (odd characters included) is a 400 on `round`.
    (request, reply) => rankingPage(request, reply, request.params.key, (campaign) => campaignRound(campaign, request.query.round?.trim())),
  );
}
