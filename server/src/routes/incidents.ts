import type { FastifyInstance } from 'fastify';
import { parsePaging, toPagedList } from '../../../src/domain/paged-list';
import { incidentListSchema } from '../../../src/domain/schemas/transactions';
import type { IncidentState } from '../../../src/domain/incidents';
import { readableCodes } from '../access/transaction-scope';
import { ok } from '../http/envelope';
import { pagingQuery, type PagingQuery } from '../http/route-schemas';
import { validBody } from '../http/valid-body';
import { documented, object, results } from '../openapi';
import { incidentsRepository } from '../repositories/incidents-repository';

/**
 * Incidents: trouble the detector noticed, scoped like the lists: a manager reads every
 * one, an agent those of its own service codes, the Afcon-only account AFCON's; the service-wide
 * ones (payment provider, SMS gateway) are the managers'.
 */
export default async function incidentsRoutes(app: FastifyInstance) {
  const repo = incidentsRepository(app.db);
  // The Afcon-only account reads AFCON's incidents.
  const config = (docs: Parameters<typeof documented>[0]) => ({ afcon: true, swaggerTransform: documented(docs) });

  app.get<{ Querystring: PagingQuery & { state?: string } }>(
    '/v1/incidents',
    {
      schema: { tags: ['incidents'], summary: 'Incidents, open first, then the newest', querystring: pagingQuery },
      onRequest: [app.authenticate],
      config: config({ query: incidentListSchema, results: results.page('Incident') }),
    },
    async (request, reply) => {
      const { page, limit, offset } = parsePaging(request.query, 20);
      const { state } = await validBody(incidentListSchema, { state: request.query.state });
      const codes = await readableCodes(app.db, request.user);
      const { docs, total } = await repo.page({ codes, state: state as IncidentState | undefined }, offset, limit);
      return ok(reply, 'Incidents', toPagedList(docs, page, limit, total));
    },
  );

  app.get(
    '/v1/incidents/open-count',
    {
      schema: { tags: ['incidents'], summary: 'How many incidents the caller reads are open (the top bar)' },
      onRequest: [app.authenticate],
      config: config({ results: object({ open: { type: 'integer' } }) }),
    },
    async (request, reply) => {
      const codes = await readableCodes(app.db, request.user);
      return ok(reply, 'Open incidents', { open: await repo.openCount(codes) });
    },
  );
}
