import { passwordResetEntry } from '../audit/account-entries';
import { recordAudit } from '../audit/record-audit';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { HttpError } from '../http/http-error';
import type { MailProvider } from '../providers/mail';
import { signInRepository } from '../repositories/sign-in-repository';
import { usersRepository } from '../repositories/users-repository';
import { attemptLimit } from './attempt-limit';
import { hashPassword } from './passwords';
import { endSessionsOfUser, randomToken, sha256 } from './sessions';

/** Wrong reset tokens allowed per address in the window before 429, as for sign in. */
export const RESET_MAX_FAILURES = 10;
/** Reset mails one account receives per window; past it the answer is the same and no mail goes. */
export const RESET_MAILS_PER_ACCOUNT = 3;
/** Forgot-password requests one address may make per window, whatever address they name, before 429. */
export const FORGOT_PASSWORD_PER_ADDRESS = 10;
const RESET_TTL_MS = 60 * 60 * 1000;
const TOO_MANY_ATTEMPTS = 'Too many attempts, please try again in a few minutes';

/**
 * Forgot password, whose answer is the same whatever happens here, so it cannot be used to find
 * accounts. The address's request is counted first (429 past FORGOT_PASSWORD_PER_ADDRESS, before
 * any account is looked up, so it tells nothing); an account with the email gets its link mailed
 * after the answer has gone, so a known address is answered as fast as an unknown one.
 */
export function forgottenPasswords(db: Db, mail: MailProvider) {
  /** Reset mails under way, waited for by `settled` when the app closes. */
  const mailing = new Set<Promise<void>>();
  return {
    /** `link` builds the mail's link from its token; undefined when no link may be built for this request. */
    async request(request: { email: string; address: string; link: ((token: string) => string) | undefined }, log: FastifyBaseLogger) {
      if (!(await attemptLimit(db).take([{ key: `forgot-password-address|${request.address}`, max: FORGOT_PASSWORD_PER_ADDRESS }]))) {
        throw new HttpError(429, TOO_MANY_ATTEMPTS);
      }
      const link = request.link;
      if (!link) {
        log.warn('password reset asked through a Host outside ALLOWED_HOSTS; no mail sent (set PUBLIC_URL)');
        return;
      }
      const user = await usersRepository(db).findByEmail(request.email);
      if (!user) return;
      const delivery = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => mailPasswordReset(db, mail, { userId: user.id, userName: user.userName, email: request.email, link }))
        .catch((error: unknown) => log.error({ err: error }, 'password reset mail failed'))
        .finally(() => mailing.delete(delivery));
      mailing.add(delivery);
    },

    async settled() {
      await Promise.allSettled(mailing);
    },
  };
}

/** Mails a reset link to a known account, at most RESET_MAILS_PER_ACCOUNT per window. */
async function mailPasswordReset(db: Db, mail: MailProvider, request: { userId: string; userName: string; email: string; link: (token: string) => string }) {
  if (!(await attemptLimit(db).take([{ key: `reset-mail|${request.userId}`, max: RESET_MAILS_PER_ACCOUNT }]))) return;
  const token = randomToken();
  await signInRepository(db).createPasswordReset(request.userId, sha256(token), new Date(Date.now() + RESET_TTL_MS));
  await mail.send({
    to: request.email,
    subject: 'Reset your Dialdesk password',
    body: `Hello ${request.userName},\n\nTo choose a new password open ${request.link(token)}\nThe link works once, within one hour.`,
  });
}

/**
 * Sets a new password from a reset link (DESIGN §4): the token is checked first, so only a live
 * one pays for hashing, and wrong tokens count per address like failed sign-ins. The token works
 * once; the user's other reset links and every session end with it. Answers the user's id.
 */
export async function resetPasswordWithToken(db: Db, request: { token: string; password: string; address: string }): Promise<string> {
  const limit = attemptLimit(db);
  const key = `reset-password|${request.address}`;
  if (!(await limit.take([{ key, max: RESET_MAX_FAILURES }]))) throw new HttpError(429, TOO_MANY_ATTEMPTS);
  const tokenHash = sha256(request.token);
  if (!(await signInRepository(db).isLivePasswordReset(tokenHash))) throw new HttpError(400, 'This reset link is invalid or has expired');
  await limit.giveBack([key]);
  const passwordHash = await hashPassword(request.password);
  const userId = await db.transaction(async (tx) => {
    // Used up inside the write: two requests racing with one link change the password once.
    const resetUserId = await signInRepository(tx).usePasswordReset(tokenHash);
    if (!resetUserId) return undefined;
    const user = await usersRepository(tx).update(resetUserId, { passwordHash });
    await recordAudit(tx, passwordResetEntry(user, request.address));
    await signInRepository(tx).useAllPasswordResets(resetUserId);
    await endSessionsOfUser(tx, resetUserId);
    return resetUserId;
  });
  if (!userId) throw new HttpError(400, 'This reset link is invalid or has expired');
  return userId;
}
