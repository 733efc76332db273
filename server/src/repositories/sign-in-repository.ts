import { and, count, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { loginAttempts, passwordResets } from '../db/schema';

/** Failed sign-ins (for the rate limit) and password-reset links (stored hashed). */
export function signInRepository(db: DbOrTx) {
  return {
    /** Failed sign-ins of a user name and address since `since`. */
    async failuresSince(key: string, since: Date): Promise<number> {
      const [{ failures }] = await db
        .select({ failures: count() })
        .from(loginAttempts)
        .where(and(eq(loginAttempts.key, key), gt(loginAttempts.createdAt, since)));
      return failures;
    },

    /** Records a failure; attempts older than `since` no longer count, and dropping them keeps the table small. */
    async recordFailure(key: string, since: Date) {
      await db.insert(loginAttempts).values({ key });
      await db.delete(loginAttempts).where(and(eq(loginAttempts.key, key), lt(loginAttempts.createdAt, since)));
    },

    async clearFailures(key: string) {
      await db.delete(loginAttempts).where(eq(loginAttempts.key, key));
    },

    async createPasswordReset(userId: string, tokenHash: string, expiresAt: Date) {
      await db.insert(passwordResets).values({ userId, tokenHash, expiresAt });
    },

    /** Whether a reset link is unexpired and unused, without using it up. */
    async isLivePasswordReset(tokenHash: string): Promise<boolean> {
      const [found] = await db
        .select({ id: passwordResets.id })
        .from(passwordResets)
        .where(and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, sql`now()`)));
      return Boolean(found);
    },

    /** Uses up an unexpired, unused reset link; answers its user, or undefined when none. */
    async usePasswordReset(tokenHash: string): Promise<string | undefined> {
      const [reset] = await db
        .update(passwordResets)
        .set({ usedAt: sql`now()` })
        .where(and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, sql`now()`)))
        .returning({ userId: passwordResets.userId });
      return reset?.userId;
    },
  };
}
