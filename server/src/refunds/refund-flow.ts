import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { auditEntityLabel, type AuditAction } from '../../../src/domain/audit';
import { categoryLevelLabel } from '../../../src/domain/category-levels';
import { formatMoney } from '../../../src/domain/format';
import { refundReasonLabel, type RefundReason, type RefundState } from '../../../src/domain/refunds';
import { isManager } from '../../../src/domain/roles';
import type { TransactionEventDetail, TransactionEventKind } from '../../../src/domain/transaction-events';
import { recordAudit, type AuditWho } from '../audit/record-audit';
import type { Db, DbOrTx } from '../db/client';
import { HttpError, notFound } from '../http/http-error';
import type { PaymentProvider, RefundDecision } from '../providers/payment';
import type { SmsProvider } from '../providers/sms';
import { refundsRepository, type RefundRow, type StateChange } from '../repositories/refunds-repository';
import { transactionEventsRepository } from '../repositories/transaction-events-repository';

/** What the live stream says of a refund that moved (`event: refund`), with its call's code for scoping. */
export interface RefundChange {
  _id: string;
  transactionId: string;
  state: RefundState;
  serviceCode: string;
}

export interface RefundFlowDeps {
  db: Db;
  sms: SmsProvider;
  /** The payment provider, made after this flow (it hands its own refund decisions to `settle`). */
  payment: () => PaymentProvider;
  /** REFUND_SMS_TEXT: `{amount}` and `{level}` are filled in. */
  smsText: string;
  /** REFUND_SELF_APPROVE_BELOW: a manager's own refund under this many shillings is approved at once; 0 never. */
  selfApproveBelow: number;
  onRefundChanged: (refund: RefundChange) => void;
  /** The call's refunded amount changed (a refund completed). */
  onCallChanged: (transactionId: string) => void;
  log: Pick<FastifyBaseLogger, 'info' | 'error'>;
}

/** The staff member who acts, as the audit trail records them, and their role (maker-checker). */
export type RefundActor = AuditWho & { actor: { id: string; role: string } };

/** The provider or the sweeper, when nobody signed in caused the step. */
const SYSTEM: AuditWho = { actor: { id: null, userName: null, role: null }, ip: null };

export type RefundSettlement = { result: 'settled'; refund: RefundRow; state: 'completed' | 'failed' } | { result: 'already_settled'; refund: RefundRow } | { result: 'unknown' };

/** The customer's SMS: the amount in shillings and the call's level filled into REFUND_SMS_TEXT. */
export function refundSmsText(template: string, refund: { amount: number; categoryLevel: string | null }): string {
  const level = refund.categoryLevel ? categoryLevelLabel(refund.categoryLevel) : '';
  return template.replaceAll('{amount}', formatMoney(refund.amount)).replaceAll('{level}', level).replace(/ {2,}/g, ' ');
}

/**
 * A refund from request to the provider's final word (src/domain/refunds.ts): support requests, a
 * manager other than the requester approves or rejects, the provider is sent it once under the
 * reference stored with the row, and its answer (callback, the local provider, a poll) completes or
 * fails it. Every step is a conditional state change that one caller wins, recorded in the same
 * transaction on the call's timeline and, for staff steps and the provider's, in the audit trail.
 * A completed refund sends the customer one SMS: only the step that completed it sends.
 */
/** A refund step on its call's timeline; the dedupe key makes each step of a refund one event. */
export const refundEvent = (
  refund: Pick<RefundRow, 'id' | 'transactionId'>,
  kind: TransactionEventKind,
  actor: string,
  actorUserId: string | null,
  detail: TransactionEventDetail,
) => ({
  transactionId: refund.transactionId,
  kind,
  actor,
  actorUserId,
  detail: { refundId: refund.id, ...detail },
  dedupeKey: `${kind}:${refund.id}`,
});

