import type { FastifyInstance, FastifyRequest } from 'fastify';
import { auditEntityLabel } from '../../../src/domain/audit';
import { parsePaging } from '../../../src/domain/paged-list';
import { normalizePhoneNumber } from '../../../src/domain/phone';
import { isManager } from '../../../src/domain/roles';
import { heldVotesTargetSchema, suspiciousQuerySchema, voteRejectSchema, voteReleaseSchema } from '../../../src/domain/schemas/vote-integrity';
import { cachedCampaigns, campaignRound, readableCampaign } from '../access/campaign-access';
import { auditWho, recordAudit } from '../audit/record-audit';
import { ok, okPagedJson } from '../http/envelope';
import { forbidden, HttpError } from '../http/http-error';
import { pagingQuery } from '../http/route-schemas';
import { validBody } from '../http/valid-body';
import { documented, results } from '../openapi';
import { campaignVotesRepository } from '../repositories/campaign-votes-repository';
import { voteIntegrityRepository } from '../repositories/vote-integrity-repository';

type KeyParams = { Params: { key: string } };
type NumberParams = { Params: { key: string; phoneNumber: string } };

const keyParams = { type: 'object', properties: { key: { type: 'string', maxLength: 100 } }, required: ['key'] } as const;
const numberParams = {
  type: 'object',
  properties: { key: { type: 'string', maxLength: 100 }, phoneNumber: { type: 'string', maxLength: 40 } },
  required: ['key', 'phoneNumber'],
} as const;

/**
 * Vote integrity (README 'Vote integrity'): a campaign's flagged numbers per round (and those with
 * votes held), and a reviewer's release or rejection of a number's held votes. Reading is as the
 * campaign's other reads (the campaign-limited account its own campaign); deciding is an admin's or
 * super-user's.
 */
export default async function campaignIntegrityRoutes(app: FastifyInstance) {
  const votes = campaignVotesRepository(app.db);
  const campaigns = cachedCampaigns(votes, app.answerCache);
  const integrity = voteIntegrityRepository(app.db);
  const guard = { onRequest: [app.authenticate] };

  app.get<KeyParams>(
    '/v1/campaigns/:key/suspicious',
    {
      schema: {
        tags: ['campaigns'],
        summary: "A round's flagged numbers (velocity, near-cap, burst) and those with votes held, most votes first",
        params: keyParams,
        querystring: { type: 'object', properties: { ...pagingQuery.properties, round: { type: 'string' } } },
      },
      ...guard,
      config: { afcon: true, swaggerTransform: documented({ query: suspiciousQuerySchema, results: results.page('SuspiciousVoter'), errors: { 404: 'The campaign is not set up' } }) },
    },
    async (request, reply) => {
      const campaign = await readableCampaign(campaigns, request, request.params.key);
      const query = request.query as { page?: number; limit?: number; round?: string };
      const { round: asked } = await validBody(suspiciousQuerySchema, { round: query.round });
      const round = campaignRound(campaign, asked);
      const { page, limit, offset } = parsePaging(query, 50);
      const { rows, total } = await integrity.suspiciousPage(campaign.key, round, offset, limit);
      return okPagedJson(reply, 'Suspicious voters', JSON.stringify(rows), page, limit, total);
    },
  );

  /** Releases or rejects a number's held votes, with its audit entry; 404 when none is held. */
  async function decide(request: FastifyRequest<NumberParams>, decision: 'released' | 'rejected', reason: string | null, asked: string | undefined) {
    if (!isManager(request.user.role) || request.user.isAfcon) throw forbidden('Only an admin can decide on held votes');
    const campaign = await readableCampaign(campaigns, request, request.params.key);
    const { phoneNumber: given } = await validBody(heldVotesTargetSchema, { phoneNumber: request.params.phoneNumber });
    const phoneNumber = normalizePhoneNumber(given);
    const round = asked === undefined || asked === '' ? null : campaignRound(campaign, asked);
    const only = round === 'all' ? null : round;
    const decided = await app.db.transaction(async (tx) => {
      const done = await voteIntegrityRepository(tx).decideHeld(campaign.key, phoneNumber, only, decision, request.user.id, reason);
      if (done.votes === 0) return done;
      await recordAudit(tx, {
        ...auditWho(request),
        action: decision === 'released' ? 'vote.release' : 'vote.reject',
        entity: { type: 'campaign', id: campaign.key, label: auditEntityLabel('campaign', `${campaign.name} · ${phoneNumber}`) },
        serviceCode: campaign.serviceCode,
        before: { phoneNumber, heldVotes: done.votes, rounds: done.rounds.join(', ') },
        after: { phoneNumber, heldVotes: 0, [decision]: done.votes },
        reason,
      });
      return done;
    });
    if (decided.votes === 0) throw new HttpError(404, 'No held votes of this number');
    // Released votes count now: the campaign's cached rankings and results are stale.
    if (decision === 'released') app.answerCache.dropCampaign(campaign.key);
    return { phoneNumber, decision, votes: decided.votes, rounds: decided.rounds };
  }

  app.post<NumberParams>(
    '/v1/campaigns/:key/suspicious/:phoneNumber/release',
    {
      schema: { tags: ['campaigns'], summary: "Release a number's held votes: they count from now on (admin, super-user)", params: numberParams },
      ...guard,
      config: { afcon: true, swaggerTransform: documented({ body: voteReleaseSchema, results: results.entity('HeldVotesDecision'), errors: { 404: 'No held votes of this number' } }) },
    },
    async (request, reply) => {
      const { round } = await validBody(voteReleaseSchema, request.body ?? {});
      return ok(reply, 'Held votes released', await decide(request, 'released', null, round));
    },
  );

  app.post<NumberParams>(
    '/v1/campaigns/:key/suspicious/:phoneNumber/reject',
    {
      schema: { tags: ['campaigns'], summary: "Reject a number's held votes with a reason: they never count (admin, super-user)", params: numberParams },
      ...guard,
      config: { afcon: true, swaggerTransform: documented({ body: voteRejectSchema, results: results.entity('HeldVotesDecision'), errors: { 404: 'No held votes of this number' } }) },
    },
    async (request, reply) => {
      const { reason, round } = await validBody(voteRejectSchema, request.body ?? {});
      return ok(reply, 'Held votes rejected', await decide(request, 'rejected', reason, round));
    },
  );
}
