import type { FastifyInstance } from 'fastify';
import { parsePaging, toPagedList } from '../../../src/domain/paged-list';
import { isEditableRole } from '../../../src/domain/roles';
import { editUserRequestSchema, profileSchema, updateUserSchema, userStatusSchema } from '../../../src/domain/schemas/user';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { endSessionsOfUser } from '../auth/sessions';
import { ok } from '../http/envelope';
import { HttpError, notFound } from '../http/http-error';
import { isUniqueViolation } from '../http/postgres-errors';
import { pagingQuery, uuidParams, type IdParams, type PagingQuery } from '../http/route-schemas';
import { validBody } from '../http/valid-body';
import { auditedUser } from '../audit/audited-records';
import { auditWho, recordChange } from '../audit/record-audit';
import { documented, results } from '../openapi';
import { toUser, usersRepository } from '../repositories/users-repository';
import { setAccountDisabled, userNameTaken } from '../auth/accounts';

export default async function usersRoutes(app: FastifyInstance) {
  const repo = usersRepository(app.db);

  app.get<{ Querystring: PagingQuery }>(
    '/v1/users',
    {
      schema: { tags: ['users'], summary: 'List the accounts', querystring: pagingQuery },
      onRequest: [app.authenticate, app.requireManager],
      config: { swaggerTransform: documented({ results: results.page('User') }) },
    },
    async (request, reply) => {
      const { page, limit, offset } = parsePaging(request.query);
      const { rows, total } = await repo.list(offset, limit);
      return ok(reply, 'Users', toPagedList(rows.map(toUser), page, limit, total));
    },
  );

  app.patch<{ Params: IdParams }>(
    '/v1/users/:id',
    {
      schema: { tags: ['users'], params: uuidParams },
      onRequest: [app.authenticate, app.requireManager],
      config: {
        swaggerTransform: documented({
          summary: 'Edit an agent; or, with `{ disabled }` alone, disable or enable any account but your own',
          body: editUserRequestSchema,
          results: results.entity('User'),
          errors: { 403: 'The account is an admin or super-user (edits), or your own (disable)', 409: 'The user name is taken' },
        }),
      },
    },
    async (request, reply) => {
      if (isStatusChange(request.body)) {
        const { disabled } = await validBody(userStatusSchema, request.body);
        const account = await setAccountDisabled(app.db, auditWho(request), request.params.id, disabled);
        if (!account) throw notFound('User');
        // This process refuses the account's sessions at once (live streams included); others within the session check's time.
        app.sessionCheck.forget();
        return ok(reply, disabled ? 'The account is disabled' : 'The account is enabled', toUser(account));
      }
      const target = await repo.findById(request.params.id);
      if (!target) throw notFound('User');
      if (!isEditableRole(target.role)) throw new HttpError(403, 'Admin and super-user accounts cannot be edited');
      const input = await validBody(updateUserSchema, request.body);
      const other = await repo.findByUserName(input.userName);
      if (other && other.id !== target.id) throw userNameTaken(input.userName);
      try {
        const values = {
          userName: input.userName,
          ...(input.isAfcon === undefined ? {} : { isAfcon: input.isAfcon }),
          ...(input.password ? { passwordHash: await hashPassword(input.password) } : {}),
        };
        const updated = await app.db.transaction(async (tx) => {
          const written = usersRepository(tx);
          const before = await written.findById(target.id, { lock: true });
          const after = await written.update(target.id, values);
          await recordChange(tx, auditWho(request), 'user.update', { before: auditedUser(before), after: auditedUser(after) });
          return after;
        });
        if (input.password) await endSessionsOfUser(app.db, target.id);
        // Name and Afcon switch are read with the session check: this process sees them at once.
        app.sessionCheck.forget();
        return ok(reply, 'Successfully updated a user', toUser(updated));
      } catch (error) {
        if (isUniqueViolation(error)) throw userNameTaken(input.userName);
        throw error;
      }
    },
  );

  app.patch(
    '/v1/users/update/profile',
    {
      schema: { tags: ['users'], summary: 'Update my profile' },
      onRequest: [app.authenticate],
      config: { afcon: true, twoFactorSetup: true, swaggerTransform: documented({ body: profileSchema, results: results.entity('User'), errors: { 404: 'The current password is wrong (SPEC §8)' } }) },
    },
    async (request, reply) => {
      const input = await validBody(profileSchema, request.body);
      const me = await repo.findById(request.user.id);
      if (!me) throw new HttpError(401, 'Please sign in again');
      // SPEC §8 reads 404 as a wrong current password and 403 as a taken name.
      if (!(await verifyPassword(me.passwordHash, input.myPassword))) {
        throw new HttpError(404, 'Wrong password', [{ field: 'myPassword', message: 'Wrong password' }]);
      }
      const other = await repo.findByUserName(input.userName);
      if (other && other.id !== me.id) {
        throw new HttpError(403, `Username ${input.userName} already taken`, [
          { field: 'userName', message: `Username ${input.userName} already taken` },
        ]);
      }
      const values = {
        userName: input.userName,
        ...(input.email === undefined ? {} : { email: input.email || null }),
        ...(input.password ? { passwordHash: await hashPassword(input.password) } : {}),
      };
      const updated = await app.db.transaction(async (tx) => {
        const written = usersRepository(tx);
        const before = await written.findById(me.id, { lock: true });
        const after = await written.update(me.id, values);
        await recordChange(tx, auditWho(request), input.password ? 'user.password-change' : 'user.update', { before: auditedUser(before), after: auditedUser(after) });
        return after;
      });
      // A new password ends every other session of the user; this one goes on.
      if (input.password) await endSessionsOfUser(app.db, me.id, request.user.sessionId);
      app.sessionCheck.forget();
      return ok(reply, 'Successfully updated your profile', toUser(updated));
    },
  );
}

/** `{ disabled }` is a request of its own; sent with other fields it is refused rather than half applied. */
function isStatusChange(body: unknown): boolean {
  if (!body || typeof body !== 'object' || Array.isArray(body) || !Object.hasOwn(body, 'disabled')) return false;
  if (Object.keys(body).length > 1) {
    const message = 'Disable or enable an account in a request of its own';
    throw new HttpError(400, message, [{ field: 'disabled', message }]);
  }
  return true;
}
