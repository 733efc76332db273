import crypto from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { refreshTokens } from '../db/schema';

export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

export const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');
export const randomToken = () => crypto.randomBytes(32).toString('base64url');

/** Issues a refresh token in a family (a new family at sign-in). Only its hash is stored. */
export async function issueRefreshToken(db: Db, userId: string, familyId: string = crypto.randomUUID()) {
  const token = randomToken();
  await db.insert(refreshTokens).values({
    userId,
    familyId,
    tokenHash: sha256(token),
    expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_MS),
  });
  return token;
}

export type RotateResult = { ok: true; userId: string; token: string } | { ok: false; reason: 'unknown' | 'reused' | 'expired' };

/**
 * Rotates a refresh token: the presented one is used up and a new one of the same family issued.
 * A token presented twice means it leaked, so its whole family is revoked.
 */
export async function rotateRefreshToken(db: Db, presented: string): Promise<RotateResult> {
  const tokenHash = sha256(presented);
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)).limit(1);
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.revokedAt || row.usedAt) {
    await revokeFamily(db, row.familyId);
    return { ok: false, reason: 'reused' };
  }
  if (row.expiresAt.getTime() <= Date.now()) return { ok: false, reason: 'expired' };
  // Conditional update so that two racing presentations cannot both succeed.
  const claimed = await db
    .update(refreshTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  if (claimed.length === 0) {
    await revokeFamily(db, row.familyId);
    return { ok: false, reason: 'reused' };
  }
  const token = await issueRefreshToken(db, row.userId, row.familyId);
  return { ok: true, userId: row.userId, token };
}

export async function revokeFamily(db: Db, familyId: string) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

/** Logout: revokes the family of the presented token; unknown tokens are ignored. */
export async function revokeRefreshToken(db: Db, presented: string) {
  const [row] = await db
    .select({ familyId: refreshTokens.familyId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, sha256(presented)))
    .limit(1);
  if (row) await revokeFamily(db, row.familyId);
}

export async function revokeAllForUser(db: Db, userId: string) {
  await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}
