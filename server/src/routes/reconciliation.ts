import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { serviceTimeZone } from '../../../src/domain/format';
import { parsePaging, toPagedList } from '../../../src/domain/paged-list';
import {
  RECONCILIATION_CSV_HEADER,
  reconciliationCsvLine,
  reviewRowSchema,
  statementFileName,
  statementRowsQuerySchema,
  STATEMENT_MAX_BYTES,
  STATEMENT_MAX_MB,
  type ReconciliationKind,
  type ReconciliationRow,
} from '../../../src/domain/reconciliation';
import { sendCsv } from '../http/csv-download';
import { ok, okPagedJson } from '../http/envelope';
import { HttpError, notFound } from '../http/http-error';
import { pagingQuery, uuidParams, type IdParams, type PagingQuery } from '../http/route-schemas';
import { validBody } from '../http/valid-body';
import { documented, pageOf, results, textAnswer } from '../openapi';
import { readStatement, statementTooLarge, type ReadStatement } from '../reconciliation/statement-csv';
import { reconciliationRepository } from '../repositories/reconciliation-repository';

type RowParams = IdParams & { rowId: string };
type RowsQuery = PagingQuery & { kind?: string };

const rowParams = {
  type: 'object',
  properties: { id: { type: 'string', format: 'uuid' }, rowId: { type: 'string', format: 'uuid' } },
  required: ['id', 'rowId'],
} as const;

const rowsQuery = { ...pagingQuery, properties: { ...pagingQuery.properties, kind: { type: 'string' } } } as const;

const NOT_CSV = 'Send the statement as text/csv';
const statementRef = { type: 'object', properties: { _id: { type: 'string', format: 'uuid' } }, required: ['_id'] };
const statementWithRows = {
  allOf: [{ $ref: '#/components/schemas/ReconciliationStatement' }, { type: 'object', properties: { rows: pageOf({ $ref: '#/components/schemas/ReconciliationRow' }) }, required: ['rows'] }],
};

/** Refuses any body but CSV before it is read (415), so a JSON body is never parsed here. */
async function csvOnly(request: FastifyRequest) {
  const type = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'text/csv') throw new HttpError(415, NOT_CSV, [{ field: 'content-type', message: NOT_CSV }]);
  const length = Number(request.headers['content-length']);
  if (length > STATEMENT_MAX_BYTES) throw statementTooLarge();
}

/** The upload's name: `?fileName=`, or an `X-File-Name` header (percent-encoded, as headers carry only Latin-1). */
function uploadName(request: FastifyRequest<{ Querystring: { fileName?: string } }>): string | null {
  const header = request.headers['x-file-name'];
  let fromHeader: string | undefined;
  try {
    fromHeader = typeof header === 'string' ? decodeURIComponent(header) : undefined;
  } catch {
    fromHeader = undefined;
  }
  return statementFileName(request.query.fileName ?? fromHeader);
}

async function rowsKind(query: unknown): Promise<ReconciliationKind | undefined> {
  const { kind } = await validBody(statementRowsQuerySchema, query);
  return (kind || undefined) as ReconciliationKind | undefined;
}

/**
 * Reconciliation with the payment provider's statement (DESIGN §7), for admins and super-users:
 * upload a statement, read its rows per kind, export them, and act on the rows that need it.
 */
