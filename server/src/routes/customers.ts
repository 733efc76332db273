import type { FastifyInstance, FastifyRequest } from 'fastify';
import { customerPath, type LookupResult } from '../../../src/domain/customers';
import { parsePaging } from '../../../src/domain/paged-list';
import { isCustomerNumber, normalizePhoneNumber, SEARCH_PHONE_PATTERN } from '../../../src/domain/phone';
import { customerParamsSchema, lookupSchema } from '../../../src/domain/schemas/transactions';
import { UUID_PATTERN } from '../../../src/domain/uuid';
import { ok, okPagedJson } from '../http/envelope';
import { notFound } from '../http/http-error';
import { pagingQuery, type PagingQuery } from '../http/route-schemas';
import { validBody } from '../http/valid-body';
import { documented, results } from '../openapi';
import { customersRepository } from '../repositories/customers-repository';
import { transactionsRepository } from '../repositories/transactions-repository';
import { scopeCodes } from '../access/transaction-scope';

type PhoneParams = { phoneNumber: string };

const phoneParams = {
  type: 'object',
  properties: { phoneNumber: { type: 'string', description: 'The number, in any form a person types it (256…, +256…, 07…)' } },
  required: ['phoneNumber'],
} as const;

/**
 * A customer's page: a phone number's figures and calls, in the caller's scope (DESIGN §4): an
 * agent sees its own codes' calls only, customer care and managers every code's. A number with no
 * call in scope answers zeros, as a number that never called does, so nothing leaks.
 */
export default async function customersRoutes(app: FastifyInstance) {
  const customers = customersRepository(app.db);
  const calls = transactionsRepository(app.db);
  const guard = { onRequest: [app.authenticate] };

  const phoneOf = async (params: unknown) => normalizePhoneNumber((await validBody(customerParamsSchema, params)).phoneNumber);

  app.get<{ Params: PhoneParams }>(
    '/v1/customers/:phoneNumber',
    {
      schema: { tags: ['customers'], summary: "A customer's figures over its calls in the caller's scope", params: phoneParams },
      ...guard,
      config: { swaggerTransform: documented({ results: results.entity('CustomerSummary') }) },
    },
    async (request, reply) => {
      const phoneNumber = await phoneOf(request.params);
      const codes = await scopeCodes(app.db, request);
      return ok(reply, `Customer ${phoneNumber}`, await customers.summary(phoneNumber, codes));
    },
  );

  app.get<{ Params: PhoneParams; Querystring: PagingQuery }>(
    '/v1/customers/:phoneNumber/calls',
    {
      schema: { tags: ['customers'], summary: "Every call of a customer in the caller's scope, newest first", params: phoneParams, querystring: pagingQuery },
      ...guard,
      config: { swaggerTransform: documented({ results: results.page('Transaction') }) },
    },
    async (request, reply) => {
      const phoneNumber = await phoneOf(request.params);
      const { page, limit, offset } = parsePaging(request.query, 20);
      const codes = await scopeCodes(app.db, request);
      const { docsJson, total } = await calls.pageJson({ codes, phoneNumber }, offset, limit);
      return okPagedJson(reply, `Calls of ${phoneNumber}`, docsJson, page, limit, total);
    },
  );

  app.get<{ Querystring: { q?: string } }>(
    '/v1/transactions/lookup',
    {
      schema: { tags: ['customers'], summary: 'What a phone number, payment reference or call id is, and where the console shows it' },
      ...guard,
      config: { swaggerTransform: documented({ query: lookupSchema, results: results.entity('LookupResult'), errors: { 404: 'No call or customer in the caller\'s scope matches' } }) },
    },
    async (request, reply) => {
      const { q } = await validBody(lookupSchema, request.query);
      const found = await lookup(request, q);
      if (!found) throw notFound('Call or customer');
      return ok(reply, found.kind === 'call' ? 'Call found' : 'Customer found', found);
    },
  );

  /** A call id first, then a payment reference (which may be all digits), then a phone number. */
  async function lookup(request: FastifyRequest, q: string): Promise<LookupResult | undefined> {
    const call = async (id: string, phoneNumber: string): Promise<LookupResult> => ({
      kind: 'call',
      phoneNumber,
      transactionId: id,
      transaction: (await calls.findRow(id)) ?? null,
      path: customerPath(phoneNumber, id),
    });
    const codes = await scopeCodes(app.db, request);
    if (UUID_PATTERN.test(q)) {
      const found = await calls.findById(q.toLowerCase());
      return found && (!codes || codes.includes(found.serviceCode)) ? call(found.id, found.phoneNumber) : undefined;
    }
    const byReference = await customers.findByPaymentRef(q, codes);
    if (byReference) return call(byReference.id, byReference.phoneNumber);
    if (SEARCH_PHONE_PATTERN.test(q) && isCustomerNumber(q)) {
      const phoneNumber = normalizePhoneNumber(q);
      return { kind: 'customer', phoneNumber, transactionId: null, transaction: null, path: customerPath(phoneNumber) };
    }
    return undefined;
  }
}
