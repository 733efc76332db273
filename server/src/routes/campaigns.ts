import type { FastifyInstance } from 'fastify';
import { ok } from '../http/envelope';
import { documented, results } from '../openapi';
import { campaignsRepository } from '../repositories/campaigns-repository';

const campaignSchema = {
  type: 'object',
  properties: {
    key: { type: 'string' },
    name: { type: 'string' },
    serviceCode: { type: 'string' },
    rounds: { type: 'array', items: { type: 'string' } },
    teams: { type: 'array', items: { type: 'string' } },
  },
} as const;

export default async function campaignsRoutes(app: FastifyInstance) {
  const repo = campaignsRepository(app.db);

  // The SPA's campaign descriptors read their fixed service code, rounds and teams from here.
  app.get(
    '/v1/campaigns',
    {
      schema: {
        tags: ['campaigns'],
        summary: 'List the vote campaigns',
        response: {
          200: {
            type: 'object',
            properties: { status: { type: 'boolean' }, message: { type: 'string' }, results: { type: 'array', items: campaignSchema } },
          },
        },
      },
      onRequest: [app.authenticate],
      config: { afcon: true, swaggerTransform: documented({ results: results.list('Campaign') }) },
    },
    async (_request, reply) => ok(reply, 'Campaigns', await repo.list()),
  );
}
