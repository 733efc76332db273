import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { localPaymentDecisions } from '../db/schema';
export interface CollectRequest {
  reference: string;
  phoneNumber: string;
  amount: number;
}

/** What a provider says about a payment; PENDING while the customer has not answered the prompt. */
export type PaymentStatus = 'SUCCESSFUL' | 'FAILED' | 'PENDING';

/**
 * The provider could not be reached (network error, or 5xx after every retry): whether the request
 * arrived is unknown, so the payment should stay pending for the sweeper's status poll rather than
 * be failed at once (the customer may still be charged).
 */
export class PaymentProviderUnavailable extends Error {}

/** A final word on a payment: from a signed callback, a provider by itself, a status poll, or the sweeper. */
export interface PaymentDecision {
  reference: string;
  status: 'SUCCESSFUL' | 'FAILED';
  /** Who said so: 'provider:<name>' or 'sweeper'. */
  actor: string;
  via: 'callback' | 'local' | 'poll' | 'timeout' | 'request';
  /** Why a payment failed when nobody said FAILED (timed out, refused at request). */
  reason?: string;
  /** Why the provider says it failed, in its own words (its status answer or callback), when it gave any. */
  failureReason?: string | null;
}

/** A provider's answer to a status question, with its words on a failure when it gave any. */
export interface PaymentAnswer {
  status: PaymentStatus;
  failureReason: string | null;
}

/** The local provider's words for a payment it refused. */
export const LOCAL_FAILURE_REASON = 'Declined: the payer did not approve the payment';

/** Longest failure reason kept from a provider: its words are shown, not its whole body. */
export const FAILURE_REASON_MAX = 300;

/**
 * A provider's failure reason as words: a string as it is, or MoMo's older `{ code, message }`
 * shape as its message (or code). Anything else is no reason. Control and direction characters are dropped and
 * the text is cut to FAILURE_REASON_MAX, so nothing a provider sends can break a grid or a CSV.
 */
export function providerFailureReason(value: unknown): string | null {
  let words: unknown = value;
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const fields = value as Record<string, unknown>;
    words = typeof fields.message === 'string' && fields.message.trim() ? fields.message : fields.code;
  }
  if (typeof words !== 'string') return null;
  // eslint-disable-next-line no-control-regex
  const clean = words.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]+/g, ' ').trim();
  return clean ? clean.slice(0, FAILURE_REASON_MAX) : null;
}

/** Where a provider hands what it decides by itself (the local provider, MoMo's polls): the settlement. */
export type SettleDecision = (decision: PaymentDecision) => Promise<unknown>;

/** Money back for a paid call: `reference` is the refund's own (stored before the provider is asked, the same on every retry). */
export interface RefundRequest {
  reference: string;
  /** The payment being refunded, as the provider knows it. */
  paymentRef: string | null;
  phoneNumber: string;
  amount: number;
}

/** What a provider says about a refund; NOT_FOUND when it never received it (nothing moved). */
export type RefundStatus = PaymentStatus | 'NOT_FOUND';

/** A final word on a refund, as on a payment: `reference` is the refund's. */
export type RefundDecision = Omit<PaymentDecision, 'via'> & { via: 'callback' | 'local' | 'poll' | 'request' };

/** Where a provider hands what it decides by itself about a refund: the refund settlement. */
export type SettleRefund = (decision: RefundDecision) => Promise<unknown>;

/**
 * Mobile-money collection (DESIGN §1), chosen by PAYMENT_PROVIDER: `local` settles by itself after a
 * delay, `external` waits for signed callbacks, `momo` is MTN MoMo Collections.
 */
export interface PaymentProvider {
  readonly name: string;
  /** `accepted: false` is a definite refusal; throws PaymentProviderUnavailable when the outcome is unknown. */
  collect(request: CollectRequest): Promise<{ accepted: boolean; providerRef: string }>;
  /** Asks the provider about a payment; throws when the provider cannot be reached. */
  status(reference: string): Promise<PaymentStatus>;
  /** `status` with the provider's words on a failure, for providers that give them. */
  answer?(reference: string): Promise<PaymentAnswer>;
  /**
   * Sends a refund; `accepted: false` is a definite refusal (nothing moved). Throws
   * PaymentProviderUnavailable when the outcome is unknown: the refund is then asked about, never sent again.
   * A provider without it refunds nothing (each refund fails with its reason).
   */
  refund?(request: RefundRequest): Promise<{ accepted: boolean; reason?: string }>;
  /** Asks the provider about a refund; throws when the provider cannot be reached. */
  refundStatus?(reference: string): Promise<RefundStatus>;
  /** Stops timers and waits for work in flight; called when the app closes. */
  close?(): Promise<void>;
}

/**
 * Accepts every request and never settles by itself: settlement comes only from the signed callback
 * (tests and bench:ingest play the provider). It knows nothing, so every payment reads as pending.
 */
export function externalPaymentProvider(): PaymentProvider {
  return {
    name: 'external',
    async collect(request) {
      return { accepted: true, providerRef: request.reference };
    },
    async status() {
      return 'PENDING';
    },
    // Settled only by the signed callback carrying `refundReference`.
    async refund() {
      return { accepted: true };
    },
    async refundStatus() {
      return 'PENDING';
    },
  };
}

