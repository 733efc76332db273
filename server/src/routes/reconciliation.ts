import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { plural, serviceTimeZone } from '../../../src/domain/format';
import { auditEntityLabel } from '../../../src/domain/audit';
import { parsePaging, toPagedList } from '../../../src/domain/paged-list';
import { DIRECTION_CONTROL_MESSAGE, hasDirectionControl } from '../../../src/domain/schemas/text';
import {
  RECONCILIATION_CSV_HEADER,
  reconciliationCsvLine,
  reviewRowSchema,
  BULK_REVIEW_MAX,
  bulkReviewSchema,
  statementFileName,
  statementListQuerySchema,
  statementRowsQuerySchema,
  statementUploadQuerySchema,
  STATEMENT_MAX_BYTES,
  STATEMENT_MAX_MB,
  voidStatementSchema,
  type ReconciliationKind,
  type ReconciliationRow,
  type ReconciliationStatement,
} from '../../../src/domain/reconciliation';
import { CSV_CHUNK_ROWS, sendCsv } from '../http/csv-download';
import { ok, okPagedJson } from '../http/envelope';
import { HttpError, notFound } from '../http/http-error';
import { pagingQuery, uuidParams, type IdParams, type PagingQuery } from '../http/route-schemas';
import { validBody } from '../http/valid-body';
import { auditWho, recordAudit } from '../audit/record-audit';
import { documented, pageOf, results, textAnswer } from '../openapi';
import { statementActions } from '../reconciliation/statement-actions';
import { declaredPeriod, readStatement, statementTooLarge, type ReadStatement } from '../reconciliation/statement-csv';
import { statementImport } from '../reconciliation/statement-import';
import { reconciliationRepository } from '../repositories/reconciliation-repository';

type RowParams = IdParams & { rowId: string };
type RowsQuery = PagingQuery & { kind?: string };
type UploadQuery = { fileName?: string; periodFrom?: string; periodTo?: string };

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

/** The upload's name: `?fileName=`, or an `X-File-Name` header (percent-encoded, as headers carry only Latin-1). */
function rawUploadName(request: FastifyRequest<{ Querystring: UploadQuery }>): string | undefined {
  const header = request.headers['x-file-name'];
  try {
    return request.query.fileName ?? (typeof header === 'string' ? decodeURIComponent(header) : undefined);
  } catch {
    return undefined;
  }
}

/**
 * What an upload is checked for before its body is read: CSV (415), its declared length (413), its
 * declared period and its file name (400), so nothing of a refused upload is parsed.
 */
async function checkUpload(request: FastifyRequest<{ Querystring: UploadQuery }>) {
  const type = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'text/csv') throw new HttpError(415, NOT_CSV, [{ field: 'content-type', message: NOT_CSV }]);
  const length = Number(request.headers['content-length']);
  if (length > STATEMENT_MAX_BYTES) throw statementTooLarge();
  await validBody(statementUploadQuerySchema, request.query);
  if (hasDirectionControl(rawUploadName(request) ?? '')) throw new HttpError(400, DIRECTION_CONTROL_MESSAGE, [{ field: 'fileName', message: DIRECTION_CONTROL_MESSAGE }]);
}

async function rowsKind(query: unknown): Promise<ReconciliationKind | undefined> {
  const { kind } = await validBody(statementRowsQuerySchema, query);
  return (kind || undefined) as ReconciliationKind | undefined;
}

/**
 * Reconciliation with the payment provider's statement (DESIGN §7), for admins and super-users:
 * upload a statement, read its rows per kind, export them, act on the rows that need it, void it.
 * The workflows live in server/src/reconciliation; this validates, calls and answers.
 */
/** A statement's rows of one kind, or of all (its lines and the paid calls it had no line for). */
const rowCount = (statement: ReconciliationStatement, kind: ReconciliationKind | undefined) =>
  kind ? statement.counts[kind] : Object.values(statement.counts).reduce((sum, count) => sum + count, 0);

