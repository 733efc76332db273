import type { CreatableRole } from '../../../src/domain/roles';
import { auditedUser } from '../audit/audited-records';
import { recordChange, type AuditWho } from '../audit/record-audit';
import type { Db } from '../db/client';
import { HttpError } from '../http/http-error';
import { isUniqueViolation } from '../http/postgres-errors';
import { usersRepository } from '../repositories/users-repository';
import { hashPassword } from './passwords';
import { endSessionsOfUser } from './sessions';

/** The answer when a user name is in use, shared by creating an account and editing one. */
export const userNameTaken = (userName: string) =>
  new HttpError(409, `Username ${userName} already taken`, [{ field: 'userName', message: `Username ${userName} already taken` }]);

/**
 * Creates an agent or customer-care account a manager (`who`) asked for, with its audit entry in
 * the same transaction; 409 when the name is taken, also by a concurrent create.
 */
export async function createAccount(db: Db, who: AuditWho, input: { userName: string; password: string; role: CreatableRole }) {
  if (await usersRepository(db).findByUserName(input.userName)) throw userNameTaken(input.userName);
  try {
    const passwordHash = await hashPassword(input.password);
    return await db.transaction(async (tx) => {
      const created = await usersRepository(tx).create({ userName: input.userName, role: input.role, passwordHash });
      await recordChange(tx, who, 'user.create', { after: auditedUser(created) });
      return created;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw userNameTaken(input.userName);
    throw error;
  }
}

/**
 * Disables or enables an account a manager (`who`) names, with its audit entry in the same
 * transaction; disabling ends its sessions there too. Nobody disables their own account (so one
 * manager always remains able to enable the others). A repeat changes nothing and records nothing.
 * Answers the account as it is now, or undefined when there is none.
 */
export async function setAccountDisabled(db: Db, who: AuditWho, userId: string, disabled: boolean) {
  if (disabled && who.actor.id === userId) {
    throw new HttpError(403, 'You cannot disable your own account', [{ field: 'disabled', message: 'You cannot disable your own account' }]);
  }
  return db.transaction(async (tx) => {
    const accounts = usersRepository(tx);
    const before = await accounts.findById(userId, { lock: true });
    if (!before || (before.disabledAt !== null) === disabled) return before;
    const after = await accounts.update(userId, { disabledAt: disabled ? new Date() : null });
    if (disabled) await endSessionsOfUser(tx, userId);
    await recordChange(tx, who, disabled ? 'user.disable' : 'user.enable', { before: auditedUser(before), after: auditedUser(after) });
    return after;
  });
}
