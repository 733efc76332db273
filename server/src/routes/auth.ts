import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LoginUser } from '../../../src/domain/entities';
import type { Role } from '../../../src/domain/roles';
import { forgotPasswordSchema, loginSchema, resetPasswordBodySchema } from '../../../src/domain/schemas/auth';
import { createUserSchema } from '../../../src/domain/schemas/user';
import { attemptLimit } from '../auth/attempt-limit';
import { allowForgotPassword, mailPasswordReset, resetPasswordWithToken } from '../auth/password-resets';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { endSessionOfRefreshToken, rotateRefreshToken, startSession } from '../auth/sessions';
import { ok } from '../http/envelope';
import { HttpError } from '../http/http-error';
import { isUniqueViolation } from '../http/postgres-errors';
import { validBody } from '../http/valid-body';
import { documented, results } from '../openapi';
import { toUser, usersRepository, type UserRow } from '../repositories/users-repository';
import { userNameTaken } from '../user-name-taken';

/** Failed sign-ins allowed per user name in the window (attempt-limit.ts) before 429. */
export const LOGIN_MAX_FAILURES = 10;
/** Failed sign-ins allowed per address, whatever the names: higher, as an office signs in from one address. */
export const LOGIN_MAX_FAILURES_PER_ADDRESS = 50;

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

const TOO_MANY = 'Too many attempts, please try again in a few minutes';

export interface AuthRoutesOptions {
  /** The site's public origin for links in mail (PUBLIC_URL). */
  publicUrl?: string;
  /** Without `publicUrl`, the Host names a link may be built on (ALLOWED_HOSTS); localhost and 127.0.0.1 by default. */
  allowedHosts?: readonly string[];
}

export default async function authRoutes(app: FastifyInstance, options: AuthRoutesOptions = {}) {
  const repo = usersRepository(app.db);
  const limits = attemptLimit(app.db);
  const allowedHosts = (options.allowedHosts ?? ['localhost', '127.0.0.1']).map((host) => host.toLowerCase());
  /** Reset mails under way, waited for when the app closes. */
  const mailing = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled(mailing);
  });

  /** `issuedAt` (seconds) pins the token, so a refresh answered twice in its grace window is the same token. */
  const accessTokenFor = (user: UserRow, sessionId: string, issuedAt?: Date) =>
    app.jwt.sign({
      sub: user.id,
      sid: sessionId,
      userName: user.userName,
      role: user.role as Role,
      isAfcon: user.isAfcon,
      ...(issuedAt ? { iat: Math.floor(issuedAt.getTime() / 1000) } : {}),
    });

  app.post('/v1/auth/login', { schema: { tags: ['auth'], summary: 'Sign in' }, config: { swaggerTransform: documented({ body: loginSchema, results: results.entity('Session'), errors: { 401: 'Incorrect username or password', 429: 'Too many failed sign-ins for this name, or from this address' } }) } }, async (request, reply) => {
    const input = await validBody(loginSchema, request.body);
    const nameKey = `sign-in-name|${input.userName.toLowerCase()}`;
    const addressKey = `sign-in-address|${request.ip}`;
    // Counted before the password is checked, in one statement per attempt, so concurrent guesses cannot pass the limit.
    const allowed = await limits.take([
      { key: addressKey, max: LOGIN_MAX_FAILURES_PER_ADDRESS },
      { key: nameKey, max: LOGIN_MAX_FAILURES },
    ]);
    if (!allowed) throw new HttpError(429, 'Too many sign-in attempts, please try again in a few minutes');
    const user = await repo.findByUserName(input.userName);
    // Verify against a fixed hash when the user is unknown so both paths cost the same.
    const valid = user ? await verifyPassword(user.passwordHash, input.password) : await verifyPassword(DUMMY_HASH, input.password);
    if (!user || !valid) throw new HttpError(401, 'Incorrect username or password');
    // The name's failures end with a success; the address's do not, or one good account would reset them between guesses.
    await limits.clear(nameKey);
    await limits.giveBack([addressKey]);
    const session = await startSession(app.db, user.id);
    const loginUser: LoginUser = {
      id: user.id,
      userName: user.userName,
      role: user.role as Role,
      serviceCode: await repo.serviceCodesFor(user),
      isAfcon: user.isAfcon,
    };
    return ok(reply, 'Logged in', {
      user: loginUser,
      accessToken: accessTokenFor(user, session.sessionId),
      refreshToken: session.refreshToken,
    });
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
    if (!user) throw new HttpError(401, 'Invalid refresh token');
    const accessToken = accessTokenFor(user, rotated.sessionId, rotated.rotatedAt);
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
    if (!(await allowForgotPassword(app.db, request.ip))) throw new HttpError(429, TOO_MANY);
    // Same answer whether or not the address is known, so it cannot be used to find accounts.
    const answer = () => ok(reply, `Please visit your email ${input.email} to reset your password`, null);
    const origin = linkOrigin(request, options.publicUrl, allowedHosts);
    if (!origin) {
      request.log.warn('password reset asked through a Host outside ALLOWED_HOSTS; no mail sent (set PUBLIC_URL)');
      return answer();
    }
    const user = await repo.findByEmail(input.email);
    if (user) {
      // After the answer: a known address must not answer later than an unknown one.
      const delivery = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => mailPasswordReset(app.db, app.providers.mail, { userId: user.id, userName: user.userName, email: input.email, link: (token) => resetLink(origin, input.redirectUrl, token) }))
        .catch((error: unknown) => request.log.error({ err: error }, 'password reset mail failed'))
        .finally(() => mailing.delete(delivery));
      mailing.add(delivery);
    }
    return answer();
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
 * The origin reset links point at: PUBLIC_URL, or the request's Host when ALLOWED_HOSTS lists it
 * (a name alone allows any port); undefined otherwise, as a forged Host would send the token to
 * someone else's site. X-Forwarded-Host is never read, for the same reason.
 */
export function linkOrigin(request: Pick<FastifyRequest, 'headers' | 'protocol'>, publicUrl: string | undefined, allowedHosts: readonly string[]): string | undefined {
  if (publicUrl) return new URL(publicUrl).origin;
  const host = request.headers.host?.toLowerCase();
  if (!host) return undefined;
  const listed = allowedHosts.some((allowed) => host === allowed || (host.startsWith(`${allowed}:`) && /^\d+$/.test(host.slice(allowed.length + 1))));
  // The scheme may come from a trusted proxy's X-Forwarded-Proto; only the two a link can have are taken.
  return listed ? `${request.protocol === 'https' ? 'https' : 'http'}://${host}` : undefined;
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
