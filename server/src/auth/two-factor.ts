import crypto from 'node:crypto';
import { generateSecret, generateURI, verifySync } from 'otplib';
import { normalizeRecoveryCode, RECOVERY_CODE_COUNT, type TwoFactorSetup } from '../../../src/domain/two-factor';
import { signInFailedEntry } from '../audit/account-entries';
import { auditedUser } from '../audit/audited-records';
import { recordAudit, recordChange, type AuditWho } from '../audit/record-audit';
import type { Db, DbOrTx } from '../db/client';
import { HttpError } from '../http/http-error';
import { twoFactorChallengesRepository } from '../repositories/two-factor-challenges-repository';
import { usersRepository, type UserRow } from '../repositories/users-repository';
import { attemptLimit } from './attempt-limit';
import { verifyPassword } from './passwords';
import { randomToken, sha256 } from './sessions';
import { openSecret, sealSecret } from './two-factor-key';

/** The name authenticator apps show above the codes. */
export const TOTP_ISSUER = 'Dialdesk';
/** How long the second step of a sign-in waits for its code. */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** Wrong codes per account and window (attempt-limit.ts) while enrolling or turning two-factor off. */
const ACCOUNT_CODE_ATTEMPTS = 10;
const STEP_SECONDS = 30;
/** Recovery codes: no characters read alike (0/o, 1/l/i). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** The time step of a code that matches the secret now, one step either side for a phone's drifting clock. */
export function matchingStep(secret: string, code: string, now = Date.now()): number | undefined {
  try {
    const epoch = Math.floor(now / 1000);
    const result = verifySync({ secret, token: code, epoch, epochTolerance: STEP_SECONDS });
    return result.valid ? Math.floor(epoch / STEP_SECONDS) + result.delta : undefined;
  } catch {
    return undefined;
  }
}

