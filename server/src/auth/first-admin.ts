import crypto from 'node:crypto';
import type { Db } from '../db/client';
import { usersRepository } from '../repositories/users-repository';
import { hashPassword } from './passwords';

/**
 * Creates the first admin when no user exists. Returns the password only when it was generated,
 * so the caller prints it once.
 */
export async function ensureFirstAdmin(db: Db, userName: string, password?: string) {
  const repo = usersRepository(db);
  if ((await repo.count()) > 0) return { created: false as const };
  const chosen = password ?? crypto.randomBytes(12).toString('base64url');
  await repo.create({ userName, role: 'admin', passwordHash: await hashPassword(chosen) });
  return { created: true as const, userName, generatedPassword: password ? undefined : chosen };
}
