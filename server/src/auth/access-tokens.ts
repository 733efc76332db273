import type { Role } from '../../../src/domain/roles';

/** What an access token says (plugins/auth.ts reads it back): the user, their session, role and Afcon switch. */
export interface AccessTokenClaims {
  sub: string;
  sid: string;
  userName: string;
  role: Role;
  isAfcon: boolean;
  iat?: number;
}

/**
 * The claims of an access token for `user` in `sessionId`. `issuedAt` (seconds) pins the token, so
 * a refresh answered twice in its grace window is the same token.
 */
export function accessTokenClaims(user: { id: string; userName: string; role: string; isAfcon: boolean }, sessionId: string, issuedAt?: Date): AccessTokenClaims {
  return {
    sub: user.id,
    sid: sessionId,
    userName: user.userName,
    role: user.role as Role,
    isAfcon: user.isAfcon,
    ...(issuedAt ? { iat: Math.floor(issuedAt.getTime() / 1000) } : {}),
  };
}
