import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { todayInServiceZone } from '../../../src/domain/format';
import { parsePaging } from '../../../src/domain/paged-list';
import { normalizePhoneNumber } from '../../../src/domain/phone';
import { campaignListSchema } from '../../../src/domain/schemas/campaigns';
import { bulkResolveSchema, resolveTransactionSchema, transactionSearchSchema } from '../../../src/domain/schemas/transactions';

import { AFCON_CAMPAIGN, ownServiceCode, readableCampaign, WORLD_CUP_CAMPAIGN } from '../access/campaign-access';
import { okPagedJson } from '../http/envelope';
import { notFound } from '../http/http-error';
import { pagingQuery, uuidParams } from '../http/route-schemas';
import { validBody } from '../http/valid-body';
import { documented, results, type RouteDocs } from '../openapi';
import { campaignVotesRepository } from '../repositories/campaign-votes-repository';
import { transactionsRepository } from '../repositories/transactions-repository';
import { callResolution } from '../resolution/call-resolution';

/** A campaign's search takes the number alone: its votes are every day's (SPEC §2). */
const voterSearchSchema = transactionSearchSchema.pick(['phoneNumber']);

type Paging = { page?: number; limit?: number };
type KeyOf = (request: FastifyRequest) => string;

const keyParams = { type: 'object', properties: { key: { type: 'string', maxLength: 100 } }, required: ['key'] } as const;
const keyAndIdParams = { type: 'object', properties: { ...keyParams.properties, ...uuidParams.properties }, required: ['key', 'id'] } as const;
/** Any campaign's key, from the path of its generic routes. */
const keyInPath: KeyOf = (request) => (request.params as { key: string }).key;

/** Where each campaign's lists live (SPEC §7, DESIGN §3); the Afcon-only account reaches AFCON's. */
const CAMPAIGN_LISTS = [
  { key: WORLD_CUP_CAMPAIGN, prefix: '/v1/world/cup/analysis', afcon: false, tag: 'world cup' },
  { key: AFCON_CAMPAIGN, prefix: '/v1/afcon/2024/analysis', afcon: true, tag: 'afcon 2024' },
];

/**
 * The campaigns' transaction, failed and search lists and the resolve call: the regular lists'
 * answers, restricted to the campaign's own service code.
 */
