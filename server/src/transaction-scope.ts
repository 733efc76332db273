import type { FastifyRequest } from 'fastify';
import { isManager } from '../../src/domain/roles';
import { transactionFilterSchema } from '../../src/domain/schemas/transactions';
import type { TransactionStatus } from '../../src/domain/transaction-status';
import type { DbOrTx } from './db/client';
import { forbidden, validBody } from './http';
import { serviceCodesRepository } from './repositories/service-codes-repository';

/**
 * Which calls a caller may read, shared by the transaction lists, the export and the dashboard.
 * The service codes a caller may read (DESIGN §4): a manager any (undefined), an agent only those
 * under its own categories. Naming a code outside that scope is refused, not answered empty.
 */
export async function scopeCodes(db: DbOrTx, request: FastifyRequest, name?: string): Promise<string[] | undefined> {
  if (isManager(request.user.role)) return name ? [name] : undefined;
  const own = await serviceCodesRepository(db).namesOwnedBy(request.user.id);
  if (!name) return own;
  if (!own.includes(name)) throw forbidden(`You cannot read the transactions of ${name}`);
  return [name];
}

/** A list's service code, day and status from a query or body, validated with the domain schema. */
export async function readFilter(input: unknown) {
  const { name, date, status } = await validBody(transactionFilterSchema, input);
  return { name: name || undefined, date: date || undefined, status: status as TransactionStatus | undefined };
}
