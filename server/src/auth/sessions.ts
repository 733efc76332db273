import crypto from 'node:crypto';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { refreshTokens, sessions } from '../db/schema';

export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * A used refresh token presented again this soon answers the same new pair instead of revoking
 * the session (RFC 9700 §4.14.2): two tabs or a retried request refresh at the same moment.
 */
export const REFRESH_GRACE_MS = 10_000;

export const sha256 = (value: string) => crypto.createHash('sha256').update(value).digest('hex');
export const randomToken = () => crypto.randomBytes(32).toString('base64url');

/**
 * The refresh token that follows `presented`: an HMAC of it, so a second presentation within the
 * grace window gets the same one back although only hashes are stored.
 */
const successorOf = (presented: string, key: string) => crypto.createHmac('sha256', key).update(presented).digest('base64url');

async function storeRefreshToken(db: DbOrTx, userId: string, sessionId: string, token: string) {
  await db.insert(refreshTokens).values({ userId, sessionId, tokenHash: sha256(token), expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL_MS) });
}

/** Starts a session at sign-in with its first refresh token (only its hash is stored). */
export async function startSession(db: DbOrTx, userId: string) {
  const [session] = await db.insert(sessions).values({ userId }).returning({ id: sessions.id });
  const refreshToken = randomToken();
  await storeRefreshToken(db, userId, session.id, refreshToken);
  return { sessionId: session.id, refreshToken };
}

export type RotateResult =
  | { ok: true; userId: string; sessionId: string; token: string; rotatedAt: Date }
  | { ok: false; reason: 'unknown' | 'reused' | 'expired' };

/**
 * Rotates a refresh token: the presented one is used up and its successor issued in the same
 * session. Presented again within REFRESH_GRACE_MS it answers the same successor (and `rotatedAt`,
 * from which the same access token is signed); later, it means the token leaked, and the session
 * is revoked.
 */
export async function rotateRefreshToken(db: DbOrTx, presented: string, successorKey: string): Promise<RotateResult> {
  const tokenHash = sha256(presented);
  const token = successorOf(presented, successorKey);
  const read = async () => {
    const [row] = await db
      .select({ id: refreshTokens.id, userId: refreshTokens.userId, sessionId: refreshTokens.sessionId, expiresAt: refreshTokens.expiresAt, usedAt: refreshTokens.usedAt, revokedAt: sessions.revokedAt })
      .from(refreshTokens)
      .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
      .where(eq(refreshTokens.tokenHash, tokenHash))
      .limit(1);
    return row;
  };
  const afterUse = async (row: NonNullable<Awaited<ReturnType<typeof read>>>): Promise<RotateResult> => {
    if (row.revokedAt) return { ok: false, reason: 'reused' };
    if (row.usedAt && Date.now() - row.usedAt.getTime() <= REFRESH_GRACE_MS) {
      return { ok: true, userId: row.userId, sessionId: row.sessionId, token, rotatedAt: row.usedAt };
    }
    await endSession(db, row.sessionId);
    return { ok: false, reason: 'reused' };
  };

  const row = await read();
  if (!row) return { ok: false, reason: 'unknown' };
  if (row.usedAt || row.revokedAt) return afterUse(row);
  if (row.expiresAt.getTime() <= Date.now()) return { ok: false, reason: 'expired' };
  // Used up and succeeded in one transaction: a racing presentation waits for it, then finds the successor stored.
  const rotatedAt = await db.transaction(async (tx) => {
    const [claimed] = await tx
      .update(refreshTokens)
      .set({ usedAt: sql`now()` })
      .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.usedAt)))
      .returning({ usedAt: refreshTokens.usedAt });
    if (claimed) await storeRefreshToken(tx, row.userId, row.sessionId, token);
    return claimed?.usedAt;
  });
  if (rotatedAt) return { ok: true, userId: row.userId, sessionId: row.sessionId, token, rotatedAt };
  const raced = await read();
  return raced ? afterUse(raced) : { ok: false, reason: 'unknown' };
}

/** Ends one session: its refresh tokens stop working, its access tokens within the session check's cache time. */
export async function endSession(db: DbOrTx, sessionId: string) {
  await db.update(sessions).set({ revokedAt: sql`now()` }).where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Logout: ends the session of the presented refresh token; unknown tokens are ignored. */
export async function endSessionOfRefreshToken(db: DbOrTx, presented: string) {
  const [row] = await db
    .select({ sessionId: refreshTokens.sessionId })
    .from(refreshTokens)
    .where(eq(refreshTokens.tokenHash, sha256(presented)))
    .limit(1);
  if (row) await endSession(db, row.sessionId);
}

/** Ends every session of a user but `keep` (the one changing its own password goes on). */
export async function endSessionsOfUser(db: DbOrTx, userId: string, keep?: string) {
  await db
    .update(sessions)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), ...(keep ? [ne(sessions.id, keep)] : [])));
}
