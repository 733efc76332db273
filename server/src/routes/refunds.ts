import type { FastifyInstance, FastifyRequest } from 'fastify';
import { auditEntityLabel } from '../../../src/domain/audit';
import { parsePaging } from '../../../src/domain/paged-list';
import { REFUND_CSV_HEADER, refundCsvLine } from '../../../src/domain/refund-csv';
import type { RefundReason, RefundState } from '../../../src/domain/refunds';
import { readsEveryCode } from '../../../src/domain/roles';
import { refundListSchema, refundRejectSchema, refundRequestSchema } from '../../../src/domain/schemas/refunds';
import { readableCodes, scopedTransaction } from '../access/transaction-scope';
import { auditWho, recordAudit } from '../audit/record-audit';
import { CSV_CHUNK_ROWS, sendCsv } from '../http/csv-download';
import { ok, okPagedJson } from '../http/envelope';
import { HttpError, notFound } from '../http/http-error';
import { pagingQuery, uuidParams, type IdParams, type PagingQuery } from '../http/route-schemas';
import { validBody } from '../http/valid-body';
import { documented, results, textAnswer } from '../openapi';
import type { RefundActor } from '../refunds/refund-flow';
import { refundsRepository } from '../repositories/refunds-repository';

/** Refunds are support's and the managers' work: agents sell, they do not give money back. */
async function requireRefundStaff(request: FastifyRequest) {
  if (!readsEveryCode(request.user?.role)) throw new HttpError(403, 'Only customer care and admins handle refunds');
}

const who = (request: FastifyRequest): RefundActor => {
  const audit = auditWho(request);
  return { ...audit, actor: { ...audit.actor, id: request.user.id, role: request.user.role } };
};

const listQuery = { ...pagingQuery, properties: { ...pagingQuery.properties, state: { type: 'string' } } } as const;
const exportQuery = { type: 'object', properties: { state: { type: 'string' } } } as const;

/**
 * Refunds (src/domain/refunds.ts): customer care and managers request and read them, a manager
 * other than the requester approves or rejects. The rules are the database's (a refusal is a 400 or
 * 409 through the error handler); the steps are refunds/refund-flow.ts's.
 */
