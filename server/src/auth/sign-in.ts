import type { LoginUser } from '../../../src/domain/entities';
import type { Role } from '../../../src/domain/roles';
import { signInEntry, signInFailedEntry } from '../audit/account-entries';
import { recordAudit } from '../audit/record-audit';
import type { Db } from '../db/client';
import { HttpError } from '../http/http-error';
import { usersRepository, type UserRow } from '../repositories/users-repository';
import { startTwoFactorChallenge } from './two-factor';
import { attemptLimit } from './attempt-limit';
import { verifyPassword } from './passwords';
import { startSession } from './sessions';

/** Failed sign-ins allowed per user name in the window (attempt-limit.ts) before 429. */
export const LOGIN_MAX_FAILURES = 10;
/** Failed sign-ins allowed per address, whatever the names: higher, as an office signs in from one address. */
export const LOGIN_MAX_FAILURES_PER_ADDRESS = 50;

// A valid argon2id hash of a random secret, used to spend the same time on unknown users.
const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$PcA2TsQGxu3T0MNqKr1Ifw$cdkwFSd008Ne3GLdnhOeabMZSu5uPOkqtw9/NU5ikpg';

/**
 * A sign-in attempt from `address`: 429 past the name's or the address's limit, 401 for a wrong
 * name or password (both cost a hash), otherwise a new session and who it belongs to. Both
 * outcomes leave an audit entry; a refusal by the limit does not (it checked no password).
 */
export async function signIn(db: Db, attempt: { userName: string; password: string; address: string }) {
  const repo = usersRepository(db);
  const limits = attemptLimit(db);
  const nameKey = `sign-in-name|${attempt.userName.toLowerCase()}`;
  const addressKey = `sign-in-address|${attempt.address}`;
  // Counted before the password is checked, in one statement per attempt, so concurrent guesses cannot pass the limit.
  const allowed = await limits.take([
    { key: addressKey, max: LOGIN_MAX_FAILURES_PER_ADDRESS },
    { key: nameKey, max: LOGIN_MAX_FAILURES },
  ]);
  if (!allowed) throw new HttpError(429, 'Too many sign-in attempts, please try again in a few minutes');
  const user = await repo.findByUserName(attempt.userName);
  // Verify against a fixed hash when the user is unknown so both paths cost the same.
  const valid = user ? await verifyPassword(user.passwordHash, attempt.password) : await verifyPassword(DUMMY_HASH, attempt.password);
  if (!user || !valid) {
    await recordAudit(db, signInFailedEntry(attempt.userName, attempt.address));
    throw new HttpError(401, 'Incorrect username or password');
  }
  // Said only to the holder of the right password, who should know why they cannot get in.
  if (user.disabledAt) {
    await recordAudit(db, { ...signInFailedEntry(attempt.userName, attempt.address), reason: 'The account is disabled' });
    throw new HttpError(401, 'This account is disabled; ask an admin to enable it');
  }
  // The name's failures end with a success; the address's do not, or one good account would reset them between guesses.
  await limits.clear(nameKey);
  await limits.giveBack([addressKey]);
  // An enrolled account signs in once its second step is passed too (two-factor.ts).
  if (user.twoFactorEnabledAt) return { twoFactorRequired: true as const, challenge: await startTwoFactorChallenge(db, user.id) };
  return openSession(db, user, attempt.address);
}

/** Starts the session of a user who proved who they are, with its audit entry and last sign-in in one transaction. */
export async function openSession(db: Db, user: UserRow, address: string | null) {
  const session = await db.transaction(async (tx) => {
    const started = await startSession(tx, user.id);
    await usersRepository(tx).markSignedIn(user.id);
    await recordAudit(tx, signInEntry(user, address, started.sessionId));
    return started;
  });
  const signedIn: LoginUser = {
    id: user.id,
    userName: user.userName,
    role: user.role as Role,
    serviceCode: await usersRepository(db).serviceCodesFor(user),
    isAfcon: user.isAfcon,
  };
  return { user: signedIn, ...session, twoFactorEnabled: user.twoFactorEnabledAt !== null };
}
