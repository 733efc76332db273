import type { FastifyInstance, FastifyRequest } from 'fastify';
import { auditEntityLabel } from '../../../src/domain/audit';
import { monthDays } from '../../../src/domain/day-range';
import { MONTHLY_CSV_HEADER, monthlyCsvLine } from '../../../src/domain/reports';
import { monthlyReportSchema } from '../../../src/domain/schemas/transactions';
import { auditWho, recordAudit } from '../audit/record-audit';
import { sendCsv } from '../http/csv-download';
import { ok } from '../http/envelope';
import { validBody } from '../http/valid-body';
import { documented, results, textAnswer } from '../openapi';
import { customersRepository } from '../repositories/customers-repository';
import { scopeCodes } from '../access/transaction-scope';

/**
 * A month per service code (calls, processed, failed, revenue, refunded, success rate), in the
 * caller's scope as the lists are: an agent its own codes, managers and customer care every one.
 */
export default async function reportsRoutes(app: FastifyInstance) {
  const repo = customersRepository(app.db);
  const guard = { onRequest: [app.authenticate] };

  async function monthOf(request: FastifyRequest) {
    const { month, name } = await validBody(monthlyReportSchema, request.query);
    const codes = await scopeCodes(app.db, request, name || undefined);
    const { from, to } = monthDays(month);
    return { month, name: name || undefined, rows: await repo.monthly(from, to, codes) };
  }

  app.get(
    '/v1/reports/monthly',
    {
      schema: { tags: ['reports'], summary: "A month's figures per service code the caller reads" },
      ...guard,
      config: { swaggerTransform: documented({ query: monthlyReportSchema, scoped: true, results: results.list('MonthlyReportRow') }) },
    },
    async (request, reply) => {
      const { month, rows } = await monthOf(request);
      return ok(reply, `Report for ${month}`, rows);
    },
  );

  app.get(
    '/v1/reports/monthly/export',
    {
      schema: { tags: ['reports'], summary: "A month's figures per service code as CSV" },
      ...guard,
      config: { swaggerTransform: documented({ query: monthlyReportSchema, scoped: true, answer: textAnswer('text/csv', 'One line per service code, busiest first') }) },
    },
    async (request, reply) => {
      const { month, name, rows } = await monthOf(request);
      const file = `report-${month}${name ? `-${name}` : ''}.csv`;
      await recordAudit(app.db, {
        ...auditWho(request),
        action: 'export.report',
        entity: { type: 'export', id: null, label: auditEntityLabel('export', file) },
        serviceCode: name,
        after: { filter: { month, serviceCode: name ?? null }, rows: rows.length },
      });
      return sendCsv(reply, { file, header: MONTHLY_CSV_HEADER, chunks: (async function* () { yield rows; })(), line: monthlyCsvLine });
    },
  );
}
