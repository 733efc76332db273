import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AUDIT_CSV_HEADER, auditCsvLine, auditEntityLabel } from '../../../src/domain/audit';
import { parsePaging, toPagedList } from '../../../src/domain/paged-list';
import { auditFilterSchema } from '../../../src/domain/schemas/audit';
import { auditWho, recordAudit } from '../audit/record-audit';
import { verifyAuditTrail } from '../audit/verify-audit';
import { CSV_CHUNK_ROWS, sendCsv } from '../http/csv-download';
import { ok } from '../http/envelope';
import { pagingQuery, type PagingQuery } from '../http/route-schemas';
import { validBody } from '../http/valid-body';
import { documented, results, textAnswer } from '../openapi';
import { auditRepository, type AuditFilter } from '../repositories/audit-repository';

type FilterQuery = { [field in keyof AuditFilter]?: string };

/** The filter of a list or export call: each field validated, empty ones left out. */
async function auditFilter(request: FastifyRequest<{ Querystring: FilterQuery }>): Promise<AuditFilter> {
  const { actor, action, entityType, entityId, serviceCode, from, to } = request.query;
  const input = await validBody(auditFilterSchema, { actor, action, entityType, entityId, serviceCode, from, to });
  return Object.fromEntries(Object.entries(input).filter(([, value]) => typeof value === 'string' && value !== '')) as AuditFilter;
}

/** The audit trail (admins and super-users): its entries, their CSV (itself audited) and the chain's check. */
export default async function auditRoutes(app: FastifyInstance) {
  const repo = auditRepository(app.db);
  const managersOnly = [app.authenticate, app.requireManager];

  app.get<{ Querystring: PagingQuery & FilterQuery }>(
    '/v1/audit',
    {
      schema: { tags: ['audit'], summary: 'Audit entries, newest first, by actor, action, record, service code and time', querystring: pagingQuery },
      onRequest: managersOnly,
      config: { swaggerTransform: documented({ query: auditFilterSchema, results: results.page('AuditEntry') }) },
    },
    async (request, reply) => {
      const { page, limit, offset } = parsePaging(request.query, 50);
      const filter = await auditFilter(request);
      const { docs, total } = await repo.page(filter, offset, limit);
      return ok(reply, 'Audit entries', toPagedList(docs, page, limit, total));
    },
  );

  app.get<{ Querystring: FilterQuery }>(
    '/v1/audit/export',
    {
      schema: { tags: ['audit'], summary: 'The filtered audit entries as CSV, newest first (recorded as export.audit)' },
      onRequest: managersOnly,
      config: { swaggerTransform: documented({ query: auditFilterSchema, answer: textAnswer('text/csv', 'One line per entry, its changes in words') }) },
    },
    async (request, reply) => {
      const filter = await auditFilter(request);
      const file = 'audit-trail.csv';
      // Recorded before a byte leaves, with the rows the filter matches, so no export goes unrecorded.
      const rows = await repo.count(filter);
      await recordAudit(app.db, { ...auditWho(request), action: 'export.audit', entity: { type: 'export', id: null, label: auditEntityLabel('export', file) }, serviceCode: filter.serviceCode, after: { filter, rows } });
      return sendCsv(reply, { file, header: AUDIT_CSV_HEADER, chunks: repo.chunks(filter, CSV_CHUNK_ROWS), line: auditCsvLine });
    },
  );

  app.get(
    '/v1/audit/verify',
    {
      schema: { tags: ['audit'], summary: "Recomputes every entry's chained hash: ok, the entries checked and the first broken one" },
      onRequest: managersOnly,
      config: { swaggerTransform: documented({ results: results.entity('AuditVerification') }) },
    },
    async (_request, reply) => {
      const verification = await verifyAuditTrail(app.db);
      return ok(reply, verification.ok ? 'The audit trail is intact' : 'The audit trail was altered outside the API', verification);
    },
  );
}
