import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LoginUser } from '../../../src/domain/entities';
import type { Role } from '../../../src/domain/roles';
import { forgotPasswordSchema, loginSchema, resetPasswordBodySchema } from '../../../src/domain/schemas/auth';
import { createUserSchema } from '../../../src/domain/schemas/user';
import { resetPasswordWithToken } from '../auth/password-resets';
import { hashPassword, verifyPassword } from '../auth/passwords';
import {
  issueRefreshToken,
  randomToken,
  revokeRefreshToken,
  rotateRefreshToken,
  sha256,
} from '../auth/refresh-tokens';
import { HttpError, isUniqueViolation, ok, validBody } from '../http';
import { documented, results } from '../openapi';
import { signInRepository } from '../repositories/sign-in-repository';
import { toUser, usersRepository, type UserRow } from '../repositories/users-repository';
import { userNameTaken } from '../user-name-taken';

/** Failed sign-ins allowed per user name and address in the window before 429. */
export const LOGIN_MAX_FAILURES = 10;
const LOGIN_WINDOW_MS = 15 * 60 * 1000;
const RESET_TTL_MS = 60 * 60 * 1000;

const tokenBody = {
  type: 'object',
  properties: { token: { type: 'string' } },
} as const;
type TokenBody = { token?: string } | undefined;

