import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { loginAttempts } from '../db/schema';

export interface AttemptLimit {
  /** True when the key has used up its failures in the window. */
  blocked(key: string): Promise<boolean>;
  /** Records a failure; failures older than the window are dropped to keep the table small. */
  fail(key: string): Promise<void>;
  clear(key: string): Promise<void>;
}

/**
 * Failures per key in a sliding window, kept in the database (login_attempts) so that several API
 * processes share one limit. Sign in keys by user name and address, reset password by address.
 */
export function attemptLimit(db: Db, options: { max: number; windowMs: number }): AttemptLimit {
  const since = () => new Date(Date.now() - options.windowMs);
  return {
    async blocked(key) {
      const [{ failures }] = await db
        .select({ failures: sql<number>`count(*)::int` })
        .from(loginAttempts)
        .where(and(eq(loginAttempts.key, key), gt(loginAttempts.createdAt, since())));
      return failures >= options.max;
    },
    async fail(key) {
      await db.insert(loginAttempts).values({ key });
      await db.delete(loginAttempts).where(and(eq(loginAttempts.key, key), lt(loginAttempts.createdAt, since())));
    },
    async clear(key) {
      await db.delete(loginAttempts).where(eq(loginAttempts.key, key));
    },
  };
}
