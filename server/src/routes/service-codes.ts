import type { FastifyInstance } from 'fastify';
import { parsePaging, toPagedList } from '../../../src/domain/paged-list';
import { todayInServiceZone } from '../../../src/domain/format';
import { isManager } from '../../../src/domain/roles';
import { compareServiceCodes } from '../../../src/domain/service-codes';
import { serviceCodeSchema, type ServiceCodeInput } from '../../../src/domain/schemas/catalogue';
import { ok } from '../http/envelope';
import { HttpError, notFound } from '../http/http-error';
import { isUniqueViolation } from '../http/postgres-errors';
import { type IdParams, pagingQuery, type PagingQuery, uuidParams } from '../http/route-schemas';
import { validBody } from '../http/valid-body';
import { auditedServiceCode } from '../audit/audited-records';
import { auditWho, recordChange } from '../audit/record-audit';
import { documented, results } from '../openapi';
import { categoriesRepository } from '../repositories/categories-repository';
import { serviceCodesRepository } from '../repositories/service-codes-repository';

const codeTaken = (name: string) => {
  const message = `Service code ${name} is already taken, please try another`;
  return new HttpError(409, message, [{ field: 'name', message }]);
};

export default async function serviceCodesRoutes(app: FastifyInstance) {
  const repo = serviceCodesRepository(app.db);
  const categoriesRepo = categoriesRepository(app.db);
  const managersOnly = [app.authenticate, app.requireManager];

  async function checkInput(input: ServiceCodeInput, exceptId?: string) {
    if (!(await categoriesRepo.findById(input.category))) {
      throw new HttpError(400, 'Please select the category', [{ field: 'category', message: 'Please select the category' }]);
    }
    if (await repo.nameTaken(input.name, exceptId)) throw codeTaken(input.name);
  }

  const values = (input: ServiceCodeInput) => ({ name: input.name, description: input.description || null, categoryId: input.category });

  const save = async <T>(name: string, write: () => Promise<T>) => {
    try {
      const written = await write();
      // USSD menus are made of the catalogue: they read it again at once.
      app.ingestion.forgetCatalogue();
      return written;
    } catch (error) {
      if (isUniqueViolation(error)) throw codeTaken(name);
      throw error;
    }
  };

  app.get<{ Querystring: PagingQuery }>(
    '/v1/short-code',
    {
      schema: { tags: ['service codes'], summary: 'List the service codes (an agent sees those of its categories)', querystring: pagingQuery },
      onRequest: [app.authenticate],
      config: { swaggerTransform: documented({ results: results.page('ServiceCode') }) },
    },
    async (request, reply) => {
      const { page, limit, offset } = parsePaging(request.query);
      // An agent sees the codes under the categories it owns.
      const ownerId = isManager(request.user.role) ? undefined : request.user.id;
      const { docs, total } = await repo.list({ offset, limit, ownerId });
      return ok(reply, 'Service codes', toPagedList(docs, page, limit, total));
    },
  );

  app.get(
    '/v1/short-code/today',
    {
      schema: { tags: ['service codes'], summary: "The service codes in natural order, with their category and today's calls and failed share (an agent's own)" },
      onRequest: [app.authenticate],
      config: { swaggerTransform: documented({ results: results.list('ServiceCodeToday') }) },
    },
    async (request, reply) => {
      const day = todayInServiceZone();
      const ownerId = isManager(request.user.role) ? undefined : request.user.id;
      const codes = await repo.dayFigures(day, ownerId);
      return ok(reply, `Service codes on ${day}`, codes.sort((a, b) => compareServiceCodes(a.name, b.name)));
    },
  );

  const codeTaken409 = { 409: 'The service code is taken' };
  const created = { swaggerTransform: documented({ body: serviceCodeSchema, results: results.entity('ServiceCode'), status: 201, errors: codeTaken409 }) };
  // A PATCH may leave fields out; the stored values fill them before the same schema checks the whole.
  const updated = { swaggerTransform: documented({ body: serviceCodeSchema.partial(), results: results.entity('ServiceCode'), errors: codeTaken409 }) };

  app.post('/v1/short-code', { schema: { tags: ['service codes'], summary: 'Register a service code' }, onRequest: managersOnly, config: created }, async (request, reply) => {
    const input = await validBody(serviceCodeSchema, request.body);
    await checkInput(input);
    const code = await save(input.name, () =>
      app.db.transaction(async (tx) => {
        const written = serviceCodesRepository(tx);
        const created = (await written.findView((await written.create(values(input))).id))!;
        await recordChange(tx, auditWho(request), 'service-code.create', { after: auditedServiceCode(created) });
        return created;
      }),
    );
    return ok(reply, 'Successfully registered a service code', code, 201);
  });

  app.patch<{ Params: IdParams }>(
    '/v1/short-code/:id',
    { schema: { tags: ['service codes'], summary: 'Edit a service code', params: uuidParams }, onRequest: managersOnly, config: updated },
    async (request, reply) => {
      const existing = await repo.findById(request.params.id);
      if (!existing) throw notFound('Service code');
      const body = typeof request.body === 'object' && request.body !== null ? request.body : {};
      const stored = { name: existing.name, description: existing.description, category: existing.categoryId ?? '0' };
      const input = await validBody(serviceCodeSchema, { ...stored, ...body });
      await checkInput(input, existing.id);
      const code = await save(input.name, () =>
        app.db.transaction(async (tx) => {
          const written = serviceCodesRepository(tx);
          const before = (await written.findView(existing.id, { lock: true }))!;
          await written.update(existing.id, values(input));
          const after = (await written.findView(existing.id))!;
          await recordChange(tx, auditWho(request), 'service-code.update', { before: auditedServiceCode(before), after: auditedServiceCode(after) });
          return after;
        }),
      );
      return ok(reply, 'Successfully updated the service code', code);
    },
  );
}
