import type { FastifyInstance } from 'fastify';
import type { LoginUser } from '../../../src/domain/entities';
import { accessTokenClaims } from './access-tokens';

/**
 * What a completed sign-in answers (password alone, or its second step): the user and the tokens,
 * and `twoFactorSetupRequired` when the role requires two-factor sign-in and the account has none yet.
 */
export function sessionAnswer(app: FastifyInstance, signedIn: { user: LoginUser; sessionId: string; refreshToken: string; twoFactorEnabled: boolean }) {
  return {
    user: signedIn.user,
    accessToken: app.jwt.sign(accessTokenClaims(signedIn.user, signedIn.sessionId)),
    refreshToken: signedIn.refreshToken,
    ...(app.requiresTwoFactor(signedIn.user.role) && !signedIn.twoFactorEnabled ? { twoFactorSetupRequired: true as const } : {}),
  };
}