export function refundFlow(deps: RefundFlowDeps) {
  const { db } = deps;
  const repo = refundsRepository(db);

  const audit = (tx: DbOrTx, who: AuditWho, action: AuditAction, refund: RefundRow, change: { before?: Record<string, unknown> | null; after: Record<string, unknown>; reason?: string | null }) =>
    recordAudit(tx, {
      ...who,
      action,
      entity: { type: 'refund', id: refund.id, label: auditEntityLabel('refund', `UGX ${formatMoney(refund.amount)} to ${refund.phoneNumber}`) },
      serviceCode: refund.serviceCode,
      before: change.before ?? null,
      after: change.after,
      reason: change.reason ?? null,
    });

  const announce = (refund: RefundRow, state: RefundState) => deps.onRefundChanged({ _id: refund.id, transactionId: refund.transactionId, state, serviceCode: refund.serviceCode });

  /** A state change with its audit entry and timeline event, committed together; undefined when the refund had moved on. */
  async function step(
    id: string,
    change: StateChange,
    record: (tx: DbOrTx, refund: RefundRow) => Promise<unknown>,
  ): Promise<RefundRow | undefined> {
    const changed = await db.transaction(async (tx) => {
      const refund = await refundsRepository(tx).change(id, change);
      if (refund) await record(tx, refund);
      return refund;
    });
    if (changed) announce(changed, change.to);
    return changed;
  }

  async function sendSms(refund: RefundRow) {
    const message = refundSmsText(deps.smsText, refund);
    const sent = await deps.sms
      .send({ phoneNumber: refund.phoneNumber, message })
      .catch((error: unknown) => ({ status: 'failed' as const, providerRef: null, failureReason: error instanceof Error ? error.message.slice(0, 200) : 'SMS provider error' }));
    await transactionEventsRepository(db).record(
      refundEvent(refund, 'refund_sms_sent', 'system', null, { status: sent.status === 'failed' ? 'Failed' : 'Sent', provider: deps.sms.name, providerRef: sent.providerRef ?? null, failureReason: sent.failureReason ?? null, message }),
    );
  }

  /** The provider's final word (callback, its own decision, a poll): one caller completes or fails the refund; the customer's SMS goes once. */
  async function settle(decision: RefundDecision): Promise<RefundSettlement> {
    const found = await repo.findByProviderRef(decision.reference);
    if (!found) return { result: 'unknown' };
    const state = decision.status === 'SUCCESSFUL' ? 'completed' : 'failed';
    const reason = state === 'failed' ? (decision.reason ?? 'Refused by the provider') : null;
    const settled = await step(
      found.id,
      { from: ['approved', 'submitted', 'unknown'], to: state, set: sql`settled_at = now(), failure_reason = ${reason}` },
      async (tx, refund) => {
        await audit(tx, { ...SYSTEM, actor: { id: null, userName: decision.actor, role: null } }, state === 'completed' ? 'refund.complete' : 'refund.fail', refund, {
          before: { state: found.state },
          after: { state },
          reason,
        });
        await transactionEventsRepository(tx).record(refundEvent(refund, state === 'completed' ? 'refund_completed' : 'refund_failed', decision.actor, null, { via: decision.via, amount: refund.amount, reason }));
      },
    );
    if (!settled) return { result: 'already_settled', refund: found };
    if (state === 'completed') {
      deps.onCallChanged(settled.transactionId);
      await sendSms(settled);
    }
    return { result: 'settled', refund: settled, state };
  }

  /** Sends an approved refund to the provider, once: an uncertain outcome leaves it 'unknown' for the sweeper to ask about. */
  async function submit(refund: RefundRow): Promise<void> {
    const provider = deps.payment();
    if (!provider.refund) {
      await settle({ reference: refund.providerRef, status: 'FAILED', actor: `provider:${provider.name}`, via: 'request', reason: 'The payment provider takes no refunds' });
      return;
    }
    let answer: { accepted: boolean; reason?: string } | undefined;
    try {
      answer = await provider.refund({ reference: refund.providerRef, paymentRef: refund.paymentRef, phoneNumber: refund.phoneNumber, amount: refund.amount });
    } catch (error) {
      deps.log.error({ err: error, reference: refund.providerRef }, 'refund submission outcome unknown; the sweeper will ask');
    }
    if (answer && !answer.accepted) {
      await settle({ reference: refund.providerRef, status: 'FAILED', actor: `provider:${provider.name}`, via: 'request', reason: answer.reason ?? 'Refused by the provider' });
      return;
    }
    const to = answer ? 'submitted' : 'unknown';
    // The provider may have answered already (the local provider with no delay): then this changes nothing.
    await step(refund.id, { from: ['approved'], to, set: sql`submitted_at = now()` }, async (tx, sent) => {
      await audit(tx, SYSTEM, 'refund.submit', sent, { before: { state: 'approved' }, after: { state: to, provider: provider.name, providerRef: sent.providerRef } });
      await transactionEventsRepository(tx).record(refundEvent(sent, 'refund_submitted', 'system', null, { provider: provider.name, providerRef: sent.providerRef, outcome: answer ? 'accepted' : 'unknown' }));
    });
  }

  async function decide(who: RefundActor, id: string, to: 'approved' | 'rejected', reason: string | null, self = false): Promise<RefundRow> {
    const found = await repo.find(id);
    if (!found) throw notFound('Refund');
    if (found.requestedBy === who.actor.id && !self) throw new HttpError(403, 'A refund is approved or rejected by someone other than who requested it');
    const decided = await step(
      id,
      { from: ['requested'], to, set: sql`decided_by = ${who.actor.id}::uuid, decided_at = now(), decision_reason = ${reason}` },
      async (tx, refund) => {
        await audit(tx, who, to === 'approved' ? 'refund.approve' : 'refund.reject', refund, { before: { state: 'requested' }, after: { state: to }, reason });
        await transactionEventsRepository(tx).record(refundEvent(refund, to === 'approved' ? 'refund_approved' : 'refund_rejected', 'user', who.actor.id, { reason }));
      },
    );
    if (!decided) throw new HttpError(409, 'This refund is no longer awaiting a decision');
    if (to === 'approved') await submit(decided);
    return decided;
  }

  return {
    /** Records a refund request (the database refuses one that breaks a rule); a manager's own small one goes at once. */
    async request(who: RefundActor, transactionId: string, input: { amount?: number; reason: RefundReason; note?: string }): Promise<RefundRow> {
      const created = await db.transaction(async (tx) => {
        const refund = await refundsRepository(tx).request({ transactionId, amount: input.amount, reason: input.reason, note: input.note || null, requestedBy: who.actor.id });
        await audit(tx, who, 'refund.request', refund, {
          after: { transactionId, amount: refund.amount, reason: input.reason, note: input.note || null, state: 'requested', providerRef: refund.providerRef },
          reason: refundReasonLabel(input.reason),
        });
        await transactionEventsRepository(tx).record(refundEvent(refund, 'refund_requested', 'user', who.actor.id, { amount: refund.amount, reason: input.reason, note: input.note || null }));
        return refund;
      });
      announce(created, 'requested');
      if (isManager(who.actor.role) && created.amount < deps.selfApproveBelow) {
        return decide(who, created.id, 'approved', `Under the self-approval limit (UGX ${formatMoney(deps.selfApproveBelow)})`, true);
      }
      return created;
    },
    approve: (who: RefundActor, id: string) => decide(who, id, 'approved', null),
    reject: (who: RefundActor, id: string, reason: string) => decide(who, id, 'rejected', reason),
    settle,

    /** A signed provider callback carrying `refundReference`: PENDING changes nothing; a final word settles once. Undefined for a reference no refund has. */
    async receiveCallback(reference: string, status: 'SUCCESSFUL' | 'FAILED' | 'PENDING', provider: string) {
      if (status === 'PENDING') return repo.findByProviderRef(reference).then((refund) => refund && { result: 'pending' as const, refund });
      const outcome = await settle({ reference, status, actor: `provider:${provider}`, via: 'callback' });
      return outcome.result === 'unknown' ? undefined : outcome;
    },

    /**
     * Asks the provider about refunds whose outcome it has not told ('unknown', or 'submitted' for
     * longer than `afterMinutes`), each claimed by one sweeper across instances. Nothing is sent
     * again: a refund the provider never received fails (no money moved), one it still works on waits.
     */
    async sweep(afterMinutes: number, batch = 100): Promise<{ settled: number; kept: number }> {
      const provider = deps.payment();
      const counts = { settled: 0, kept: 0 };
      if (!provider.refundStatus) return counts;
      for (const refund of await repo.claimUnsettled(afterMinutes, batch, 120)) {
        let said: Awaited<ReturnType<NonNullable<PaymentProvider['refundStatus']>>> | undefined;
        try {
          said = await provider.refundStatus(refund.providerRef);
        } catch (error) {
          deps.log.error({ err: error, reference: refund.providerRef }, 'payment provider unreachable for a refund status');
        }
        const actor = `provider:${provider.name}`;
        if (said === 'SUCCESSFUL' || said === 'FAILED' || said === 'NOT_FOUND') {
          const reason = said === 'NOT_FOUND' ? 'The provider has no record of this refund' : undefined;
          const outcome = await settle({ reference: refund.providerRef, status: said === 'SUCCESSFUL' ? 'SUCCESSFUL' : 'FAILED', actor, via: 'poll', reason });
          if (outcome.result === 'settled') counts.settled += 1;
          continue;
        }
        // The provider has it and is still working on it: no longer unknown.
        if (said === 'PENDING' && refund.state === 'unknown') await repo.change(refund.id, { from: ['unknown'], to: 'submitted' });
        else await db.execute(sql`update refunds set sweep_claimed_until = null where id = ${refund.id}::uuid`);
        counts.kept += 1;
      }
      return counts;
    },
  };
}

export type RefundFlow = ReturnType<typeof refundFlow>;
