import type { FastifyInstance } from 'fastify';
import { parsePaging, toPagedList } from '../../../src/domain/paged-list';
import { isManager } from '../../../src/domain/roles';
import { categorySchema, type CategoryInput } from '../../../src/domain/schemas/catalogue';
import { ok } from '../http/envelope';
import { HttpError, notFound } from '../http/http-error';
import { isUniqueViolation } from '../http/postgres-errors';
import { type IdParams, pagingQuery, type PagingQuery, uuidParams } from '../http/route-schemas';
import { validBody } from '../http/valid-body';
import { auditedCategory } from '../audit/audited-records';
import { auditWho, recordChange } from '../audit/record-audit';
import { documented, results } from '../openapi';
import { categoriesRepository, categoryInputOf, categoryValues } from '../repositories/categories-repository';

const nameTaken = (name: string) => {
  const message = `Category name ${name} is already taken, please try another`;
  return new HttpError(409, message, [{ field: 'name', message }]);
};

export default async function categoriesRoutes(app: FastifyInstance) {
  const repo = categoriesRepository(app.db);
  const managersOnly = [app.authenticate, app.requireManager];

  /** Checks what the schema cannot: the agent exists and the name is free. */
  async function checkInput(input: CategoryInput, exceptId?: string) {
    if (!(await repo.findAgent(input.user))) {
      throw new HttpError(400, 'Please select the agent', [{ field: 'user', message: 'Please select the agent' }]);
    }
    if (await repo.nameTaken(input.name, exceptId)) throw nameTaken(input.name);
  }

  const save = async <T>(name: string, write: () => Promise<T>) => {
    try {
      const written = await write();
      // USSD menus are made of the catalogue: they read it again at once.
      app.ingestion.forgetCatalogue();
      return written;
    } catch (error) {
      // Two writers racing past the pre-check meet the unique index.
      if (isUniqueViolation(error)) throw nameTaken(name);
      throw error;
    }
  };

  app.get<{ Querystring: PagingQuery }>(
    '/v1/category',
    {
      schema: { tags: ['categories'], summary: 'List the categories (an agent sees its own)', querystring: pagingQuery },
      onRequest: [app.authenticate],
      config: { swaggerTransform: documented({ results: results.page('Category') }) },
    },
    async (request, reply) => {
      const { page, limit, offset } = parsePaging(request.query);
      // Agents own categories (SPEC §6) and see only theirs.
      const ownerId = isManager(request.user.role) ? undefined : request.user.id;
      const { docs, total } = await repo.list({ offset, limit, ownerId });
      return ok(reply, 'Categories', toPagedList(docs, page, limit, total));
    },
  );

  const nameTaken409 = { 409: 'The category name is taken' };
  const created = { swaggerTransform: documented({ body: categorySchema, results: results.entity('Category'), status: 201, errors: nameTaken409 }) };
  // A PATCH may leave fields out; the stored values fill them before the same schema checks the whole.
  const updated = { swaggerTransform: documented({ body: categorySchema.partial(), results: results.entity('Category'), errors: nameTaken409 }) };

  app.post('/v1/category', { schema: { tags: ['categories'], summary: 'Create a category' }, onRequest: managersOnly, config: created }, async (request, reply) => {
    const input = await validBody(categorySchema, request.body);
    await checkInput(input);
    const category = await save(input.name, () =>
      app.db.transaction(async (tx) => {
        const written = categoriesRepository(tx);
        const created = (await written.findView((await written.create(categoryValues(input))).id))!;
        await recordChange(tx, auditWho(request), 'category.create', { after: auditedCategory(created) });
        return created;
      }),
    );
    return ok(reply, 'Successfully created the category', category, 201);
  });

  app.patch<{ Params: IdParams }>(
    '/v1/category/:id',
    { schema: { tags: ['categories'], summary: 'Edit a category', params: uuidParams }, onRequest: managersOnly, config: updated },
    async (request, reply) => {
      const existing = await repo.findById(request.params.id);
      if (!existing) throw notFound('Category');
      // A PATCH may carry only the fields that change; the rest keep their stored values.
      const body = typeof request.body === 'object' && request.body !== null ? request.body : {};
      const input = await validBody(categorySchema, { ...categoryInputOf(existing), ...body });
      await checkInput(input, existing.id);
      const category = await save(input.name, () =>
        app.db.transaction(async (tx) => {
          const written = categoriesRepository(tx);
          const before = (await written.findView(existing.id, { lock: true }))!;
          await written.update(existing.id, categoryValues(input));
          const after = (await written.findView(existing.id))!;
          await recordChange(tx, auditWho(request), 'category.update', { before: auditedCategory(before), after: auditedCategory(after) });
          return after;
        }),
      );
      return ok(reply, 'Successfully updated the category', category);
    },
  );
}
