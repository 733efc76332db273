import type { Db } from '../db/client';
import { HttpError } from '../http/http-error';
import { isUniqueViolation } from '../http/postgres-errors';
import { usersRepository } from '../repositories/users-repository';
import { hashPassword } from './passwords';

/** The answer when a user name is in use, shared by creating an account and editing one. */
export const userNameTaken = (userName: string) =>
  new HttpError(409, `Username ${userName} already taken`, [{ field: 'userName', message: `Username ${userName} already taken` }]);

/** Creates an agent account a manager asked for; 409 when the name is taken, also by a concurrent create. */
export async function createAgent(db: Db, input: { userName: string; password: string }) {
  const repo = usersRepository(db);
  if (await repo.findByUserName(input.userName)) throw userNameTaken(input.userName);
  try {
    return await repo.create({ userName: input.userName, role: 'agent', passwordHash: await hashPassword(input.password) });
  } catch (error) {
    if (isUniqueViolation(error)) throw userNameTaken(input.userName);
    throw error;
  }
}
