import type { FastifyInstance } from 'fastify';
import { auditEntityLabel } from '../../../src/domain/audit';
import { parsePaging } from '../../../src/domain/paged-list';
import { normalizePhoneNumber } from '../../../src/domain/phone';
import { campaignRoundSchema, campaignVotesSchema } from '../../../src/domain/schemas/campaigns';
import { cachedCampaigns, campaignRound, readableCampaign } from '../access/campaign-access';
import { CSV_CHUNK_ROWS, sendCsv } from '../http/csv-download';
import { envelopeJson, okPagedJson, sendJson } from '../http/envelope';
import { pagingQuery } from '../http/route-schemas';
import { validBody } from '../http/valid-body';
import { auditWho, recordAudit } from '../audit/record-audit';
import { documented, results, textAnswer } from '../openapi';
import { campaignVotesRepository } from '../repositories/campaign-votes-repository';

type Paging = { page?: number; limit?: number };
type KeyParams = { Params: { key: string } };

const keyParams = { type: 'object', properties: { key: { type: 'string', maxLength: 100 } }, required: ['key'] } as const;
const roundQuery = { type: 'object', properties: { round: { type: 'string' } } } as const;

export const RANKING_CSV_HEADER = 'rank,phoneNumber,serviceCode,votes,lastVoteAt\n';

/**
 * Per campaign (DESIGN §3): one voter's votes ('View more'), the team results chart and the
 * ranking as CSV. The Afcon-only account reaches AFCON's; `readableCampaign` decides. Team results come
 * from the answer cache (RANKING_CACHE_MS), like the ranking pages.
 */
export default async function campaignVotesRoutes(app: FastifyInstance) {
  const votes = campaignVotesRepository(app.db);
  const campaigns = cachedCampaigns(votes, app.answerCache);
  const guard = { onRequest: [app.authenticate], config: { afcon: true } };

  app.get<KeyParams>(
    '/v1/campaigns/:key/votes',
    {
      schema: {
        tags: ['campaigns'],
        summary: "One voter's counted votes, newest first",
        params: keyParams,
        querystring: { type: 'object', properties: { ...pagingQuery.properties, phoneNumber: { type: 'string' }, round: { type: 'string' } }, required: ['phoneNumber'] },
      },
      ...guard,
      config: { ...guard.config, swaggerTransform: documented({ query: campaignVotesSchema, results: results.page('VoteTransaction') }) },
    },
    async (request, reply) => {
      const campaign = await readableCampaign(campaigns, request, request.params.key);
      const query = request.query as Paging & { phoneNumber?: string; round?: string };
      const { phoneNumber, round } = await validBody(campaignVotesSchema, { phoneNumber: query.phoneNumber, round: query.round });
      const { page, limit, offset } = parsePaging(query, 50);
      const { docsJson, total } = await votes.votesPageJson(campaign.key, campaignRound(campaign, round), normalizePhoneNumber(phoneNumber), offset, limit);
      return okPagedJson(reply, 'Votes', docsJson, page, limit, total);
    },
  );

  app.get<KeyParams>(
    '/v1/campaigns/:key/results',
    {
      schema: { tags: ['campaigns'], summary: 'Votes per team and per game, total votes and distinct voters', params: keyParams, querystring: roundQuery },
      ...guard,
      config: { ...guard.config, swaggerTransform: documented({ query: campaignRoundSchema, results: results.entity('CampaignResults') }) },
    },
    async (request, reply) => {
      const campaign = await readableCampaign(campaigns, request, request.params.key);
      const { round: asked } = await validBody(campaignRoundSchema, request.query);
      const round = campaignRound(campaign, asked);
      // Kept as the answer's bytes, so a cached answer is neither serialized nor encoded again.
      const body = await app.answerCache.answer(campaign.key, `results ${round}`, async () => Buffer.from(envelopeJson('Team results', JSON.stringify(await votes.results(campaign.key, round)))));
      return sendJson(reply, body);
    },
  );

  app.get<KeyParams>(
    '/v1/campaigns/:key/ranking/export',
    {
      schema: { tags: ['campaigns'], summary: 'The whole ranking as CSV, in ranking order', params: keyParams, querystring: roundQuery },
      ...guard,
      config: { ...guard.config, swaggerTransform: documented({ query: campaignRoundSchema, answer: textAnswer('text/csv', 'rank,phoneNumber,serviceCode,votes,lastVoteAt, one line per voter') }) },
    },
    async (request, reply) => {
      const campaign = await readableCampaign(campaigns, request, request.params.key);
      const { round: asked } = await validBody(campaignRoundSchema, request.query);
      const round = campaignRound(campaign, asked);
      const file = `ranking-${campaign.key}-${round}.csv`;
      // Phone numbers leave the system: recorded first, with the round and how many voters it ranks.
      const { distinctVoters: rows } = await votes.results(campaign.key, round);
      const entity = { type: 'export' as const, id: null, label: auditEntityLabel('export', file) };
      await recordAudit(app.db, { ...auditWho(request), action: 'export.ranking', entity, serviceCode: campaign.serviceCode, after: { filter: { campaign: campaign.key, round }, rows } });
      let rank = 0;
      return sendCsv(reply, {
        file,
        header: RANKING_CSV_HEADER,
        chunks: votes.ranking(campaign.key, round, CSV_CHUNK_ROWS),
        line: (line) => `${(rank += 1)},${line.phoneNumber},${campaign.serviceCode},${line.votes},${line.lastVoteAt}\n`,
      });
    },
  );
}