export interface LocalPaymentOptions {
  /** How long the pretend customer takes to approve (PAYMENT_LOCAL_DELAY_MS). */
  delayMs: number;
  /** The share of payments refused (PAYMENT_LOCAL_FAIL_RATE), 0 to 1. */
  failRate: number;
  /** The share of refunds that fail (PAYMENT_LOCAL_REFUND_FAIL_RATE), 0 to 1; none when unset. */
  refundFailRate?: number;
  /** Where its refund decisions go once due; refunds are accepted and never settled without it. */
  settleRefund?: SettleRefund;
  /** The decision for each payment, in [0, 1); tests inject their own. */
  random?: () => number;
  settle: SettleDecision;
  onError?: (error: unknown, reference: string) => void;
  /** Where decisions are kept so that a restarted process still answers `status` (the database; memory only when unset). */
  store?: LocalDecisionStore;
}

/** The local provider's decisions, kept where a restart does not lose them. */
export interface LocalDecisionStore {
  save(reference: string, status: 'SUCCESSFUL' | 'FAILED', dueAt: Date): Promise<void>;
  find(reference: string): Promise<{ status: 'SUCCESSFUL' | 'FAILED'; dueAt: Date } | undefined>;
  forget(reference: string): Promise<void>;
}

/** The local provider's decisions in the database (local_payment_decisions). */
export function localDecisionStore(db: Db): LocalDecisionStore {
  return {
    async save(reference, status, dueAt) {
      await db.insert(localPaymentDecisions).values({ reference, status, dueAt }).onConflictDoNothing();
    },
    async find(reference) {
      const [row] = await db.select().from(localPaymentDecisions).where(eq(localPaymentDecisions.reference, reference)).limit(1);
      return row;
    },
    async forget(reference) {
      await db.delete(localPaymentDecisions).where(eq(localPaymentDecisions.reference, reference));
    },
  };
}

/**
 * The demo's provider: approves each payment after a delay and refuses a share of them, settling
 * through the same code as a provider callback so the screens show all three states live. Its
 * decisions are kept in `store`, so after a restart (kill -9 included) `status` still answers what
 * it decided once due, and the sweeper settles the payments that were in flight as a real provider's
 * status would.
 */
export function localPaymentProvider(options: LocalPaymentOptions): PaymentProvider {
  const random = options.random ?? Math.random;
  const decisions = new Map<string, { status: 'SUCCESSFUL' | 'FAILED'; due: boolean; timer: NodeJS.Timeout }>();
  const inFlight = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const settle = (reference: string) => {
    const decision = decisions.get(reference);
    if (!decision || closed) return;
    decision.due = true;
    const work: Promise<void> = options
      .settle({ reference, status: decision.status, actor: 'provider:local', via: 'local', failureReason: decision.status === 'FAILED' ? LOCAL_FAILURE_REASON : null })
      // Settled: forgotten. Not settled: kept, so the sweeper's question still gets the answer.
      .then(async () => {
        decisions.delete(reference);
        await options.store?.forget(reference);
      })
      .catch((error: unknown) => options.onError?.(error, reference))
      .finally(() => inFlight.delete(work));
    inFlight.add(work);
  };

  async function status(reference: string): Promise<PaymentStatus> {
    const decision = decisions.get(reference);
    if (decision) return decision.due ? decision.status : 'PENDING';
    // Decided by this provider before a restart: due once its time has come.
    const kept = await options.store?.find(reference);
    return kept && kept.dueAt.getTime() <= Date.now() ? kept.status : 'PENDING';
  }
  // Refunds are decided as payments are: at request, handed over after the delay. Kept in memory
  // only: a refund left 'submitted' by a restart is asked about by the sweeper, and answers as decided.
  const refunds = new Map<string, { status: 'SUCCESSFUL' | 'FAILED'; dueAt: number }>();
  const settleRefund = (reference: string) => {
    const decision = refunds.get(reference);
    if (!decision || closed || !options.settleRefund) return;
    const work: Promise<void> = options
      .settleRefund({ reference, status: decision.status, actor: 'provider:local', via: 'local', reason: decision.status === 'FAILED' ? 'Refused by the provider' : undefined })
      .then(() => undefined)
      .catch((error: unknown) => options.onError?.(error, reference))
      .finally(() => inFlight.delete(work));
    inFlight.add(work);
  };

  return {
    name: 'local',
    async refund(request) {
      if (!refunds.has(request.reference)) {
        const status = random() < (options.refundFailRate ?? 0) ? 'FAILED' : 'SUCCESSFUL';
        refunds.set(request.reference, { status, dueAt: Date.now() + options.delayMs });
        const timer = setTimeout(() => settleRefund(request.reference), options.delayMs);
        timer.unref();
        timers.add(timer);
      }
      return { accepted: true };
    },
    async refundStatus(reference) {
      const decision = refunds.get(reference);
      if (!decision) return 'NOT_FOUND';
      return decision.dueAt <= Date.now() ? decision.status : 'PENDING';
    },
    async collect(request) {
      if (!decisions.has(request.reference)) {
        const status = random() < options.failRate ? 'FAILED' : 'SUCCESSFUL';
        // Kept before the customer is "asked", so no restart can lose a decision the provider acted on.
        await options.store?.save(request.reference, status, new Date(Date.now() + options.delayMs));
        const timer = setTimeout(() => settle(request.reference), options.delayMs);
        timer.unref();
        decisions.set(request.reference, { status, due: false, timer });
      }
      return { accepted: true, providerRef: request.reference };
    },
    status,
    async answer(reference) {
      const said = await status(reference);
      return { status: said, failureReason: said === 'FAILED' ? LOCAL_FAILURE_REASON : null };
    },
    async close() {
      closed = true;
      for (const decision of decisions.values()) clearTimeout(decision.timer);
      for (const timer of timers) clearTimeout(timer);
      await Promise.all([...inFlight]);
    },
  };
}
