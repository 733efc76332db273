import type { FastifyInstance } from 'fastify';
import { mayResendTickets } from '../../../src/domain/transaction-timeline';
import { canResendTicket, MESSAGE_STATUS } from '../../../src/domain/transaction-events';
import { ok } from '../http/envelope';
import { HttpError } from '../http/http-error';
import { uuidParams, type IdParams } from '../http/route-schemas';
import { auditedTransaction } from '../audit/audited-records';
import { auditWho, recordAudit } from '../audit/record-audit';
import { documented, results } from '../openapi';
import { transactionEventsRepository } from '../repositories/transaction-events-repository';
import { transactionsRepository } from '../repositories/transactions-repository';
import { scopedTransaction } from '../access/transaction-scope';

const NOT_RESENDABLE = 'Only a paid call whose ticket SMS failed can be sent its ticket again';

/**
 * A call's timeline ('Details', DESIGN §6) and 'Resend ticket': one more ticket SMS for a paid
 * call whose SMS failed, claimed first so that two clicks never send two.
 */
export default async function transactionEventsRoutes(app: FastifyInstance) {
  const transactions = transactionsRepository(app.db);
  const events = transactionEventsRepository(app.db);

  app.get<{ Params: IdParams }>(
    '/v1/transactions/:id/events',
    {
      schema: { tags: ['transactions'], summary: "A call's timeline of events, oldest first", params: uuidParams },
      onRequest: [app.authenticate],
      // The Afcon-only account reads the timelines of AFCON's calls.
      config: { afcon: true, swaggerTransform: documented({ results: results.list('TransactionEvent') }) },
    },
    async (request, reply) => {
      const found = await scopedTransaction(app.db, request, request.params.id);
      return ok(reply, 'Transaction events', await events.timeline({ id: found.id, sessionId: found.sessionId }));
    },
  );

  app.post<{ Params: IdParams }>(
    '/v1/transactions/:id/resend-ticket',
    {
      schema: { tags: ['transactions'], summary: "Send a paid call's ticket SMS again after it failed", params: uuidParams },
      onRequest: [app.authenticate],
      config: { swaggerTransform: documented({ results: results.entity('Transaction'), errors: { 409: NOT_RESENDABLE } }) },
    },
    async (request, reply) => {
      // Admin, super-user and customer care any call, an agent its own service codes' (scopedTransaction).
      if (!mayResendTickets(request.user)) throw new HttpError(403, 'You cannot resend tickets');
      const found = await scopedTransaction(app.db, request, request.params.id);
      const ticket = found.ticketMessage ? { message: found.ticketMessage } : null;
      if (!canResendTicket({ ...found, ticket })) throw new HttpError(409, NOT_RESENDABLE);
      // Who asked is recorded with the claim: the attempt stands even if the gateway then fails.
      const claimed = await app.db.transaction(async (tx) => {
        const row = await transactions.claimTicketResend(found.id, tx);
        // A claim only takes a failed ticket SMS.
        const change = { before: { ticketSms: MESSAGE_STATUS.failed }, after: { ticketSms: MESSAGE_STATUS.resending } };
        if (row) await recordAudit(tx, { ...auditWho(request), action: 'transaction.resend-ticket', ...auditedTransaction(row), ...change });
        return row;
      });
      if (!claimed?.ticketMessage) throw new HttpError(409, 'This ticket is already being sent again');
      let sent: Awaited<ReturnType<typeof app.ingestion.tickets.send>>;
      try {
        const call = { id: claimed.id, phoneNumber: claimed.phoneNumber, ticketMessage: claimed.ticketMessage };
        sent = await app.ingestion.tickets.send(call, { kind: 'ticket_resent', actor: 'user', actorUserId: request.user.id });
      } catch (error) {
        await transactions.releaseTicketResend(claimed.id);
        throw error;
      }
      const message = sent.status === MESSAGE_STATUS.failed ? 'The ticket SMS could not be sent; please try again later' : 'Ticket sent';
      return ok(reply, message, await transactions.findRow(claimed.id));
    },
  );
}
