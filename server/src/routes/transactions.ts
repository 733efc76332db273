import type { FastifyInstance } from 'fastify';
import { auditEntityLabel } from '../../../src/domain/audit';
import { todayInServiceZone } from '../../../src/domain/format';
import { parsePaging } from '../../../src/domain/paged-list';
import { normalizePhoneNumber } from '../../../src/domain/phone';
import { bulkResolveSchema, callWindowSchema, resolveTransactionSchema, transactionFilterSchema, transactionSearchSchema } from '../../../src/domain/schemas/transactions';
import { TRANSACTION_CSV_HEADER, transactionCsvLine } from '../../../src/domain/transaction-csv';
import { CSV_CHUNK_ROWS, sendCsv } from '../http/csv-download';
import { okPagedJson } from '../http/envelope';
import { pagingQuery, uuidParams, type IdParams, type PagingQuery } from '../http/route-schemas';
import { validBody } from '../http/valid-body';
import { auditWho, recordAudit } from '../audit/record-audit';
import { documented, results, textAnswer } from '../openapi';
import { transactionsRepository } from '../repositories/transactions-repository';
import { checkedDays, daysLabel, filterDays, readFilter, scopeCodes, scopedTransaction } from '../access/transaction-scope';
import { callResolution } from '../resolution/call-resolution';

/** The lists read only a service code and a day or a range (`readFilter` checks the whole filter). */
const dayFilter = transactionFilterSchema.pick(['name', 'date', 'dateFrom', 'dateTo']);

