import { eq, inArray, lt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { attemptCounts } from '../db/schema';

/** Every limit counts in windows of this length, starting with a key's first attempt. */
export const ATTEMPT_WINDOW_MS = 15 * 60 * 1000;

/** A key (`sign-in-name|kato`, `sign-in-address|10.0.0.1`…) allowed `max` attempts per window. */
export interface Limit {
  key: string;
  max: number;
}

/** Expired rows are swept at most this often per process, so unknown keys do not pile up. */
const SWEEP_EVERY_MS = 60_000;
let sweptAt = 0;

/**
 * Attempts per key, counted in the database (attempt_counts) so that several API processes share
 * one limit, and counted in one statement per attempt: an upsert takes the row's lock, so 40
 * concurrent attempts count 1 to 40 and only the first `max` go on (DESIGN §4).
 *
 * On a PostgreSQL server, statements that lock several rows must take them in one order or two
 * concurrent attempts deadlock (seen: 40 wrong passwords at once answered some 500s). So `take`
 * locks its keys in key order, `giveBack` holds one row at a time, and the sweep skips locked rows.
 */
export function attemptLimit(db: DbOrTx) {
  const window = sql.raw(`interval '${ATTEMPT_WINDOW_MS} milliseconds'`);
  const expired = sql`${sql.identifier('attempt_counts')}.${sql.identifier('window_started_at')} <= now() - ${window}`;
  return {
    /**
     * Counts one attempt against every limit at once and answers whether all are still within
     * their max. When one is past it the attempt is given back, so a refused attempt counts nothing.
     */
    async take(limits: Limit[]): Promise<boolean> {
      const keys = limits.map(({ key }) => key).sort();
      const rows = await db
        .insert(attemptCounts)
        .values(keys.map((key) => ({ key, attempts: 1 })))
        .onConflictDoUpdate({
          target: attemptCounts.key,
          set: {
            attempts: sql`case when ${expired} then 1 else ${sql.identifier('attempt_counts')}.${sql.identifier('attempts')} + 1 end`,
            windowStartedAt: sql`case when ${expired} then now() else ${sql.identifier('attempt_counts')}.${sql.identifier('window_started_at')} end`,
          },
        })
        .returning({ key: attemptCounts.key, attempts: attemptCounts.attempts });
      const allowed = limits.every(({ key, max }) => (rows.find((row) => row.key === key)?.attempts ?? 0) <= max);
      if (!allowed) await this.giveBack(keys);
      await sweep(db);
      return allowed;
    },

    /** Gives an attempt back (it turned out not to be a failure). */
    async giveBack(keys: string[]) {
      for (const key of keys) {
        await db
          .update(attemptCounts)
          .set({ attempts: sql`greatest(${attemptCounts.attempts} - 1, 0)` })
          .where(eq(attemptCounts.key, key));
      }
    },

    /** Forgets a key's attempts (a successful sign-in clears its name's failures). */
    async clear(key: string) {
      await db.delete(attemptCounts).where(eq(attemptCounts.key, key));
    },
  };
}

async function sweep(db: DbOrTx) {
  if (Date.now() - sweptAt < SWEEP_EVERY_MS) return;
  sweptAt = Date.now();
  const stale = db
    .select({ key: attemptCounts.key })
    .from(attemptCounts)
    .where(lt(attemptCounts.windowStartedAt, new Date(Date.now() - ATTEMPT_WINDOW_MS)))
    .for('update', { skipLocked: true });
  await db.delete(attemptCounts).where(inArray(attemptCounts.key, stale));
}