export default async function campaignListsRoutes(app: FastifyInstance) {
  const transactions = transactionsRepository(app.db);
  const votes = campaignVotesRepository(app.db);
  const resolution = callResolution(app);

  /** The lists' handlers for the campaign `keyOf` names: a fixed one (SPEC's paths) or the path's `:key`. */
  const lists = (keyOf: KeyOf) => ({
    async transactions(request: FastifyRequest, reply: FastifyReply) {
      const campaign = await readableCampaign(votes, request, keyOf(request));
      const { page, limit, offset } = parsePaging(request.query as Paging, 50);
      const { name, date } = await validBody(campaignListSchema, request.body);
      ownServiceCode(campaign, 'name', name);
      const day = date || todayInServiceZone();
      const { docsJson, total } = await transactions.pageJson({ codes: [campaign.serviceCode], day }, offset, limit);
      return okPagedJson(reply, `Transactions for ${day}`, docsJson, page, limit, total);
    },

    async failed(request: FastifyRequest, reply: FastifyReply) {
      const campaign = await readableCampaign(votes, request, keyOf(request));
      const { page, limit, offset } = parsePaging(request.query as Paging, 50);
      const { name, date } = await validBody(campaignListSchema, request.body);
      ownServiceCode(campaign, 'name', name);
      const filter = { codes: [campaign.serviceCode], day: date || undefined, status: 'failed' as const };
      const { docsJson, total } = await transactions.pageJson(filter, offset, limit);
      return okPagedJson(reply, 'Transactions to give attention', docsJson, page, limit, total);
    },

    async search(request: FastifyRequest, reply: FastifyReply) {
      const campaign = await readableCampaign(votes, request, keyOf(request));
      const { page, limit, offset } = parsePaging(request.query as Paging, 50);
      const { phoneNumber } = await validBody(voterSearchSchema, request.body);
      const filter = { codes: [campaign.serviceCode], phoneNumber: normalizePhoneNumber(phoneNumber) };
      const { docsJson, total } = await transactions.pageJson(filter, offset, limit);
      return okPagedJson(reply, 'Transactions', docsJson, page, limit, total);
    },

    /** One failed call of the campaign's code resolved, as the failed list's Resolve does. */
    async resolve(request: FastifyRequest, reply: FastifyReply) {
      const campaign = await readableCampaign(votes, request, keyOf(request));
      const { id } = request.params as { id: string };
      return resolution.one(request, reply, async () => {
        const found = await transactions.findById(id);
        if (!found || found.serviceCode !== campaign.serviceCode) throw notFound('Transaction');
        return found;
      });
    },

    async bulkResolve(request: FastifyRequest, reply: FastifyReply) {
      const campaign = await readableCampaign(votes, request, keyOf(request));
      return resolution.many(request, reply, [campaign.serviceCode]);
    },
  });

  for (const { key, prefix, afcon, tag } of CAMPAIGN_LISTS) {
    const options = (summary: string, docs: RouteDocs) => ({
      schema: { tags: [tag], summary, querystring: pagingQuery },
      onRequest: [app.authenticate],
      config: { afcon, swaggerTransform: documented({ results: results.page('Transaction'), errors: { 404: 'The campaign is not set up' }, ...docs }) },
    });
    const handlers = lists(() => key);

    app.post(`${prefix}/all`, options(`${tag} transactions of a day`, { body: campaignListSchema }), handlers.transactions);
    app.post(`${prefix}/to/give/attention`, options(`${tag} failed transactions, of a day or every day`, { body: campaignListSchema }), handlers.failed);

    app.post(
      `${prefix}/to/give/attention/:id`,
      {
        ...options(`Resolve a failed ${tag} transaction, with an optional reason and note`, { body: resolveTransactionSchema, results: results.entity('Transaction') }),
        schema: { tags: [tag], summary: `Resolve a failed ${tag} transaction, with an optional reason and note`, params: uuidParams },
      },
      handlers.resolve,
    );

    app.post(
      `${prefix}/to/give/attention/bulk`,
      {
        ...options(`Resolve up to 200 failed ${tag} transactions at once`, { body: bulkResolveSchema, results: results.list('BulkResolveOutcome') }),
        schema: { tags: [tag], summary: `Resolve up to 200 failed ${tag} transactions at once, answering what became of each` },
      },
      handlers.bulkResolve,
    );

    app.post(`${prefix}/search`, options(`Search ${tag} transactions by phone number`, { body: voterSearchSchema }), handlers.search);
  }

  // Every campaign's lists under its key: admins and super-users any, the account limited to one campaign its own.
  const generic = (summary: string, docs: RouteDocs) => ({
    schema: { tags: ['campaigns'], summary, params: keyParams, querystring: pagingQuery },
    onRequest: [app.authenticate],
    config: { afcon: true, swaggerTransform: documented({ results: results.page('Transaction'), ...docs }) },
  });
  const any = lists(keyInPath);
  app.post('/v1/campaigns/:key/transactions', generic("A campaign's transactions of a day (today when no date is given)", { body: campaignListSchema }), any.transactions);
  app.post('/v1/campaigns/:key/failed', generic("A campaign's failed transactions, of a day or every day", { body: campaignListSchema }), any.failed);
  app.post('/v1/campaigns/:key/search', generic("Search a campaign's transactions by phone number", { body: voterSearchSchema }), any.search);
  // The failed list's Resolve and Resolve selected, as SPEC's campaigns have them.
  app.post(
    '/v1/campaigns/:key/failed/:id',
    {
      ...generic("Resolve a campaign's failed transaction, with an optional reason and note", { body: resolveTransactionSchema, results: results.entity('Transaction') }),
      schema: { tags: ['campaigns'], summary: "Resolve a campaign's failed transaction, with an optional reason and note", params: keyAndIdParams },
    },
    any.resolve,
  );
  app.post(
    '/v1/campaigns/:key/failed/bulk',
    {
      ...generic('Resolve up to 200 of a campaign\'s failed transactions at once', { body: bulkResolveSchema, results: results.list('BulkResolveOutcome') }),
      schema: { tags: ['campaigns'], summary: "Resolve up to 200 of a campaign's failed transactions at once, answering what became of each", params: keyParams },
    },
    any.bulkResolve,
  );
}