/** SPEC §7 reads the new tokens at the top level; `results` repeats them. */
const refreshDocs = documented({
  errors: { 401: 'The refresh token is unknown, expired or already used (then the session is revoked)' },
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

export interface AuthRoutesOptions {
  /** The site's public origin for links in mail; when unset, the request's own Host header. */
  publicUrl?: string;
}

export default async function authRoutes(app: FastifyInstance, options: AuthRoutesOptions = {}) {
  const repo = usersRepository(app.db);
  const signIns = signInRepository(app.db);

  const accessTokenFor = (user: UserRow) =>
    app.jwt.sign({ sub: user.id, userName: user.userName, role: user.role as Role, isAfcon: user.isAfcon });

  const loginKey = (request: FastifyRequest, userName: string) => `${userName.toLowerCase()}|${request.ip}`;

  app.post('/v1/auth/login', { schema: { tags: ['auth'], summary: 'Sign in' }, config: { swaggerTransform: documented({ body: loginSchema, results: results.entity('Session'), errors: { 401: 'Incorrect username or password', 429: 'Too many failed sign-ins for this name from this address' } }) } }, async (request, reply) => {
    const input = await validBody(loginSchema, request.body);
    const key = loginKey(request, input.userName);
    const since = new Date(Date.now() - LOGIN_WINDOW_MS);
    if ((await signIns.failuresSince(key, since)) >= LOGIN_MAX_FAILURES) {
      throw new HttpError(429, 'Too many sign-in attempts, please try again in a few minutes');
    }
    const user = await repo.findByUserName(input.userName);
    // Verify against a fixed hash when the user is unknown so both paths cost the same.
    const valid = user ? await verifyPassword(user.passwordHash, input.password) : await verifyPassword(DUMMY_HASH, input.password);
    if (!user || !valid) {
      await signIns.recordFailure(key, since);
      throw new HttpError(401, 'Incorrect username or password');
    }
    await signIns.clearFailures(key);
    const loginUser: LoginUser = {
      id: user.id,
      userName: user.userName,
      role: user.role as Role,
      serviceCode: await repo.serviceCodesFor(user),
      isAfcon: user.isAfcon,
    };
    return ok(reply, 'Logged in', {
      user: loginUser,
      accessToken: accessTokenFor(user),
      refreshToken: await issueRefreshToken(app.db, user.id),
    });
  });

  app.post<{ Body: TokenBody }>('/v1/auth/refresh-token', { schema: { tags: ['auth'], summary: 'Trade a refresh token for new tokens', body: tokenBody }, config: { swaggerTransform: refreshDocs } }, async (request, reply) => {
    const presented = request.body?.token;
    if (!presented) throw new HttpError(400, 'No refresh token available', [{ field: 'token', message: 'No refresh token available' }]);
    const rotated = await rotateRefreshToken(app.db, presented);
    if (!rotated.ok) throw new HttpError(401, rotated.reason === 'reused' ? 'Refresh token reused; session revoked' : 'Invalid refresh token');
    const user = await repo.findById(rotated.userId);
    if (!user) throw new HttpError(401, 'Invalid refresh token');
    const accessToken = accessTokenFor(user);
    // SPEC §7 reads status, accessToken and refreshToken at the top level.
    return reply.send({
      status: true,
      message: 'Token refreshed',
      accessToken,
      refreshToken: rotated.token,
      results: { accessToken, refreshToken: rotated.token },
    });
  });

  app.post<{ Body: TokenBody }>('/v1/auth/logout', { schema: { tags: ['auth'], summary: 'Revoke a refresh token', body: tokenBody }, config: { swaggerTransform: documented({}) } }, async (request, reply) => {
    const presented = request.body?.token;
    if (presented) await revokeRefreshToken(app.db, presented);
    return ok(reply, 'Logged out', null);
  });

  app.post('/v1/auth/forgot-password', { schema: { tags: ['auth'], summary: 'Mail a password reset link' }, config: { swaggerTransform: documented({ body: forgotPasswordSchema }) } }, async (request, reply) => {
    const input = await validBody(forgotPasswordSchema, request.body);
    const user = await repo.findByEmail(input.email);
    if (user) {
      const token = randomToken();
      await signIns.createPasswordReset(user.id, sha256(token), new Date(Date.now() + RESET_TTL_MS));
      await app.providers.mail.send({
        to: input.email,
        subject: 'Reset your Dialdesk password',
        body: `Hello ${user.userName},\n\nTo choose a new password open ${resetLink(originOf(request, options.publicUrl), input.redirectUrl, token)}\nThe link works once, within one hour.`,
      });
    }
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
      return ok(reply, 'Your password has been reset, you can now sign in', null);
    },
  );

  app.get('/v1/auth/profile', { schema: { tags: ['auth'], summary: 'Who is signed in' }, onRequest: [app.authenticate], config: { afcon: true, swaggerTransform: documented({ results: results.entity('User') }) } }, async (request, reply) => {
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
      if (await repo.findByUserName(input.userName)) throw userNameTaken(input.userName);
      try {
        const user = await repo.create({ userName: input.userName, role: 'agent', passwordHash: await hashPassword(input.password) });
        return ok(reply, 'Successfully created a new user', toUser(user), 201);
      } catch (error) {
        if (isUniqueViolation(error)) throw userNameTaken(input.userName);
        throw error;
      }
    },
  );
}

/**
 * The origin links in mail point at. X-Forwarded-Host is not trusted here: a forged one would
 * send the reset token to someone else's site.
 */
function originOf(request: FastifyRequest, publicUrl: string | undefined) {
  if (publicUrl) return new URL(publicUrl).origin;
  return `${request.protocol}://${request.headers.host ?? 'localhost'}`;
}

/** Builds the reset link on our own origin; only the path (and hash route) of redirectUrl is kept, so a link never leaves the site. */
function resetLink(origin: string, redirectUrl: string | undefined, token: string) {
  let route = '/reset-password';
  if (redirectUrl) {
    try {
      const url = new URL(redirectUrl, origin);
      route = `${url.pathname}${url.hash}`;
    } catch {
      // keep the default route
    }
  }
  return `${origin}${route}?token=${encodeURIComponent(token)}`;
}

// A valid argon2id hash of a random secret, used to spend the same time on unknown users.
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$PcA2TsQGxu3T0MNqKr1Ifw$cdkwFSd008Ne3GLdnhOeabMZSu5uPOkqtw9/NU5ikpg';
