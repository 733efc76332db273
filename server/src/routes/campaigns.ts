import type { FastifyInstance, FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import { auditEntityLabel, type AuditAction } from '../../../src/domain/audit';
import { checkCampaignInput, type CampaignInput } from '../../../src/domain/campaign-input';
import type { CampaignRound } from '../../../src/domain/campaign-rounds';
import { AFCON_CAMPAIGN } from '../access/campaign-access';
import { auditWho, recordChange, type Audited } from '../audit/record-audit';
import type { DbOrTx } from '../db/client';
import { serviceCodes } from '../db/schema';
import { ok } from '../http/envelope';
import { HttpError, notFound } from '../http/http-error';
import { isUniqueViolation } from '../http/postgres-errors';
import { documented, results } from '../openapi';
import { campaignsRepository, type CampaignFields, type CampaignView } from '../repositories/campaigns-repository';

type KeyParams = { Params: { key: string } };
type RoundParams = { Params: { key: string; round: string } };

const keyParams = { type: 'object', properties: { key: { type: 'string', maxLength: 100 } }, required: ['key'] } as const;
const roundParams = { type: 'object', properties: { key: { type: 'string', maxLength: 100 }, round: { type: 'string', maxLength: 100 } }, required: ['key', 'round'] } as const;

const time = { type: 'string', format: 'date-time', nullable: true } as const;
const roundBody = {
  type: 'object',
  properties: {
    key: { type: 'string', pattern: '^[a-z0-9-]{1,30}$' },
    label: { type: 'string', maxLength: 40 },
    kind: { type: 'string', enum: ['teams', 'games'] },
    games: { type: 'array', maxItems: 97, items: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'string', maxLength: 50 } } },
    opensAt: time,
    closesAt: time,
  },
  required: ['key', 'label', 'kind'],
};
const campaignProperties = {
  key: { type: 'string', pattern: '^[a-z0-9-]{1,50}$' },
  name: { type: 'string', maxLength: 100 },
  serviceCode: { type: 'string', maxLength: 50 },
  teams: { type: 'array', minItems: 2, maxItems: 97, items: { type: 'string', maxLength: 50 } },
  votesPerRoundCap: { type: 'integer', minimum: 1, maximum: 1_000_000, nullable: true },
  votePrice: { type: 'integer', minimum: 1, maximum: 10_000_000, nullable: true, description: "UGX; empty: the cheapest priced level of the code's category" },
  velocityPerMinute: { type: 'integer', minimum: 1, maximum: 10_000, description: "Votes one number may cast in any minute before it is flagged 'velocity' (default 10)" },
  holdSuspicious: { type: 'boolean', description: "Whether a flagged number's new votes settle held out of the counts until a reviewer decides (default false)" },
  rounds: { type: 'array', minItems: 1, maxItems: 20, items: roundBody },
};
const createBody = { type: 'object', properties: campaignProperties, required: ['key', 'name', 'serviceCode', 'teams', 'rounds'] };
const { key: _key, ...editable } = campaignProperties;
const patchBody = { type: 'object', properties: editable, description: 'Any of the fields; names, labels, times, cap and price always, teams, games and round kinds only before the first vote' };

const invalid = (errors: { field: string; message: string }[]) => new HttpError(400, errors[0].message, errors);
const conflict = (message: string, field?: string) => new HttpError(409, message, field ? [{ field, message }] : []);
const keyTaken = () => conflict('A campaign with this key already exists, please choose another', 'key');
const codeInUse = (other: string) => conflict(`The service code is live for the campaign ${other}`, 'serviceCode');
const LOCKED = 'Teams, games, round kinds and the service code cannot change once the campaign has votes; names, labels, times, cap and price can';

/** A round in one line for the audit trail: what it asks and when it takes votes. */
function roundSummary(round: CampaignRound): string {
  const parts = [round.label, round.kind === 'games' ? `games: ${(round.games ?? []).map(([a, b]) => `${a} vs ${b}`).join(', ')}` : 'teams'];
  if (round.opensAt) parts.push(`opens ${round.opensAt}`);
  if (round.closesAt) parts.push(`closes ${round.closesAt}`);
  if (round.closedAt) parts.push(`closed ${round.closedAt}`);
  return parts.join(' · ');
}

