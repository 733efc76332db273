import type { FastifyInstance } from 'fastify';
import { todayInServiceZone } from '../../../src/domain/format';
import { transactionFilterSchema } from '../../../src/domain/schemas/transactions';
import { envelopeJson, sendJson } from '../http/envelope';
import { documented, results } from '../openapi';
import { transactionsRepository } from '../repositories/transactions-repository';
import { readFilter, scopeCodes } from '../access/transaction-scope';

export default async function dashboardRoutes(app: FastifyInstance) {
  const repo = transactionsRepository(app.db);

  app.get(
    '/v1/dashboard/summary',
    {
      schema: { tags: ['dashboard'], summary: 'The figures of a day, of one service code or every code the caller reads' },
      onRequest: [app.authenticate],
      config: { swaggerTransform: documented({ query: transactionFilterSchema.pick(['name', 'date']), scoped: true, results: results.entity('DashboardSummary') }) },
    },
    async (request, reply) => {
      const { name, date } = await readFilter(request.query);
      const day = date ?? todayInServiceZone();
      const codes = await scopeCodes(app.db, request, name);
      const summaryJson = await repo.dailySummaryJson({ codes, day }, name ?? null);
      return sendJson(reply, envelopeJson(`Summary for ${day}`, summaryJson));
    },
  );
}
