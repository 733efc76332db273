import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { TWO_FACTOR_MAX_ATTEMPTS } from '../../../src/domain/two-factor';
import type { DbOrTx } from '../db/client';
import { twoFactorChallenges } from '../db/schema';

/** The second steps of sign-ins with two-factor, by the hash of their token. */
export function twoFactorChallengesRepository(db: DbOrTx) {
  return {
    /** Makes a challenge for the user, sweeping the user's ended ones. */
    async create(userId: string, tokenHash: string, expiresAt: Date) {
      await db
        .delete(twoFactorChallenges)
        .where(and(eq(twoFactorChallenges.userId, userId), or(lt(twoFactorChallenges.expiresAt, sql`now()`), sql`${twoFactorChallenges.usedAt} is not null`)));
      await db.insert(twoFactorChallenges).values({ userId, tokenHash, expiresAt });
    },

    /**
     * Counts one attempt on a live challenge before its code is checked, in one statement, so
     * concurrent guesses cannot pass the limit; answers its user, or undefined once it has ended
     * (used, expired, or out of attempts).
     */
    async takeAttempt(tokenHash: string): Promise<{ id: string; userId: string } | undefined> {
      const [row] = await db
        .update(twoFactorChallenges)
        .set({ attempts: sql`${twoFactorChallenges.attempts} + 1` })
        .where(
          and(
            eq(twoFactorChallenges.tokenHash, tokenHash),
            isNull(twoFactorChallenges.usedAt),
            gt(twoFactorChallenges.expiresAt, sql`now()`),
            lt(twoFactorChallenges.attempts, TWO_FACTOR_MAX_ATTEMPTS),
          ),
        )
        .returning({ id: twoFactorChallenges.id, userId: twoFactorChallenges.userId });
      return row;
    },

    /** Uses the challenge up: false when another request used it first. */
    async use(id: string): Promise<boolean> {
      const used = await db
        .update(twoFactorChallenges)
        .set({ usedAt: sql`now()` })
        .where(and(eq(twoFactorChallenges.id, id), isNull(twoFactorChallenges.usedAt)))
        .returning({ id: twoFactorChallenges.id });
      return used.length > 0;
    },
  };
}
