import { SECRET_CHANGED } from '../../../src/domain/audit';
import type { AuditInput } from './record-audit';

type Account = { id: string; userName: string; role: string };

const actorOf = (user: Account) => ({ id: user.id, userName: user.userName, role: user.role });

/** A sign-in: the session it started, by its holder. */
export function signInEntry(user: Account, ip: string | null, sessionId: string): AuditInput {
  return { actor: actorOf(user), ip, action: 'session.sign-in', entity: { type: 'session', id: sessionId, label: `Session of ${user.userName}` } };
}

/** A refused sign-in (unknown name or wrong password, alike): nobody is signed in, so only the name tried is known. */
export function signInFailedEntry(userName: string, ip: string | null): AuditInput {
  return { actor: { id: null, userName, role: null }, ip, action: 'session.sign-in-failed', entity: { type: 'session', id: null, label: `Sign-in as ${userName}` } };
}

/** A password chosen with an emailed reset link, by the link's holder: recorded as changed, never its value. */
export function passwordResetEntry(user: Account, ip: string | null): AuditInput {
  return {
    actor: actorOf(user),
    ip,
    action: 'user.password-reset',
    entity: { type: 'user', id: user.id, label: `User ${user.userName}` },
    changes: [{ field: 'password', before: SECRET_CHANGED, after: SECRET_CHANGED }],
  };
}