function recoveryCode(): string {
  const chars = Array.from(crypto.randomBytes(10), (byte) => RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

const recoveryHash = (code: string) => sha256(`recovery|${normalizeRecoveryCode(code)}`);

/** Starts the second step of a sign-in whose password was right: its token, only the hash stored. */
export async function startTwoFactorChallenge(db: DbOrTx, userId: string): Promise<string> {
  const token = randomToken();
  await twoFactorChallengesRepository(db).create(userId, sha256(token), new Date(Date.now() + CHALLENGE_TTL_MS));
  return token;
}

/** A second factor as sent: a current code, or else a recovery code. */
export interface SecondFactor {
  code?: string;
  recoveryCode?: string;
}

const wrongCode = (field: 'code' | 'recoveryCode') => {
  const message = field === 'code' ? 'The code is wrong or was used already' : 'The recovery code is wrong or was used already';
  return new HttpError(400, message, [{ field, message }]);
};

/**
 * Two-factor sign-in (TOTP, RFC 6238): enrolment, the second step of a sign-in, turning it off
 * and an admin's reset. Secrets are kept sealed with `key` (two-factor-key.ts) and never answered
 * again after set-up; recovery codes only as hashes, each taken once; each code's time step once.
 */
export function twoFactor(db: Db, key: Buffer) {
  const users = usersRepository(db);

  /** Whether the factor is right for the user now, using it up (a code's time step, a recovery code). */
  async function takeFactor(user: UserRow, factor: SecondFactor): Promise<boolean> {
    if (factor.code) {
      const secret = user.twoFactorSecret ? openSecret(key, user.id, user.twoFactorSecret) : undefined;
      const step = secret ? matchingStep(secret, factor.code) : undefined;
      return step !== undefined && users.takeTwoFactorStep(user.id, step);
    }
    return Boolean(factor.recoveryCode) && users.useRecoveryCode(user.id, recoveryHash(factor.recoveryCode!));
  }

  /** Counts an attempt on the account's own codes; 429 past the limit. */
  async function limitAttempts(what: string, userId: string) {
    const allowed = await attemptLimit(db).take([{ key: `2fa-${what}|${userId}`, max: ACCOUNT_CODE_ATTEMPTS }]);
    if (!allowed) throw new HttpError(429, 'Too many wrong codes, please try again in a few minutes');
  }

  return {
    /** A new secret for the signed-in user to scan; 409 once enrolled (turn it off first). */
    async setup(user: { id: string; userName: string }): Promise<TwoFactorSetup> {
      const secret = generateSecret();
      const started = await users.startTwoFactorSetup(user.id, sealSecret(key, user.id, secret));
      if (!started) throw new HttpError(409, 'Two-factor sign-in is on already; turn it off first');
      return { secret, otpauthUrl: generateURI({ issuer: TOTP_ISSUER, label: user.userName, secret }) };
    },

    /** Completes enrolment with a first code; answers the recovery codes, shown this once. */
    async enable(who: AuditWho, userId: string, code: string): Promise<string[]> {
      await limitAttempts('enable', userId);
      const user = await users.findById(userId);
      if (!user) throw new HttpError(401, 'Please sign in again');
      if (user.twoFactorEnabledAt) throw new HttpError(409, 'Two-factor sign-in is on already');
      const secret = user.twoFactorSecret ? openSecret(key, user.id, user.twoFactorSecret) : undefined;
      if (!secret) throw new HttpError(409, 'Start the set-up first');
      const step = matchingStep(secret, code);
      if (step === undefined) throw wrongCode('code');
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, recoveryCode);
      await db.transaction(async (tx) => {
        const accounts = usersRepository(tx);
        const before = await accounts.findById(userId, { lock: true });
        const after = await accounts.enableTwoFactor(userId, step, codes.map(recoveryHash));
        if (!before || !after) throw new HttpError(409, 'Two-factor sign-in is on already');
        await recordChange(tx, who, 'user.2fa-enable', { before: auditedUser(before), after: auditedUser(after) });
      });
      return codes;
    },

    /** Turns it off for its owner, who proves it with the password and a code or recovery code. */
    async disable(who: AuditWho, userId: string, input: SecondFactor & { password: string }) {
      await limitAttempts('disable', userId);
      const user = await users.findById(userId);
      if (!user) throw new HttpError(401, 'Please sign in again');
      if (!user.twoFactorEnabledAt) throw new HttpError(409, 'Two-factor sign-in is not on');
      if (!(await verifyPassword(user.passwordHash, input.password))) throw new HttpError(400, 'Wrong password', [{ field: 'password', message: 'Wrong password' }]);
      if (!(await takeFactor(user, input))) throw wrongCode(input.code ? 'code' : 'recoveryCode');
      await clear(who, userId, 'user.2fa-disable');
    },

    /** An admin's reset of another account's two-factor (a lost phone); undefined when there is no such account. */
    async reset(who: AuditWho, userId: string) {
      if (who.actor.id === userId) throw new HttpError(403, 'Turn your own two-factor sign-in off from your profile');
      return clear(who, userId, 'user.2fa-reset');
    },

    /**
     * The second step of a sign-in: the challenge's user, once the factor is right. Every attempt
     * counts against the challenge before the code is checked; past TWO_FACTOR_MAX_ATTEMPTS, or used,
     * or expired, it is ended (401) and the person signs in again.
     */
    async verify(input: SecondFactor & { challenge: string }, address: string | null): Promise<UserRow> {
      const challenges = twoFactorChallengesRepository(db);
      const ended = new HttpError(401, 'This sign-in has ended; please sign in again');
      const challenge = await challenges.takeAttempt(sha256(input.challenge));
      if (!challenge) throw ended;
      const user = await users.findById(challenge.userId);
      if (!user || user.disabledAt || !user.twoFactorEnabledAt) throw ended;
      if (!(await takeFactor(user, input))) {
        await recordAudit(db, { ...signInFailedEntry(user.userName, address), reason: 'Wrong two-factor code' });
        throw new HttpError(401, 'Incorrect code');
      }
      if (!(await challenges.use(challenge.id))) throw ended;
      return user;
    },
  };

  async function clear(who: AuditWho, userId: string, action: 'user.2fa-disable' | 'user.2fa-reset') {
    return db.transaction(async (tx) => {
      const accounts = usersRepository(tx);
      const before = await accounts.findById(userId, { lock: true });
      if (!before) return undefined;
      const after = await accounts.clearTwoFactor(userId);
      await recordChange(tx, who, action, { before: auditedUser(before), after: auditedUser(after) });
      return after;
    });
  }
}

export type TwoFactor = ReturnType<typeof twoFactor>;
