import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { passwordResets } from '../db/schema';

/** Password-reset links, stored hashed. */
export function signInRepository(db: DbOrTx) {
  return {
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

    /** Uses up every other link of the user: once the password is reset, older mails must not reset it again. */
    async useAllPasswordResets(userId: string) {
      await db.update(passwordResets).set({ usedAt: sql`now()` }).where(and(eq(passwordResets.userId, userId), isNull(passwordResets.usedAt)));
    },
  };
}
