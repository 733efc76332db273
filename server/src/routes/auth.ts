import type { FastifyInstance } from 'fastify';
import { forgotPasswordSchema, loginSchema, resetPasswordBodySchema } from '../../../src/domain/schemas/auth';
import { createUserSchema } from '../../../src/domain/schemas/user';
import { accessTokenClaims } from '../auth/access-tokens';
import type { CreatableRole } from '../../../src/domain/roles';
import { createAccount } from '../auth/accounts';
import { forgottenPasswords, resetPasswordWithToken } from '../auth/password-resets';
import { resetLinks, type ResetLinkSettings } from '../auth/reset-links';
import { endSessionOfRefreshToken, rotateRefreshToken } from '../auth/sessions';
import { signIn } from '../auth/sign-in';
import { ok } from '../http/envelope';
import { HttpError } from '../http/http-error';
import { validBody } from '../http/valid-body';
import { auditWho } from '../audit/record-audit';
import { documented, ref, results } from '../openapi';
import { sessionAnswer } from '../auth/session-answer';
import { toUser, usersRepository } from '../repositories/users-repository';

const tokenBody = {
  type: 'object',
  properties: { token: { type: 'string' } },
} as const;
type TokenBody = { token?: string } | undefined;

/** SPEC §7 reads the new tokens at the top level; `results` repeats them. */
const refreshDocs = documented({
  errors: { 401: 'The refresh token is unknown, expired or used more than 10 s ago (then the session is revoked)' },
  answer: {
    type: 'object',
    properties: {
      status: { type: 'boolean', enum: [true] },
      message: { type: 'string' },
      accessToken: { type: 'string' },
      refreshToken: { type: 'string' },
      results: { type: 'object', properties: { accessToken: { type: 'string' }, refreshToken: { type: 'string' } }, required: ['accessToken', 'refreshToken'] },
    },
    required: ['status', 'message', 'accessToken', 'refreshToken', 'results'],
  },
});

/** The reset link's token; checked against its stored hash, so only its size is bounded here. */
const tokenParams = { type: 'object', properties: { token: { type: 'string', maxLength: 512 } }, required: ['token'] };

export default async function authRoutes(app: FastifyInstance, options: ResetLinkSettings = {}) {
  const repo = usersRepository(app.db);
  const links = resetLinks(options);
  const forgotten = forgottenPasswords(app.db, app.providers.mail);
  app.addHook('onClose', async () => forgotten.settled());

  const loginDocs = documented({
    summary: 'Sign in: the tokens, or for an account with two-factor sign-in a challenge for POST /v1/auth/2fa/verify',
    body: loginSchema,
    results: { oneOf: [ref('Session'), ref('TwoFactorChallenge')] },
    errors: { 401: 'Incorrect username or password, or the account is disabled', 429: 'Too many failed sign-ins for this name, or from this address' },
  });
  app.post('/v1/auth/login', { schema: { tags: ['auth'] }, config: { swaggerTransform: loginDocs } }, async (request, reply) => {
    const input = await validBody(loginSchema, request.body);
    const signedIn = await signIn(app.db, { userName: input.userName, password: input.password, address: request.ip });
    if ('twoFactorRequired' in signedIn) return ok(reply, 'Enter the code from your authenticator app', signedIn);
    return ok(reply, 'Logged in', sessionAnswer(app, signedIn));
  });

  app.post<{ Body: TokenBody }>('/v1/auth/refresh-token', { schema: { tags: ['auth'], summary: 'Trade a refresh token for new tokens', body: tokenBody }, config: { swaggerTransform: refreshDocs } }, async (request, reply) => {
    const presented = request.body?.token;
    if (!presented) throw new HttpError(400, 'No refresh token available', [{ field: 'token', message: 'No refresh token available' }]);
    const rotated = await rotateRefreshToken(app.db, presented, app.refreshTokenKey);
    if (!rotated.ok) {
      if (rotated.reason === 'reused') app.sessionCheck.forget();
      throw new HttpError(401, rotated.reason === 'reused' ? 'Refresh token reused; session revoked' : 'Invalid refresh token');
    }
    const user = await repo.findById(rotated.userId);
    if (!user || user.disabledAt) throw new HttpError(401, 'Invalid refresh token');
    const accessToken = app.jwt.sign(accessTokenClaims(user, rotated.sessionId, rotated.rotatedAt));
    // SPEC §7 reads status, accessToken and refreshToken at the top level.
    return reply.send({
      status: true,
      message: 'Token refreshed',
      accessToken,
      refreshToken: rotated.token,
      results: { accessToken, refreshToken: rotated.token },
    });
  });

  app.post<{ Body: TokenBody }>('/v1/auth/logout', { schema: { tags: ['auth'], summary: 'End the session of a refresh token', body: tokenBody }, config: { swaggerTransform: documented({}) } }, async (request, reply) => {
    const presented = request.body?.token;
    if (presented) {
      await endSessionOfRefreshToken(app.db, presented);
      app.sessionCheck.forget();
    }
    return ok(reply, 'Logged out', null);
  });

  app.post('/v1/auth/forgot-password', { schema: { tags: ['auth'], summary: 'Mail a password reset link' }, config: { swaggerTransform: documented({ body: forgotPasswordSchema, errors: { 429: 'Too many requests from this address' } }) } }, async (request, reply) => {
    const input = await validBody(forgotPasswordSchema, request.body);
    await forgotten.request({ email: input.email, address: request.ip, link: links.forRequest(request, input.redirectUrl) }, request.log);
    // Same answer whether or not the address is known, so it cannot be used to find accounts.
    return ok(reply, `Please visit your email ${input.email} to reset your password`, null);
  });

  app.post<{ Params: { token: string } }>(
    '/v1/auth/reset-forgot-password/:token',
    {
      schema: { tags: ['auth'], summary: 'Choose a new password with a reset link' },
      config: { swaggerTransform: documented({ body: resetPasswordBodySchema, params: tokenParams, errors: { 429: 'Too many reset attempts from this address' } }) },
    },
    async (request, reply) => {
      const input = await validBody(resetPasswordBodySchema, request.body);
      await resetPasswordWithToken(app.db, { token: request.params.token, password: input.password, address: request.ip });
      app.sessionCheck.forget();
      return ok(reply, 'Your password has been reset, you can now sign in', null);
    },
  );

  app.get('/v1/auth/profile', { schema: { tags: ['auth'], summary: 'Who is signed in' }, onRequest: [app.authenticate], config: { afcon: true, twoFactorSetup: true, swaggerTransform: documented({ results: results.entity('User') }) } }, async (request, reply) => {
    const user = await repo.findById(request.user.id);
    if (!user) throw new HttpError(401, 'Please sign in again');
    return ok(reply, 'Profile', toUser(user));
  });

  app.post(
    '/v1/auth/create/other',
    {
      schema: { tags: ['users'], summary: 'Create an agent account' },
      onRequest: [app.authenticate, app.requireManager],
      config: { swaggerTransform: documented({ body: createUserSchema, results: results.entity('User'), status: 201, errors: { 409: 'The user name is taken' } }) },
    },
    async (request, reply) => {
      const input = await validBody(createUserSchema, request.body);
      return ok(reply, 'Successfully created a new user', toUser(await createAccount(app.db, auditWho(request), { ...input, role: input.role as CreatableRole })), 201);
    },
  );
}
