import crypto from 'node:crypto';
import jwt from '@fastify/jwt';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { rememberWithin } from '../../../src/domain/bounded-memory';
import { isCustomerCare, isManager, type Role } from '../../../src/domain/roles';
import type { AccessTokenClaims } from '../auth/access-tokens';
import { sessionCheck, type SessionCheck } from '../auth/session-check';
import type { Db } from '../db/client';
import { twoFactor, type TwoFactor } from '../auth/two-factor';
import { processTwoFactorKey } from '../auth/two-factor-key';
import { HttpError } from '../http/http-error';
import { isUuid } from '../../../src/domain/uuid';

/** Who is calling: the session from the access token, its holder as the database says (session-check.ts). */
export interface AuthUser {
  id: string;
  userName: string;
  role: Role;
  isAfcon: boolean;
  /** The session the access token belongs to. */
  sessionId: string;
  /** Enrolled in two-factor sign-in, as the database says now. */
  twoFactorEnabled: boolean;
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: AccessTokenClaims;
    user: AuthUser;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Any signed-in staff member; the Afcon-only account only where a route allows it. */
    authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** Admin and super-user only (DESIGN §4). */
    requireManager(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** Anyone signed in but customer care, which writes no contents and composes no SMS. */
    refuseCustomerCare(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** Which sessions are live and who holds them, cached briefly; `forget()` after ending one. */
    sessionCheck: SessionCheck;
    /** Key of the HMAC that makes a refresh token's successor (auth/sessions.ts). */
    refreshTokenKey: string;
    /** Two-factor sign-in: enrolment, the second step of a sign-in, turning it off, an admin's reset. */
    twoFactor: TwoFactor;
    /** Whether an account of the role must enrol in two-factor sign-in before it reaches more than TWO_FACTOR_SETUP routes. */
    requiresTwoFactor(role: string): boolean;
  }
  interface FastifyContextConfig {
    /** The Afcon-only account may call this route. */
    afcon?: boolean;
    /** Reachable before enrolment by a role that requires two-factor sign-in: its set-up and the profile. */
    twoFactorSetup?: boolean;
  }
}

export const ACCESS_TOKEN_TTL = '15m';

/** Verified access tokens remembered at most; past this many the memory starts again. */
const VERIFIED_TOKENS_MAX = 1_000;

/**
 * Access tokens already verified, until they expire: a signed-in screen sends the same token on
 * every call, and @fastify/jwt's verification (decoding, merging its options, a hash for its own
 * cache) was a tenth of a list call's CPU even with fast-jwt's cache. Keyed by the whole token text,
 * so only a token verified before is taken; its session is still checked on every call.
 */
function verifiedTokens() {
  const tokens = new Map<string, { id: string; sessionId: string; expiresAt: number }>();
  return {
    get(token: string) {
      const found = tokens.get(token);
      if (!found || found.expiresAt > Date.now()) return found;
      tokens.delete(token);
      return undefined;
    },
    set(token: string, user: { id: string; sessionId: string }, expSeconds: number | undefined) {
      if (!expSeconds) return;
      rememberWithin(tokens, VERIFIED_TOKENS_MAX, token, { id: user.id, sessionId: user.sessionId, expiresAt: expSeconds * 1000 });
    },
  };
}

/** The token of an `Authorization: Bearer <token>` header, as @fastify/jwt reads it; undefined for any other. */
export function bearerToken(header: string | undefined): string | undefined {
  const parts = header?.split(' ');
  return parts?.length === 2 && /^Bearer$/i.test(parts[0]) ? parts[1] : undefined;
}

export default fp(
  async function auth(
    app: FastifyInstance,
    options: { secret: string; db: Db; sessionCheckMs?: number; now?: () => number; twoFactorKey?: Buffer; requireTwoFactorRoles?: readonly string[] },
  ) {
    await app.register(jwt, {
      secret: options.secret,
      sign: { expiresIn: ACCESS_TOKEN_TTL },
      formatUser: (payload) => ({
        id: payload.sub,
        userName: payload.userName,
        role: payload.role,
        isAfcon: payload.isAfcon,
        sessionId: payload.sid,
        // Read from the database with the session (authenticate).
        twoFactorEnabled: false,
      }),
    });
    app.decorate('sessionCheck', sessionCheck(options.db, options.sessionCheckMs, options.now));
    app.decorate('refreshTokenKey', crypto.createHmac('sha256', options.secret).update('refresh-token-successor').digest('base64url'));
    app.decorate('twoFactor', twoFactor(options.db, options.twoFactorKey ?? processTwoFactorKey()));
    const requiring = new Set(options.requireTwoFactorRoles ?? []);
    app.decorate('requiresTwoFactor', (role: string) => requiring.has(role));

    const verified = verifiedTokens();

    // Named: the OpenAPI document marks the routes running `authenticate` as signed-in (openapi.ts).
    app.decorate('authenticate', async function authenticate(request: FastifyRequest, reply: FastifyReply) {
      // A signed-in answer is one person's data: no browser or proxy may keep a copy (DESIGN §1).
      reply.header('cache-control', 'no-store');
      const token = bearerToken(request.headers.authorization);
      let claims: { id: string; sessionId: string } | undefined = token === undefined ? undefined : verified.get(token);
      if (!claims) {
        try {
          await request.jwtVerify();
        } catch {
          throw new HttpError(401, 'Please sign in again');
        }
        claims = request.user;
        if (token !== undefined) verified.set(token, claims, app.jwt.decode<{ exp?: number }>(token)?.exp);
      }
      // A token of an ended session, or one from before sessions had ids, is refused.
      const { sessionId, id } = claims;
      const holder = isUuid(sessionId) ? await app.sessionCheck.holder(sessionId) : undefined;
      if (!holder || holder.userId !== id) throw new HttpError(401, 'Please sign in again');
      request.user = { id, sessionId, userName: holder.userName, role: holder.role, isAfcon: holder.isAfcon, twoFactorEnabled: holder.twoFactorEnabled };
      if (requiring.has(holder.role) && !holder.twoFactorEnabled && !request.routeOptions.config.twoFactorSetup) {
        throw new HttpError(403, 'Set up two-factor sign-in first');
      }
      if (request.user.isAfcon && !request.routeOptions.config.afcon) {
        throw new HttpError(403, 'This account can only use the Afcon 2024 area');
      }
    });

    app.decorate('requireManager', async (request: FastifyRequest) => {
      if (!isManager(request.user?.role)) throw new HttpError(403, 'Only an admin can do this');
    });

    app.decorate('refuseCustomerCare', async (request: FastifyRequest) => {
      if (isCustomerCare(request.user?.role)) throw new HttpError(403, 'Customer care cannot do this');
    });
  },
  { name: 'auth' },
);
