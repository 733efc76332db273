import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { RESOLVE_UNDO_SECONDS, resolveReasonLabel, type BulkResolveOutcome } from '../../../src/domain/resolution';
import { bulkResolveSchema, resolveTransactionSchema } from '../../../src/domain/schemas/transactions';
import { transactionStatus } from '../../../src/domain/transaction-status';
import { auditedTransaction } from '../audit/audited-records';
import { auditWho, recordAudit } from '../audit/record-audit';
import { ok } from '../http/envelope';
import { HttpError } from '../http/http-error';
import { validBody } from '../http/valid-body';
import { transactionsRepository, type AlsoOnResolve, type Resolution } from '../repositories/transactions-repository';

/** One audit entry per call resolved, in the resolve's transaction: the reason in words, the note among the changes. */
function auditResolved(request: FastifyRequest, { reason, note }: Resolution): AlsoOnResolve {
  const who = auditWho(request);
  return (tx, resolved) =>
    recordAudit(
      tx,
      resolved.map((call) => ({
        ...who,
        action: 'transaction.resolve' as const,
        ...auditedTransaction(call),
        before: { isResolved: false, resolvedReason: null, resolvedNote: null },
        after: { isResolved: true, resolvedReason: reason ?? null, resolvedNote: note || null },
        reason: resolveReasonLabel(reason) || null,
      })),
    );
}

/**
 * Resolving failed calls, one or many, as the transactions and the campaign lists both offer it:
 * with an optional reason and note, each call's audit entry in the same transaction, announced on
 * the live feed once committed.
 */
export function callResolution(app: FastifyInstance) {
  const repo = transactionsRepository(app.db);
  return {
    /** Resolves one call the caller may read (found by the route in its own scope); 400 unless it failed. */
    async one(request: FastifyRequest, reply: FastifyReply, find: () => Promise<{ id: string; isComplete: boolean; isDeleted: boolean }>) {
      const { reason, note } = await validBody(resolveTransactionSchema, request.body);
      const found = await find();
      if (transactionStatus(found) !== 'failed') throw new HttpError(400, 'Only failed transactions can be resolved');
      if (await repo.resolve(found.id, request.user.id, { reason, note }, auditResolved(request, { reason, note }))) app.live.feed.callsChanged(found.id);
      return ok(reply, 'Resolved', await repo.findRow(found.id));
    },

    /**
     * Takes back the caller's own resolve of a call they may read, within RESOLVE_UNDO_SECONDS of
     * it: the call is unresolved again, audited in the same transaction. Someone else's resolve is
     * 403, a call not resolved or resolved too long ago 409, each saying so.
     */
    async undo(request: FastifyRequest, reply: FastifyReply, find: () => Promise<{ id: string }>) {
      const found = await find();
      const who = auditWho(request);
      const result = await repo.undoResolve(found.id, request.user.id, (tx, call, undone) =>
        recordAudit(tx, {
          ...who,
          action: 'transaction.resolve-undo',
          ...auditedTransaction(call),
          before: { isResolved: true, resolvedReason: undone.reason, resolvedNote: undone.note },
          after: { isResolved: false, resolvedReason: null, resolvedNote: null },
          reason: resolveReasonLabel(undone.reason) || null,
        }),
      );
      if (result.outcome === 'not-resolved') throw new HttpError(409, 'This call is not resolved');
      if (result.outcome === 'other-resolver') throw new HttpError(403, 'Only the person who resolved this call can undo it');
      if (result.outcome === 'too-late') throw new HttpError(409, `A resolve can be undone only within ${RESOLVE_UNDO_SECONDS} seconds`);
      app.live.feed.callsChanged(found.id);
      return ok(reply, 'Resolve undone', await repo.findRow(found.id));
    },

    /** Resolves the failed calls among `ids` within `codes` (every code when undefined) and answers each id's outcome, in the order given. */
    async many(request: FastifyRequest, reply: FastifyReply, codes: readonly string[] | undefined) {
      const { ids, reason, note } = await validBody(bulkResolveSchema, request.body);
      const distinct = [...new Set(ids.map((id) => id.toLowerCase()))];
      const outcomes = await repo.resolveMany(distinct, request.user.id, { reason, note }, codes, auditResolved(request, { reason, note }));
      const results = distinct.map((id) => ({ _id: id, outcome: outcomes.get(id) ?? ('refused' satisfies BulkResolveOutcome) }));
      const resolved = results.filter((row) => row.outcome === 'resolved').map((row) => row._id);
      if (resolved.length > 0) app.live.feed.callsChanged(resolved);
      return ok(reply, `Resolved ${resolved.length} of ${distinct.length} transactions`, results);
    },
  };
}