export default async function reconciliationRoutes(app: FastifyInstance) {
  const repo = reconciliationRepository(app.db);
  const managers = [app.authenticate, app.requireManager];

  // The statement is read as it streams in: checked line by line, within STATEMENT_MAX_BYTES.
  app.addContentTypeParser('text/csv', async (_request: FastifyRequest, payload: Readable) => readStatement(payload, { maxBytes: STATEMENT_MAX_BYTES, timeZone: serviceTimeZone() }));

  app.post<{ Querystring: { fileName?: string } }>(
    '/v1/reconciliation/statements',
    {
      schema: {
        tags: ['reconciliation'],
        summary: "Upload the payment provider's statement (CSV); the same file twice is one statement",
        querystring: { type: 'object', properties: { fileName: { type: 'string', maxLength: 255 } } },
      },
      onRequest: [...managers, csvOnly],
      bodyLimit: STATEMENT_MAX_BYTES,
      config: {
        swaggerTransform: documented({
          textBody: textAnswer(
            'text/csv',
            `UTF-8 CSV (a BOM and CRLF are fine), at most ${STATEMENT_MAX_MB} MB, with the header reference,amount,currency,status,completedAt in any order; other columns are ignored. status is SUCCESSFUL or FAILED; amount has at most two decimals; completedAt is ISO 8601, in the service's time zone when it has no offset`,
          ),
          results: statementRef,
          status: 201,
          foundAnswer: 'The same file was uploaded before: its statement, counted once',
          errors: { 413: `The file is larger than ${STATEMENT_MAX_MB} MB`, 415: NOT_CSV },
        }),
      },
    },
    async (request, reply) => {
      const { id, created } = await repo.importStatement(request.body as ReadStatement, { fileName: uploadName(request), uploadedById: request.user.id });
      return ok(reply, created ? 'Statement imported' : 'This statement was imported already', { _id: id }, created ? 201 : 200);
    },
  );

  app.get<{ Querystring: PagingQuery }>(
    '/v1/reconciliation/statements',
    {
      schema: { tags: ['reconciliation'], summary: 'The uploaded statements, newest first: who, when, the file and its counts', querystring: pagingQuery },
      onRequest: managers,
      config: { swaggerTransform: documented({ results: results.page('ReconciliationStatement') }) },
    },
    async (request, reply) => {
      const { page, limit, offset } = parsePaging(request.query, 10);
      const { docsJson, total } = await repo.pageJson(offset, limit);
      return okPagedJson(reply, 'Statements', docsJson, page, limit, total);
    },
  );

  app.get<{ Params: IdParams; Querystring: RowsQuery }>(
    '/v1/reconciliation/statements/:id',
    {
      schema: { tags: ['reconciliation'], summary: "A statement's counts per kind and a page of its rows (of one kind with ?kind=)", params: uuidParams, querystring: rowsQuery },
      onRequest: managers,
      config: { swaggerTransform: documented({ query: statementRowsQuerySchema, results: statementWithRows }) },
    },
    async (request, reply) => {
      const kind = await rowsKind({ kind: request.query.kind });
      const { page, limit, offset } = parsePaging(request.query, 50);
      const statement = await repo.find(request.params.id);
      if (!statement) throw notFound('Statement');
      const rows = JSON.parse(await repo.rowsPageJson(statement._id, kind, offset, limit)) as ReconciliationRow[];
      const total = kind ? statement.counts[kind] : Object.values(statement.counts).reduce((sum, count) => sum + count, 0);
      return ok(reply, 'Statement', { ...statement, rows: toPagedList(rows, page, limit, total) });
    },
  );

  app.get<{ Params: IdParams; Querystring: { kind?: string } }>(
    '/v1/reconciliation/statements/:id/export',
    {
      schema: { tags: ['reconciliation'], summary: "A statement's rows as CSV (of one kind with ?kind=), in the file's order", params: uuidParams, querystring: { type: 'object', properties: { kind: { type: 'string' } } } },
      onRequest: managers,
      config: { swaggerTransform: documented({ query: statementRowsQuerySchema, answer: textAnswer('text/csv', "The rows as CSV: the provider's line, the call as it is now, and what staff did") }) },
    },
    async (request, reply) => {
      const kind = await rowsKind({ kind: request.query.kind });
      const statement = await repo.find(request.params.id);
      if (!statement) throw notFound('Statement');
      const file = `reconciliation-${statement.createdAt.slice(0, 10)}${kind ? `-${kind}` : ''}.csv`;
      return sendCsv(reply, { file, header: RECONCILIATION_CSV_HEADER, chunks: repo.rowChunks(statement._id, kind), line: reconciliationCsvLine });
    },
  );

  app.post<{ Params: RowParams }>(
    '/v1/reconciliation/statements/:id/rows/:rowId/issue-ticket',
    {
      schema: { tags: ['reconciliation'], summary: "Settle a paid-no-ticket row's call as the provider did: processed, its ticket SMS sent once", params: rowParams },
      onRequest: managers,
      config: { swaggerTransform: documented({ results: results.entity('ReconciliationRow'), errors: { 409: 'Only a paid-no-ticket row whose call exists can be issued a ticket' } }) },
    },
    async (request, reply) => {
      const row = await repo.findRow(request.params.id, request.params.rowId);
      if (!row) throw notFound('Statement row');
      if (row.kind !== 'paidNoTicket') throw new HttpError(409, 'Only a paid-no-ticket row can be issued a ticket');
      if (row.action) return ok(reply, 'The ticket was issued already', await repo.rowJson(row.id));
      const outcome = await app.ingestion.reconcile({
        reference: row.reference,
        userId: request.user.id,
        statement: row.fileName,
        line: row.line,
        amount: row.amount,
        completedAt: row.completedAt,
      });
      if (outcome.result === 'unknown') throw new HttpError(409, 'The call of this row no longer exists');
      await repo.markIssued(row.id, request.user.id);
      const message = outcome.result === 'reconciled' ? 'Ticket issued' : 'The call was processed already; no ticket was sent';
      return ok(reply, message, await repo.rowJson(row.id));
    },
  );

  app.post<{ Params: RowParams }>(
    '/v1/reconciliation/statements/:id/rows/:rowId/review',
    {
      schema: { tags: ['reconciliation'], summary: "Mark a ticket-no-money row reviewed, with a note on its call's timeline", params: rowParams },
      onRequest: managers,
      config: { swaggerTransform: documented({ body: reviewRowSchema, results: results.entity('ReconciliationRow'), errors: { 409: 'Only a ticket-no-money row can be marked reviewed' } }) },
    },
    async (request, reply) => {
      const { note } = await validBody(reviewRowSchema, request.body);
      const row = await repo.findRow(request.params.id, request.params.rowId);
      if (!row) throw notFound('Statement row');
      if (row.kind !== 'ticketNoMoney') throw new HttpError(409, 'Only a ticket-no-money row can be marked reviewed');
      const reviewed = await repo.markReviewed(row, request.user.id, note);
      return ok(reply, reviewed ? 'Marked reviewed' : 'This row was reviewed already', await repo.rowJson(row.id));
    },
  );
}