export default async function reconciliationRoutes(app: FastifyInstance, { serviceCurrency }: { serviceCurrency: string }) {
  const repo = reconciliationRepository(app.db);
  const importStatement = statementImport({ db: app.db, serviceCurrency });
  const actions = statementActions({ db: app.db, reconcile: app.ingestion.reconcile });
  const managers = [app.authenticate, app.requireManager];

  // The statement is read as it streams in: checked line by line, within STATEMENT_MAX_BYTES and the declared period.
  app.addContentTypeParser('text/csv', async (request: FastifyRequest, payload: Readable) => {
    const { periodFrom, periodTo } = request.query as UploadQuery;
    const timeZone = serviceTimeZone();
    return readStatement(payload, { maxBytes: STATEMENT_MAX_BYTES, timeZone, period: periodFrom && periodTo ? declaredPeriod(periodFrom, periodTo, timeZone) : undefined });
  });

  app.post<{ Querystring: UploadQuery }>(
    '/v1/reconciliation/statements',
    {
      schema: {
        tags: ['reconciliation'],
        summary: "Upload the payment provider's statement (CSV); the same file twice is one statement",
        querystring: { type: 'object', properties: { fileName: { type: 'string', maxLength: 255 } } },
      },
      onRequest: [...managers, checkUpload],
      bodyLimit: STATEMENT_MAX_BYTES,
      config: {
        swaggerTransform: documented({
          query: statementUploadQuerySchema,
          textBody: textAnswer(
            'text/csv',
            `UTF-8 CSV (a BOM and CRLF are fine), at most ${STATEMENT_MAX_MB} MB, with the header reference,amount,currency,status,completedAt in any order, and optionally type; other columns are ignored. type is PAYMENT (also payment, collection, sale; empty or absent) or REFUND (also refund, reversal), and a REFUND line's reference is the refund's providerRef. status is SUCCESSFUL or FAILED; amount has at most two decimals; currency is a three-letter ISO 4217 code; completedAt is ISO 8601, in the service's time zone when it has no offset. Without a declared period the lines may span at most 31 days`,
          ),
          results: statementRef,
          status: 201,
          foundAnswer: 'The same file was uploaded before: its statement, counted once',
          errors: { 409: 'The same file is still being imported by another upload', 413: `The file is larger than ${STATEMENT_MAX_MB} MB`, 415: NOT_CSV },
        }),
      },
    },
    async (request, reply) => {
      const { id, created } = await importStatement(request.body as ReadStatement, { fileName: statementFileName(rawUploadName(request)), who: auditWho(request) });
      return ok(reply, created ? 'Statement imported' : 'This statement was imported already', { _id: id }, created ? 201 : 200);
    },
  );

  app.get<{ Querystring: PagingQuery & { voided?: string } }>(
    '/v1/reconciliation/statements',
    {
      schema: { tags: ['reconciliation'], summary: 'The uploaded statements, newest first (the voided ones with ?voided=true): who, when, the file and its counts', querystring: pagingQuery },
      onRequest: managers,
      config: { swaggerTransform: documented({ query: statementListQuerySchema, results: results.page('ReconciliationStatement') }) },
    },
    async (request, reply) => {
      const { voided } = await validBody(statementListQuerySchema, { voided: request.query.voided });
      const { page, limit, offset } = parsePaging(request.query, 10);
      const { docsJson, total } = await repo.pageJson(offset, limit, voided === true);
      return okPagedJson(reply, voided ? 'Voided statements' : 'Statements', docsJson, page, limit, total);
    },
  );

  app.get<{ Params: IdParams; Querystring: RowsQuery }>(
    '/v1/reconciliation/statements/:id',
    {
      schema: { tags: ['reconciliation'], summary: "A statement's counts per kind and a page of its rows (of one kind with ?kind=); a page past the last is refused", params: uuidParams, querystring: rowsQuery },
      onRequest: managers,
      config: { swaggerTransform: documented({ query: statementRowsQuerySchema, results: statementWithRows }) },
    },
    async (request, reply) => {
      const kind = await rowsKind({ kind: request.query.kind });
      const { page, limit, offset } = parsePaging(request.query, 50);
      const statement = await repo.find(request.params.id);
      if (!statement) throw notFound('Statement');
      const total = rowCount(statement, kind);
      const pages = Math.max(1, Math.ceil(total / limit));
      if (page > pages) {
        const message = `There ${pages === 1 ? 'is' : 'are'} ${plural(pages, 'page')} of these rows`;
        throw new HttpError(400, message, [{ field: 'page', message }]);
      }
      const rows = JSON.parse(await repo.rowsPageJson(statement._id, kind, offset, limit)) as ReconciliationRow[];
      return ok(reply, 'Statement', { ...statement, rows: toPagedList(rows, page, limit, total) });
    },
  );

  app.get<{ Params: IdParams; Querystring: { kind?: string } }>(
    '/v1/reconciliation/statements/:id/export',
    {
      schema: { tags: ['reconciliation'], summary: "A statement's rows as CSV (of one kind with ?kind=), in the file's order", params: uuidParams, querystring: { type: 'object', properties: { kind: { type: 'string' } } } },
      onRequest: managers,
      config: {
        swaggerTransform: documented({
          query: statementRowsQuerySchema,
          answer: textAnswer('text/csv', "The rows as CSV: the provider's line, the call as it is now, and what staff did; times in the service's zone with their offset"),
        }),
      },
    },
    async (request, reply) => {
      const kind = await rowsKind({ kind: request.query.kind });
      const statement = await repo.find(request.params.id);
      if (!statement) throw notFound('Statement');
      const file = `reconciliation-${statement.createdAt.slice(0, 10)}${kind ? `-${kind}` : ''}.csv`;
      const rows = rowCount(statement, kind);
      const filter = { statement: statement._id, kind: kind ?? null };
      await recordAudit(app.db, { ...auditWho(request), action: 'export.statement', entity: { type: 'export', id: null, label: auditEntityLabel('export', file) }, after: { filter, rows } });
      return sendCsv(reply, { file, header: RECONCILIATION_CSV_HEADER, chunks: repo.rowChunks(statement._id, kind, CSV_CHUNK_ROWS), line: reconciliationCsvLine });
    },
  );

  app.post<{ Params: IdParams }>(
    '/v1/reconciliation/statements/:id/void',
    {
      schema: { tags: ['reconciliation'], summary: 'Void a statement with the reason: out of the default list, and no longer vouching for any payment', params: uuidParams },
      onRequest: managers,
      config: { swaggerTransform: documented({ body: voidStatementSchema, results: results.entity('ReconciliationStatement') }) },
    },
    async (request, reply) => {
      const { reason } = await validBody(voidStatementSchema, request.body);
      const { message, result } = await actions.voidStatement(request.params.id, auditWho(request), reason);
      return ok(reply, message, result);
    },
  );

  app.post<{ Params: RowParams }>(
    '/v1/reconciliation/statements/:id/rows/:rowId/issue-ticket',
    {
      schema: { tags: ['reconciliation'], summary: "Settle a paid-no-ticket row's call as the provider did: processed, its ticket SMS sent once", params: rowParams },
      onRequest: managers,
      config: { swaggerTransform: documented({ results: results.entity('ReconciliationRow'), errors: { 409: 'Only a paid-no-ticket row of a standing statement whose call exists can be issued a ticket' } }) },
    },
    async (request, reply) => {
      const { message, result } = await actions.issueTicket(request.params.id, request.params.rowId, auditWho(request));
      return ok(reply, message, result);
    },
  );

  app.post<{ Params: IdParams }>(
    '/v1/reconciliation/statements/:id/rows/review',
    {
      schema: {
        tags: ['reconciliation'],
        summary: `Mark up to ${BULK_REVIEW_MAX} exception rows of a statement reviewed with one note (on their calls' timelines); rows already acted on keep what was done`,
        params: uuidParams,
      },
      onRequest: managers,
      config: {
        swaggerTransform: documented({
          body: bulkReviewSchema,
          results: results.list('ReconciliationRow'),
          errors: { 409: 'The statement was voided' },
        }),
      },
    },
    async (request, reply) => {
      const { rowIds, note } = await validBody(bulkReviewSchema, request.body);
      const { message, result } = await actions.reviewMany(request.params.id, rowIds, auditWho(request), note);
      return ok(reply, message, result);
    },
  );

  app.post<{ Params: RowParams }>(
    '/v1/reconciliation/statements/:id/rows/:rowId/review',
    {
      schema: { tags: ['reconciliation'], summary: "Mark an exception row (any kind but matched) reviewed, with a note on its call's timeline", params: rowParams },
      onRequest: managers,
      config: { swaggerTransform: documented({ body: reviewRowSchema, results: results.entity('ReconciliationRow'), errors: { 409: 'Only an exception row of a standing statement can be marked reviewed' } }) },
    },
    async (request, reply) => {
      const { note } = await validBody(reviewRowSchema, request.body);
      const { message, result } = await actions.review(request.params.id, request.params.rowId, auditWho(request), note);
      return ok(reply, message, result);
    },
  );
}