export default async function transactionsRoutes(app: FastifyInstance) {
  const repo = transactionsRepository(app.db);
  const guard = { onRequest: [app.authenticate] };
  const resolution = callResolution(app);

  app.post<{ Querystring: PagingQuery }>(
    '/v1/transactions',
    {
      schema: { tags: ['transactions'], summary: 'The calls of a day, of one service code or every code the caller reads', querystring: pagingQuery },
      ...guard,
      config: { swaggerTransform: documented({ body: dayFilter, scoped: true, results: results.page('Transaction') }) },
    },
    async (request, reply) => {
      const { page, limit, offset } = parsePaging(request.query, 50);
      const { name, ...chosen } = await readFilter(request.body);
      const days = chosen.dateFrom ? chosen : { date: chosen.date ?? todayInServiceZone() };
      const codes = await scopeCodes(app.db, request, name);
      const { docsJson, total } = await repo.pageJson({ codes, ...filterDays(days) }, offset, limit);
      return okPagedJson(reply, `Transactions for ${daysLabel(days)}`, docsJson, page, limit, total);
    },
  );

  app.get<{ Querystring: PagingQuery & { name?: string; date?: string; dateFrom?: string; dateTo?: string; since?: string; until?: string } }>(
    '/v1/transactions/to/give/attention',
    {
      schema: {
        tags: ['transactions'],
        summary: 'Failed calls to give attention, of a day, a range of days or every day, or created within a window of instants (since, until: an incident\'s calls)',
        querystring: { ...pagingQuery, properties: { ...pagingQuery.properties, name: { type: 'string' }, date: { type: 'string' }, dateFrom: { type: 'string' }, dateTo: { type: 'string' }, since: { type: 'string' }, until: { type: 'string' } } },
      },
      ...guard,
      config: { swaggerTransform: documented({ query: dayFilter.concat(callWindowSchema), scoped: true, results: results.page('Transaction') }) },
    },
    async (request, reply) => {
      const { page, limit, offset } = parsePaging(request.query, 50);
      const { name, date, dateFrom, dateTo } = request.query;
      const { name: code, ...days } = await readFilter({ name, date, dateFrom, dateTo });
      const { since, until } = await validBody(callWindowSchema, { since: request.query.since, until: request.query.until });
      const codes = await scopeCodes(app.db, request, code);
      const { docsJson, total } = await repo.pageJson({ codes, ...filterDays(days), status: 'failed', since: since || undefined, until: until || undefined }, offset, limit);
      return okPagedJson(reply, 'Transactions to give attention', docsJson, page, limit, total);
    },
  );

  app.post<{ Params: IdParams }>(
    '/v1/transactions/to/give/attention/:id',
    {
      schema: { tags: ['transactions'], summary: 'Resolve a failed call, with an optional reason and note', params: uuidParams },
      ...guard,
      config: { swaggerTransform: documented({ body: resolveTransactionSchema, results: results.entity('Transaction') }) },
    },
    async (request, reply) => resolution.one(request, reply, () => scopedTransaction(app.db, request, request.params.id)),
  );

  app.post<{ Params: IdParams }>(
    '/v1/transactions/to/give/attention/:id/undo',
    {
      schema: {
        tags: ['transactions'],
        summary: 'Undo your own resolve of a call within 60 seconds: the call is unresolved again',
        description: 'Only the person who resolved the call may undo it (403 otherwise), and only within 60 seconds of resolving (409 after, or when the call is not resolved).',
        params: uuidParams,
      },
      ...guard,
      config: { swaggerTransform: documented({ results: results.entity('Transaction'), errors: { 403: 'The caller may not do this, or someone else resolved the call', 409: 'Not resolved, or resolved more than 60 seconds ago' } }) },
    },
    async (request, reply) => resolution.undo(request, reply, () => scopedTransaction(app.db, request, request.params.id)),
  );

  app.post(
    '/v1/transactions/to/give/attention/bulk',
    {
      schema: { tags: ['transactions'], summary: 'Resolve up to 200 failed calls at once, answering what became of each' },
      ...guard,
      config: { swaggerTransform: documented({ body: bulkResolveSchema, results: results.list('BulkResolveOutcome') }) },
    },
    async (request, reply) => resolution.many(request, reply, await scopeCodes(app.db, request)),
  );

  app.post<{ Querystring: PagingQuery }>(
    '/v1/transactions/search',
    {
      schema: { tags: ['transactions'], summary: 'Search the calls by phone number, of every day or of a day or range', querystring: pagingQuery },
      ...guard,
      config: { swaggerTransform: documented({ body: transactionSearchSchema, results: results.page('Transaction') }) },
    },
    async (request, reply) => {
      const { page, limit, offset } = parsePaging(request.query, 50);
      const { phoneNumber, ...chosen } = await validBody(transactionSearchSchema, request.body);
      const days = checkedDays(chosen);
      const codes = await scopeCodes(app.db, request);
      const { docsJson, total } = await repo.pageJson({ codes, phoneNumber: normalizePhoneNumber(phoneNumber), ...filterDays(days) }, offset, limit);
      return okPagedJson(reply, 'Transactions', docsJson, page, limit, total);
    },
  );

  app.get(
    '/v1/transactions/export',
    {
      schema: { tags: ['transactions'], summary: 'The calls as CSV, by service code, day or range of days, and status' },
      ...guard,
      config: { swaggerTransform: documented({ query: transactionFilterSchema, scoped: true, answer: textAnswer('text/csv', 'The calls as CSV, oldest first') }) },
    },
    async (request, reply) => {
      const filter = await readFilter(request.query);
      const codes = await scopeCodes(app.db, request, filter.name);
      const days = filter.dateFrom ? `${filter.dateFrom}-to-${filter.dateTo}` : (filter.date ?? 'all');
      const file = `transactions-${filter.name ?? 'all'}-${days}${filter.status ? `-${filter.status}` : ''}.csv`;
      const calls = { codes, ...filterDays(filter), status: filter.status };
      // Phone numbers leave the system: recorded first, with the filter and the rows it matches.
      const rows = await repo.count(calls);
      const range = filter.dateFrom ? { dateFrom: filter.dateFrom, dateTo: filter.dateTo } : {};
      const exported = { serviceCode: filter.name ?? null, date: filter.date ?? null, ...range, status: filter.status ?? null };
      await recordAudit(app.db, { ...auditWho(request), action: 'export.transactions', entity: { type: 'export', id: null, label: auditEntityLabel('export', file) }, serviceCode: filter.name, after: { filter: exported, rows } });
      return sendCsv(reply, { file, header: TRANSACTION_CSV_HEADER, chunks: repo.chunks(calls, CSV_CHUNK_ROWS), line: transactionCsvLine });
    },
  );
}
