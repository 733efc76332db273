import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parsePaging, toPagedList } from '../../../src/domain/paged-list';
import { isManager } from '../../../src/domain/roles';
import { contentSchema, type ContentInput } from '../../../src/domain/schemas/catalogue';
import { ok } from '../http/envelope';
import { forbidden, HttpError, notFound } from '../http/http-error';
import { isUniqueViolation } from '../http/postgres-errors';
import { type IdParams, pagingQuery, type PagingQuery, uuidParams } from '../http/route-schemas';
import { validBody } from '../http/valid-body';
import { auditedContent } from '../audit/audited-records';
import { auditWho, changeEntry, recordAudit } from '../audit/record-audit';
import type { ContentValues } from '../repositories/contents-repository';
import { documented, results } from '../openapi';
import { categoriesRepository } from '../repositories/categories-repository';
import { contentsRepository } from '../repositories/contents-repository';

const OWN_CATEGORIES_ONLY = 'You can only manage contents of your own categories';

export default async function contentsRoutes(app: FastifyInstance) {
  const repo = contentsRepository(app.db);
  const categoriesRepo = categoriesRepository(app.db);

  /** The category must exist, and an agent may only use the categories it owns. */
  async function checkCategory(request: FastifyRequest, categoryId: string) {
    const category = await categoriesRepo.findById(categoryId);
    if (!category) throw new HttpError(400, 'Please select the category', [{ field: 'category', message: 'Please select the category' }]);
    if (!isManager(request.user.role) && category.userId !== request.user.id) throw forbidden(OWN_CATEGORIES_ONLY);
  }

  const values = (input: ContentInput, createdById: string | null) => ({
    name: input.name || null,
    description: input.description || null,
    categoryId: input.category,
    categoryLevel: input.categoryLevel,
    message: input.message,
    active: input.active ?? false,
    createdById,
  });

  /**
   * Creates (no `id`) or edits a content with its audit entries, in one transaction: its own, and one
   * for each content of the same slot that stepped down because this one became active.
   */
  const save = async (request: FastifyRequest, values: ContentValues, id?: string) => {
    try {
      const written = await app.db.transaction(async (tx) => {
        const repo = contentsRepository(tx);
        const before = id ? await repo.findView(id, { lock: true }) : undefined;
        const { row, steppedDown } = id ? await repo.update(id, values) : await repo.create(values);
        const after = (await repo.findView(row.id))!;
        const who = auditWho(request);
        const saved = auditedContent(after);
        const entries = [changeEntry(who, id ? 'content.update' : 'content.create', { before: before && auditedContent(before), after: saved })];
        for (const other of steppedDown) {
          const now = auditedContent((await repo.findView(other))!);
          const reason = `${saved.entity.label} was activated in its place`;
          entries.push({ ...who, action: 'content.update', entity: now.entity, before: { ...now.record, active: true }, after: now.record, reason });
        }
        await recordAudit(tx, entries.filter((entry) => entry !== null));
        return after;
      });
      // USSD menus are made of the catalogue: they read it again at once.
      app.ingestion.forgetCatalogue();
      return written;
    } catch (error) {
      // Two activations of the same slot racing: the partial unique index keeps one.
      if (isUniqueViolation(error)) throw new HttpError(409, 'Another content was activated at the same time, please try again');
      throw error;
    }
  };

  app.get<{ Querystring: PagingQuery }>(
    '/v1/ticket',
    {
      schema: { tags: ['contents'], summary: 'List the ticket contents (an agent sees those of its categories)', querystring: pagingQuery },
      onRequest: [app.authenticate],
      config: { swaggerTransform: documented({ results: results.page('Content') }) },
    },
    async (request, reply) => {
      const { page, limit, offset } = parsePaging(request.query);
      const ownerId = isManager(request.user.role) ? undefined : request.user.id;
      const { docs, total } = await repo.list({ offset, limit, ownerId });
      return ok(reply, 'Contents', toPagedList(docs, page, limit, total));
    },
  );

  const raced409 = { 409: 'Another content of the same slot was activated at the same time' };
  const created = { swaggerTransform: documented({ body: contentSchema, results: results.entity('Content'), status: 201, errors: raced409 }) };
  // A PATCH may leave fields out; the stored values fill them before the same schema checks the whole.
  const updated = { swaggerTransform: documented({ body: contentSchema.partial(), results: results.entity('Content'), errors: raced409 }) };

  app.post('/v1/ticket', { schema: { tags: ['contents'], summary: 'Create a ticket content' }, onRequest: [app.authenticate, app.refuseCustomerCare], config: created }, async (request, reply) => {
    const input = await validBody(contentSchema, request.body);
    await checkCategory(request, input.category);
    return ok(reply, 'Successfully created a ticket', await save(request, values(input, request.user.id)), 201);
  });

  app.patch<{ Params: IdParams }>(
    '/v1/ticket/:id',
    { schema: { tags: ['contents'], summary: 'Edit a ticket content', params: uuidParams }, onRequest: [app.authenticate, app.refuseCustomerCare], config: updated },
    async (request, reply) => {
      const existing = await repo.findById(request.params.id);
      if (!existing) throw notFound('Content');
      await checkCategory(request, existing.categoryId);
      const body = typeof request.body === 'object' && request.body !== null ? request.body : {};
      const stored = {
        name: existing.name,
        description: existing.description,
        category: existing.categoryId,
        categoryLevel: existing.categoryLevel,
        message: existing.message,
        active: existing.active,
      };
      const input = await validBody(contentSchema, { ...stored, ...body });
      if (input.category !== existing.categoryId) await checkCategory(request, input.category);
      return ok(reply, 'Successfully updated the ticket', await save(request, values(input, existing.createdById), existing.id));
    },
  );
}