function auditedCampaign(campaign: CampaignView): Audited {
  return {
    entity: { type: 'campaign', id: campaign.key, label: auditEntityLabel('campaign', campaign.name) },
    serviceCode: campaign.serviceCode,
    record: {
      name: campaign.name,
      serviceCode: campaign.serviceCode,
      status: campaign.status,
      teams: campaign.teams.join(', '),
      votesPerRoundCap: campaign.votesPerRoundCap,
      votePrice: campaign.votePrice,
      velocityPerMinute: campaign.velocityPerMinute,
      holdSuspicious: campaign.holdSuspicious,
      rounds: Object.fromEntries(campaign.rounds.map((round) => [round.key, roundSummary(round)])),
    },
  };
}

/** Whether an edit changes what votes already cast refer to: the teams, a round's kind or games, a round taken away, the code. */
function structureChanged(before: CampaignView, after: CampaignFields): boolean {
  if (JSON.stringify(before.teams) !== JSON.stringify(after.teams) || before.serviceCode !== after.serviceCode) return true;
  return before.rounds.some((round) => {
    const now = after.rounds.find((r) => r.key === round.key);
    return !now || now.kind !== round.kind || JSON.stringify(now.games ?? []) !== JSON.stringify(round.games ?? []);
  });
}

/**
 * Campaigns as data (DESIGN §3): the list every signed-in user reads, and the admin's create, edit,
 * publish and close. A live campaign's code offers it on USSD; its structure (teams, games, round
 * kinds) is fixed from its first vote, so that votes keep meaning what the voter saw.
 */
