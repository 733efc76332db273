import type { FastifyInstance } from 'fastify';
import { twoFactorDisableSchema, twoFactorEnableSchema, twoFactorVerifySchema } from '../../../src/domain/two-factor';
import { auditWho } from '../audit/record-audit';
import { sessionAnswer } from '../auth/session-answer';
import { openSession } from '../auth/sign-in';
import { ok } from '../http/envelope';
import { notFound } from '../http/http-error';
import { uuidParams, type IdParams } from '../http/route-schemas';
import { validBody } from '../http/valid-body';
import { documented, ref, results } from '../openapi';
import { toUser } from '../repositories/users-repository';

/**
 * Two-factor sign-in (auth/two-factor.ts): enrolment and turning it off by its owner, the second
 * step of a sign-in, and an admin's reset for a lost phone.
 */
export default async function twoFactorRoutes(app: FastifyInstance) {
  // Enrolment stays reachable for an account its role requires to enrol first, and for the Afcon-only account.
  const ownAccount = { afcon: true, twoFactorSetup: true };

  app.post(
    '/v1/auth/2fa/setup',
    {
      schema: { tags: ['auth'] },
      onRequest: [app.authenticate],
      config: {
        ...ownAccount,
        swaggerTransform: documented({
          summary: 'Start enrolling in two-factor sign-in: a new secret to scan, answered this once',
          results: ref('TwoFactorSetup'),
          errors: { 409: 'Two-factor sign-in is on already' },
        }),
      },
    },
    async (request, reply) => ok(reply, 'Scan the QR code, then enter a code to turn two-factor sign-in on', await app.twoFactor.setup(request.user)),
  );

  app.post(
    '/v1/auth/2fa/enable',
    {
      schema: { tags: ['auth'] },
      onRequest: [app.authenticate],
      config: {
        ...ownAccount,
        swaggerTransform: documented({
          summary: 'Turn two-factor sign-in on with a first code; answers ten recovery codes, shown this once',
          body: twoFactorEnableSchema,
          results: ref('RecoveryCodes'),
          errors: { 409: 'Not set up yet, or on already', 429: 'Too many wrong codes for this account' },
        }),
      },
    },
    async (request, reply) => {
      const { code } = await validBody(twoFactorEnableSchema, request.body);
      const recoveryCodes = await app.twoFactor.enable(auditWho(request), request.user.id, code);
      // A role that requires two-factor reaches everything from the next request on.
      app.sessionCheck.forget();
      return ok(reply, 'Two-factor sign-in is on', { recoveryCodes });
    },
  );

  app.post(
    '/v1/auth/2fa/disable',
    {
      schema: { tags: ['auth'] },
      onRequest: [app.authenticate],
      config: {
        afcon: true,
        swaggerTransform: documented({
          summary: 'Turn two-factor sign-in off, with the password and a code or a recovery code',
          body: twoFactorDisableSchema,
          results: results.none,
          errors: { 409: 'Two-factor sign-in is not on', 429: 'Too many wrong codes for this account' },
        }),
      },
    },
    async (request, reply) => {
      const input = await validBody(twoFactorDisableSchema, request.body);
      await app.twoFactor.disable(auditWho(request), request.user.id, input);
      app.sessionCheck.forget();
      return ok(reply, 'Two-factor sign-in is off', null);
    },
  );

  app.post(
    '/v1/auth/2fa/verify',
    {
      schema: { tags: ['auth'] },
      config: {
        swaggerTransform: documented({
          summary: "A sign-in's second step: the login's challenge and a code or recovery code; answers as login does",
          body: twoFactorVerifySchema,
          results: ref('Session'),
          errors: { 401: 'A wrong code, or the challenge ended (used, expired, or 5 wrong codes): sign in again' },
        }),
      },
    },
    async (request, reply) => {
      const input = await validBody(twoFactorVerifySchema, request.body);
      const user = await app.twoFactor.verify(input, request.ip);
      return ok(reply, 'Logged in', sessionAnswer(app, await openSession(app.db, user, request.ip)));
    },
  );

  app.post<{ Params: IdParams }>(
    '/v1/users/:id/2fa/reset',
    {
      schema: { tags: ['users'], params: uuidParams },
      onRequest: [app.authenticate, app.requireManager],
      config: {
        swaggerTransform: documented({
          summary: "Reset another account's two-factor sign-in (a lost phone): it enrols again",
          results: results.entity('User'),
          errors: { 403: 'Your own account: turn it off from your profile' },
        }),
      },
    },
    async (request, reply) => {
      const user = await app.twoFactor.reset(auditWho(request), request.params.id);
      if (!user) throw notFound('User');
      app.sessionCheck.forget();
      return ok(reply, 'Two-factor sign-in reset', toUser(user));
    },
  );
}
