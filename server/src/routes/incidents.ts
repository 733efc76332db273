import type { FastifyInstance } from 'fastify';
import { parsePaging, toPagedList } from '../../../src/domain/paged-list';
import { incidentListSchema } from '../../../src/domain/schemas/transactions';
import { auditEntityLabel } from '../../../src/domain/audit';
import { acknowledgeIncidentSchema, INCIDENT_KIND_LABELS, WHOLE_SERVICE, type IncidentState } from '../../../src/domain/incidents';
import { toLiveIncident } from '../../../src/domain/live';
import { auditWho, recordAudit } from '../audit/record-audit';
import { readableCodes } from '../access/transaction-scope';
import { ok } from '../http/envelope';
import { HttpError, notFound } from '../http/http-error';
import { pagingQuery, uuidParams, type IdParams, type PagingQuery } from '../http/route-schemas';
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

  // Whoever reads an incident may take it on (an agent those of its codes); the Afcon-only account only reads.
  app.post<{ Params: IdParams }>(
    '/v1/incidents/:id/acknowledge',
    {
      schema: { tags: ['incidents'], summary: 'Take an incident on, once, with an optional note: it then names who, when and the note, on the list and the live stream', params: uuidParams },
      onRequest: [app.authenticate],
      config: {
        swaggerTransform: documented({ body: acknowledgeIncidentSchema, results: results.entity('Incident'), errors: { 409: 'Someone acknowledged this incident already' } }),
      },
    },
    async (request, reply) => {
      const { note } = await validBody(acknowledgeIncidentSchema, request.body ?? {});
      const codes = await readableCodes(app.db, request.user);
      const found = await repo.find(request.params.id, codes);
      if (!found) throw notFound('Incident');
      const who = auditWho(request);
      const done = await app.db.transaction(async (tx) => {
        const acknowledged = await repo.acknowledge(found._id, { id: request.user.id, userName: request.user.userName }, note || null, tx);
        if (acknowledged) {
          await recordAudit(tx, {
            ...who,
            action: 'incident.acknowledge',
            entity: { type: 'incident', id: found._id, label: auditEntityLabel('incident', `${INCIDENT_KIND_LABELS[found.kind]} · ${found.serviceCode ?? WHOLE_SERVICE}`) },
            serviceCode: found.serviceCode,
            before: { acknowledged: false },
            after: { acknowledged: true, note: note || null },
          });
        }
        return acknowledged;
      });
      if (!done) {
        const by = found.acknowledgedBy ? ` by ${found.acknowledgedBy}` : '';
        throw new HttpError(409, `This incident was acknowledged already${by}`);
      }
      app.live.feed.incidentChanged(toLiveIncident(done));
      return ok(reply, 'Incident acknowledged', done);
    },
  );
}
