import type { FastifyRequest } from 'fastify';
import { isManager } from '../../../src/domain/roles';
import { transactionFilterSchema } from '../../../src/domain/schemas/transactions';
import type { TransactionStatus } from '../../../src/domain/transaction-status';
import type { Db, DbOrTx } from '../db/client';
import { notFound, validBody } from '../http';
import { campaignVotesRepository } from '../repositories/campaign-votes-repository';
import { serviceCodesRepository } from '../repositories/service-codes-repository';
import { transactionsRepository } from '../repositories/transactions-repository';
import { AFCON_CAMPAIGN } from './campaign-access';

/**
 * Which calls a caller may read, shared by the transaction lists, the export and the dashboard.
 * The service codes a caller may read (DESIGN §4): a manager any (undefined), an agent only those
 * under its own categories. A code outside that scope is answered as an unknown one (404, not
 * named), so no answer tells an agent what another agent's codes are.
 */
export async function scopeCodes(db: DbOrTx, request: FastifyRequest, name?: string): Promise<string[] | undefined> {
  if (isManager(request.user.role)) return name ? [name] : undefined;
  const own = await serviceCodesRepository(db).namesOwnedBy(request.user.id);
  if (!name) return own;
  if (!own.includes(name)) throw notFound('Service code');
  return [name];
}

/** A list's service code, day and status from a query or body, validated with the domain schema. */
export async function readFilter(input: unknown) {
  const { name, date, status } = await validBody(transactionFilterSchema, input);
  return { name: name || undefined, date: date || undefined, status: status as TransactionStatus | undefined };
}

/**
 * One call the caller may read, by id, in the lists' scope (DESIGN §4): a manager any, an agent
 * its own service codes' calls, the Afcon-only account AFCON's. Any other is 404, as an unknown
 * id is, so that ids outside a caller's scope do not leak.
 */
export async function scopedTransaction(db: Db, request: FastifyRequest, id: string) {
  const found = await transactionsRepository(db).findById(id);
  if (!found || !(await mayRead(db, request, found.serviceCode))) throw notFound('Transaction');
  return found;
}

async function mayRead(db: Db, request: FastifyRequest, serviceCode: string): Promise<boolean> {
  const { id, role, isAfcon } = request.user;
  if (isAfcon) return (await campaignVotesRepository(db).find(AFCON_CAMPAIGN))?.serviceCode === serviceCode;
  if (isManager(role)) return true;
  return (await serviceCodesRepository(db).namesOwnedBy(id)).includes(serviceCode);
}
