import { sql } from 'drizzle-orm';
import type { Role } from '../../../src/domain/roles';
import type { Db } from '../db/client';
import { preparedReadRows, preparedRows } from '../db/prepared';
import { sessions, users } from '../db/schema';

/** Default and most a session's state is kept in memory (DESIGN §4: a revocation holds everywhere within 5 s). */
export const SESSION_CHECK_MAX_MS = 5000;
/** Sessions remembered at once; the oldest is forgotten first. */
const MAX_SESSIONS = 10_000;

/** Who a live session belongs to, as the database says now (a role or Afcon switch shows within the cache time). */
export interface SessionHolder {
  userId: string;
  userName: string;
  role: Role;
  isAfcon: boolean;
  /** Enrolled in two-factor sign-in: a role that requires it reaches little else until then. */
  twoFactorEnabled: boolean;
}

const HOLDER = sql`${users.id} as "userId", ${users.userName} as "userName", ${users.role} as role, ${users.isAfcon} as "isAfcon",
  ${users.twoFactorEnabledAt} is not null as "twoFactorEnabled"
  from ${sessions} join ${users} on ${users.id} = ${sessions.userId}`;
// A disabled holder's sessions read as ended, whichever process disabled it.
const LIVE = sql`${sessions.revokedAt} is null and ${users.disabledAt} is null`;
const LIVE_SESSION = sql`select ${HOLDER} where ${sessions.id} = ${sql.placeholder('id')}::uuid and ${LIVE}`;
const LIVE_SESSIONS = sql`select ${sessions.id} as "sessionId", ${HOLDER} where ${sessions.id} = any(${sql.placeholder('ids')}::uuid[]) and ${LIVE}`;

/**
 * The per-request session check: answers a session's holder, or undefined once it is revoked.
 * Each answer is kept `ttlMs` by the clock `now` in this process (a hit costs no round trip;
 * requests arriving while one is read share it), so several API processes agree through the
 * database within `ttlMs`.
 */
export function sessionCheck(db: Db, ttlMs = SESSION_CHECK_MAX_MS, now: () => number = Date.now) {
  const read = preparedReadRows<SessionHolder>(db, 'session_holder', LIVE_SESSION);
  const readMany = preparedRows<SessionHolder & { sessionId: string }>(db, 'session_holders', LIVE_SESSIONS);
  const known = new Map<string, { at: number; holder: Promise<SessionHolder | undefined> }>();
  const forgotten = new Set<() => void>();
  return {
    holder(sessionId: string): Promise<SessionHolder | undefined> {
      const at = now();
      const hit = known.get(sessionId);
      if (hit && at - hit.at < ttlMs) return hit.holder;
      const holder = read({ id: sessionId }).then(([row]) => row);
      known.delete(sessionId);
      known.set(sessionId, { at, holder });
      if (known.size > MAX_SESSIONS) known.delete(known.keys().next().value as string);
      // A failed read is not remembered.
      holder.catch(() => known.get(sessionId)?.holder === holder && known.delete(sessionId));
      return holder;
    },
    /**
     * The holders of many live sessions, read now in one statement (ended sessions are absent):
     * for the checks that run on a timer rather than per request, such as the live streams'.
     */
    async holders(sessionIds: readonly string[]): Promise<Map<string, SessionHolder>> {
      const at = Date.now();
      const rows = sessionIds.length > 0 ? await readMany({ ids: [...sessionIds] }) : [];
      const found = new Map(rows.map(({ sessionId, ...holder }) => [sessionId, holder]));
      // Fresher than what requests were answered with: they agree with it from now on.
      for (const id of sessionIds) {
        known.delete(id);
        known.set(id, { at, holder: Promise.resolve(found.get(id)) });
      }
      while (known.size > MAX_SESSIONS) known.delete(known.keys().next().value as string);
      return found;
    },
    /** Forgets every answer: this process just ended sessions or changed who holds them. */
    forget() {
      known.clear();
      for (const listener of [...forgotten]) listener();
    },
    /** Hears every `forget()`, so what holds a session open beyond one request (a live stream) checks it again at once. */
    onForget(listener: () => void): () => void {
      forgotten.add(listener);
      return () => forgotten.delete(listener);
    },
  };
}

export type SessionCheck = ReturnType<typeof sessionCheck>;
