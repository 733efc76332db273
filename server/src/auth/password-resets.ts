import type { Db } from '../db/client';
import { HttpError } from '../http';
import { signInRepository } from '../repositories/sign-in-repository';
import { usersRepository } from '../repositories/users-repository';
import { attemptLimit } from './attempt-limit';
import { hashPassword } from './passwords';
import { revokeAllForUser, sha256 } from './refresh-tokens';

/** Wrong reset tokens allowed per address in the window before 429, as for sign in. */
export const RESET_MAX_FAILURES = 10;
const RESET_WINDOW_MS = 15 * 60 * 1000;

/**
 * Sets a new password from a reset link (DESIGN §4): the token is checked first, so only a live
 * one pays for hashing, and wrong tokens count per address like failed sign-ins. The token works
 * once; the user's sessions are revoked.
 */
export async function resetPasswordWithToken(db: Db, request: { token: string; password: string; address: string }) {
  const limit = attemptLimit(db, { max: RESET_MAX_FAILURES, windowMs: RESET_WINDOW_MS });
  const key = `reset-password|${request.address}`;
  if (await limit.blocked(key)) throw new HttpError(429, 'Too many attempts, please try again in a few minutes');
  const tokenHash = sha256(request.token);
  if (!(await signInRepository(db).isLivePasswordReset(tokenHash))) {
    await limit.fail(key);
    throw new HttpError(400, 'This reset link is invalid or has expired');
  }
  const passwordHash = await hashPassword(request.password);
  const userId = await db.transaction(async (tx) => {
    // Used up inside the write: two requests racing with one link change the password once.
    const resetUserId = await signInRepository(tx).usePasswordReset(tokenHash);
    if (resetUserId) await usersRepository(tx).update(resetUserId, { passwordHash });
    return resetUserId;
  });
  if (!userId) throw new HttpError(400, 'This reset link is invalid or has expired');
  await revokeAllForUser(db, userId);
}