export default async function refundsRoutes(app: FastifyInstance) {
  const repo = refundsRepository(app.db);
  const staff = [app.authenticate, requireRefundStaff];
  const managers = [app.authenticate, app.requireManager];
  const flow = app.ingestion.refunds;

  /** A refund the caller may read (an Afcon-only account reads its campaign's calls' refunds alone). */
  async function readable(request: FastifyRequest, id: string) {
    const refund = await repo.findJson(id);
    const codes = refund && (await readableCodes(app.db, request.user));
    if (!refund || (codes && !codes.includes(refund.serviceCode))) throw notFound('Refund');
    return refund;
  }

  app.post<{ Params: IdParams }>(
    '/v1/transactions/:id/refunds',
    {
      schema: { tags: ['refunds'], summary: "Request a refund of a processed call (amount defaults to what is left of the call's)", params: uuidParams },
      onRequest: staff,
      config: {
        swaggerTransform: documented({
          body: refundRequestSchema,
          results: results.entity('Refund'),
          status: 201,
          errors: { 409: 'The call already has a refund in progress' },
        }),
      },
    },
    async (request, reply) => {
      const input = await validBody(refundRequestSchema, request.body);
      const call = await scopedTransaction(app.db, request, request.params.id);
      const refund = await flow.request(who(request), call.id, { amount: input.amount, reason: input.reason as RefundReason, note: input.note });
      return ok(reply, 'Refund requested', await repo.findJson(refund.id), 201);
    },
  );

  app.get<{ Params: IdParams; Querystring: PagingQuery }>(
    '/v1/transactions/:id/refunds',
    {
      schema: { tags: ['refunds'], summary: "A call's refunds, open first, then newest first", params: uuidParams, querystring: pagingQuery },
      onRequest: staff,
      config: { swaggerTransform: documented({ results: results.page('Refund') }) },
    },
    async (request, reply) => {
      const { page, limit, offset } = parsePaging(request.query, 50);
      const call = await scopedTransaction(app.db, request, request.params.id);
      const { docsJson, total } = await repo.pageJson({ transactionId: call.id }, offset, limit);
      return okPagedJson(reply, 'Refunds', docsJson, page, limit, total);
    },
  );

  app.get<{ Querystring: PagingQuery & { state?: string } }>(
    '/v1/refunds',
    {
      schema: { tags: ['refunds'], summary: 'The refunds queue: awaiting approval first, then in flight, then done', querystring: listQuery },
      onRequest: staff,
      config: { swaggerTransform: documented({ query: refundListSchema, results: results.page('Refund') }) },
    },
    async (request, reply) => {
      const { page, limit, offset } = parsePaging(request.query, 50);
      const { state } = await validBody(refundListSchema, { state: request.query.state || undefined });
      const codes = await readableCodes(app.db, request.user);
      const { docsJson, total } = await repo.pageJson({ state: state as RefundState | undefined, codes }, offset, limit);
      return okPagedJson(reply, 'Refunds', docsJson, page, limit, total);
    },
  );

  app.get<{ Querystring: { state?: string } }>(
    '/v1/refunds/export',
    {
      schema: { tags: ['refunds'], summary: "The refunds queue as CSV, in the queue's order, of one state or all", querystring: exportQuery },
      onRequest: staff,
      config: { swaggerTransform: documented({ query: refundListSchema, answer: textAnswer('text/csv', "One line per refund, in the queue's order") }) },
    },
    async (request, reply) => {
      const { state } = await validBody(refundListSchema, { state: request.query.state || undefined });
      const filter = { state: state as RefundState | undefined, codes: await readableCodes(app.db, request.user) };
      const file = `refunds-${state ?? 'all'}.csv`;
      // Phone numbers leave the system: recorded first, with the filter and the rows it matches.
      await recordAudit(app.db, {
        ...auditWho(request),
        action: 'export.report',
        entity: { type: 'export', id: null, label: auditEntityLabel('export', file) },
        after: { filter: { report: 'refunds', state: state ?? null }, rows: await repo.count(filter) },
      });
      return sendCsv(reply, { file, header: REFUND_CSV_HEADER, chunks: repo.chunks(filter, CSV_CHUNK_ROWS), line: refundCsvLine });
    },
  );

  app.get<{ Params: IdParams }>(
    '/v1/refunds/:id',
    {
      schema: { tags: ['refunds'], summary: 'One refund', params: uuidParams },
      onRequest: staff,
      config: { swaggerTransform: documented({ results: results.entity('Refund') }) },
    },
    async (request, reply) => ok(reply, 'Refund', await readable(request, request.params.id)),
  );

  app.post<{ Params: IdParams }>(
    '/v1/refunds/:id/approve',
    {
      schema: { tags: ['refunds'], summary: 'Approve a requested refund and send it to the provider (admin or super-user, never the requester)', params: uuidParams },
      onRequest: managers,
      config: { swaggerTransform: documented({ results: results.entity('Refund'), errors: { 409: 'The refund is no longer awaiting a decision' } }) },
    },
    async (request, reply) => {
      await readable(request, request.params.id);
      const refund = await flow.approve(who(request), request.params.id);
      return ok(reply, 'Refund approved', await repo.findJson(refund.id));
    },
  );

  app.post<{ Params: IdParams }>(
    '/v1/refunds/:id/reject',
    {
      schema: { tags: ['refunds'], summary: 'Reject a requested refund with a reason (admin or super-user, never the requester)', params: uuidParams },
      onRequest: managers,
      config: { swaggerTransform: documented({ body: refundRejectSchema, results: results.entity('Refund'), errors: { 409: 'The refund is no longer awaiting a decision' } }) },
    },
    async (request, reply) => {
      const { reason } = await validBody(refundRejectSchema, request.body);
      await readable(request, request.params.id);
      const refund = await flow.reject(who(request), request.params.id, reason);
      return ok(reply, 'Refund rejected', await repo.findJson(refund.id));
    },
  );
}