export default async function campaignsRoutes(app: FastifyInstance) {
  const repo = campaignsRepository(app.db);
  const managersOnly = [app.authenticate, app.requireManager];
  const campaignResult = results.entity('Campaign');

  /** Checks what the input rules cannot: the code is registered, and no other live campaign holds it. */
  async function checkCode(tx: DbOrTx, input: Pick<CampaignInput, 'serviceCode'>, key: string) {
    const [code] = await tx.select({ name: serviceCodes.name }).from(serviceCodes).where(eq(serviceCodes.name, input.serviceCode)).limit(1);
    if (!code) throw invalid([{ field: 'serviceCode', message: 'No service code has this name' }]);
    const other = await repo.liveOnCode(tx, input.serviceCode, key);
    if (other) throw codeInUse(other);
  }

  /** Runs a write of one campaign in a transaction holding its row, records it, and lets the menus and answers read it again. */
  async function write(request: FastifyRequest, key: string, action: AuditAction, change: (before: CampaignView, tx: DbOrTx) => Promise<CampaignView>) {
    try {
      const after = await app.db.transaction(async (tx) => {
        const before = await repo.find(tx, key, true);
        if (!before) throw notFound('Campaign');
        const written = await change(before, tx);
        await recordChange(tx, auditWho(request), action, { before: auditedCampaign(before), after: auditedCampaign(written) });
        return written;
      });
      return after;
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('Another campaign is live on this service code', 'serviceCode');
      throw error;
    } finally {
      app.answerCache.dropCampaign(key);
      app.ingestion.forgetCatalogue();
    }
  }

  app.get(
    '/v1/campaigns',
    {
      schema: { tags: ['campaigns'], summary: 'List the vote campaigns with their status, rounds, counted votes and revenue' },
      onRequest: [app.authenticate],
      config: { afcon: true, swaggerTransform: documented({ results: results.list('Campaign') }) },
    },
    async (request, reply) => {
      const all = await repo.list();
      // The account limited to one campaign sees that one only.
      return ok(reply, 'Campaigns', request.user.isAfcon ? all.filter((c) => c.key === AFCON_CAMPAIGN) : all);
    },
  );

  app.post(
    '/v1/campaigns',
    {
      schema: { tags: ['campaigns'], summary: 'Create a campaign, as a draft' },
      onRequest: managersOnly,
      config: { swaggerTransform: documented({ jsonBody: createBody, results: campaignResult, status: 201, errors: { 409: 'The key is taken, or the service code is live for another campaign' } }) },
    },
    async (request, reply) => {
      const checked = checkCampaignInput(request.body);
      if (!checked.value) throw invalid(checked.errors);
      const { key, ...fields } = checked.value;
      try {
        const created = await app.db.transaction(async (tx) => {
          if (await repo.find(tx, key)) throw keyTaken();
          await checkCode(tx, fields, key);
          const campaign = await repo.insert(tx, key, fields);
          await recordChange(tx, auditWho(request), 'campaign.create', { after: auditedCampaign(campaign) });
          return campaign;
        });
        return ok(reply, 'Successfully created the campaign', created, 201);
      } catch (error) {
        if (isUniqueViolation(error)) throw keyTaken();
        throw error;
      }
    },
  );

  app.patch<KeyParams>(
    '/v1/campaigns/:key',
    {
      schema: { tags: ['campaigns'], summary: 'Edit a campaign: names, labels and times always; teams, games and round kinds only before its first vote', params: keyParams },
      onRequest: managersOnly,
      config: { swaggerTransform: documented({ jsonBody: patchBody, results: campaignResult, errors: { 409: 'The change touches teams, games or round kinds of a campaign with votes, or its code is live for another campaign' } }) },
    },
    async (request, reply) => {
      const body = request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? (request.body as Record<string, unknown>) : {};
      const { key } = request.params;
      if (body.key !== undefined && body.key !== key) throw invalid([{ field: 'key', message: 'The key of a campaign cannot change' }]);
      const updated = await write(request, key, 'campaign.update', async (before, tx) => {
        // The stored campaign under the edit: the check reads the fields it knows and leaves the rest.
        const checked = checkCampaignInput({ ...before, ...body, key });
        if (!checked.value) throw invalid(checked.errors);
        const { key: _same, ...fields } = checked.value;
        // A round closed by hand stays closed through an edit.
        const rounds = fields.rounds.map((round) => ({ ...round, closedAt: before.rounds.find((r) => r.key === round.key)?.closedAt ?? null }));
        if (structureChanged(before, { ...fields, rounds }) && (await repo.hasVotes(tx, key))) throw conflict(LOCKED);
        if (fields.serviceCode !== before.serviceCode) await checkCode(tx, fields, key);
        return repo.update(tx, key, { ...fields, rounds });
      });
      return ok(reply, 'Successfully updated the campaign', updated);
    },
  );

  app.post<KeyParams>(
    '/v1/campaigns/:key/publish',
    {
      schema: { tags: ['campaigns'], summary: "Publish a draft campaign: its service code offers it from now on", params: keyParams },
      onRequest: managersOnly,
      config: { swaggerTransform: documented({ results: campaignResult, errors: { 409: 'The campaign is not a draft, or its code is live for another campaign' } }) },
    },
    async (request, reply) => {
      const published = await write(request, request.params.key, 'campaign.publish', async (before, tx) => {
        if (before.status !== 'draft') throw conflict(`Only a draft campaign can be published; this one is ${before.status}`);
        await checkCode(tx, before, before.key);
        return repo.update(tx, before.key, { status: 'live', publishedAt: new Date() });
      });
      return ok(reply, 'Successfully published the campaign', published);
    },
  );

  app.post<KeyParams>(
    '/v1/campaigns/:key/close',
    {
      schema: { tags: ['campaigns'], summary: 'Close a live campaign: its code takes no more votes; its votes, rankings and results stay', params: keyParams },
      onRequest: managersOnly,
      config: { swaggerTransform: documented({ results: campaignResult, errors: { 409: 'The campaign is not live' } }) },
    },
    async (request, reply) => {
      const closed = await write(request, request.params.key, 'campaign.close', async (before, tx) => {
        if (before.status !== 'live') throw conflict(`Only a live campaign can be closed; this one is ${before.status}`);
        return repo.update(tx, before.key, { status: 'closed', closedAt: new Date() });
      });
      return ok(reply, 'Successfully closed the campaign', closed);
    },
  );

  app.post<RoundParams>(
    '/v1/campaigns/:key/rounds/:round/close',
    {
      schema: { tags: ['campaigns'], summary: 'Close one round by hand: it takes no more votes, even from a session already choosing in it', params: roundParams },
      onRequest: managersOnly,
      config: { swaggerTransform: documented({ results: campaignResult, errors: { 409: 'The round or its campaign is already closed' } }) },
    },
    async (request, reply) => {
      const { key, round } = request.params;
      const closed = await write(request, key, 'campaign.round-close', async (before, tx) => {
        const found = before.rounds.find((r) => r.key === round);
        if (!found) throw notFound('Round');
        if (before.status === 'closed') throw conflict('The campaign is closed');
        if (found.closedAt) throw conflict('The round is already closed');
        const at = new Date().toISOString();
        return repo.update(tx, key, { rounds: before.rounds.map((r) => (r.key === round ? { ...r, closedAt: at } : r)) });
      });
      return ok(reply, 'Successfully closed the round', closed);
    },
  );
}
