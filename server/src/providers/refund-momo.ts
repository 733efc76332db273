import { momoToken } from './momo-token';
import { PaymentProviderUnavailable, type RefundRequest, type RefundStatus, type SettleRefund } from './payment';

/** What MoMo's Disbursement product needs of the account (MOMO_DISBURSEMENT_*, read by config.ts). */
export type MomoDisbursementSettings = Pick<MomoDisbursementOptions, 'baseUrl' | 'subscriptionKey' | 'apiUser' | 'apiKey' | 'targetEnvironment' | 'currency' | 'callbackUrl'>;

export interface MomoDisbursementOptions {
  baseUrl: string;
  /** The Disbursement product's own Ocp-Apim-Subscription-Key (not the Collections one). */
  subscriptionKey: string;
  /** The Disbursement API user (a UUID) and its key, for its own OAuth token. */
  apiUser: string;
  apiKey: string;
  targetEnvironment: string;
  currency: string;
  /** Sent as X-Callback-Url when set; without it each refund is polled. */
  callbackUrl?: string;
  /** Status polls after a refund is accepted (ms after it), settling what MoMo decided; the sweeper backs them up. */
  pollAfterMs?: number[];
  settleRefund?: SettleRefund;
  onError?: (error: unknown, reference: string) => void;
  timeoutMs?: number;
  fetch?: typeof fetch;
  now?: () => number;
}

const DEFAULT_POLLS = [5_000, 15_000, 30_000, 60_000, 120_000, 300_000];

/**
 * Refunds through MTN MoMo Disbursement: `POST /disbursement/v1_0/refund` with the refund's own
 * reference as X-Reference-Id and the collection's as `referenceIdToRefund`, answered 202; its
 * status at `GET /disbursement/v1_0/refund/{referenceId}`. The submission is sent once: a network
 * error, a timeout or a 5xx is an unknown outcome (thrown as PaymentProviderUnavailable), which the
 * sweeper asks about rather than sending again; a 409 is the same reference sent before.
 */
export function momoDisbursementRefunds(options: MomoDisbursementOptions) {
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const base = options.baseUrl.replace(/\/+$/, '');
  const polls = new Map<string, NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  let closed = false;

  async function send(url: string, init: RequestInit): Promise<Response> {
    try {
      const response = await doFetch(url, { ...init, signal: AbortSignal.timeout(options.timeoutMs ?? 10_000) });
      if (response.status < 500) return response;
      await response.body?.cancel();
      throw new Error(`MoMo answered ${response.status}`);
    } catch (error) {
      throw new PaymentProviderUnavailable(`MoMo Disbursement unreachable: ${(error as Error).message}`);
    }
  }

  const token = momoToken({
    url: `${base}/disbursement/token/`,
    subscriptionKey: options.subscriptionKey,
    apiUser: options.apiUser,
    apiKey: options.apiKey,
    send,
    now,
    product: 'MoMo Disbursement',
  });

  const headers = async (more: Record<string, string> = {}) => ({
    Authorization: `Bearer ${await token.get()}`,
    'X-Target-Environment': options.targetEnvironment,
    'Ocp-Apim-Subscription-Key': options.subscriptionKey,
    ...more,
  });

  async function refundStatus(reference: string): Promise<RefundStatus> {
    const response = await send(`${base}/disbursement/v1_0/refund/${encodeURIComponent(reference)}`, { method: 'GET', headers: await headers() });
    // MoMo never received it: nothing moved.
    if (response.status === 404) return 'NOT_FOUND';
    if (!response.ok) throw new PaymentProviderUnavailable(`MoMo Disbursement answered ${response.status} to a status request`);
    const body = (await response.json()) as { status?: string };
    const said = String(body.status ?? '').toUpperCase();
    return said === 'SUCCESSFUL' || said === 'FAILED' ? said : 'PENDING';
  }

  function schedulePolls(reference: string, remaining: number[], waited = 0) {
    const [next, ...rest] = remaining;
    if (next === undefined || closed || !options.settleRefund) return void polls.delete(reference);
    const timer = setTimeout(() => {
      const work: Promise<void> = refundStatus(reference)
        .then(async (said) => {
          if (said === 'PENDING') return schedulePolls(reference, rest, next);
          polls.delete(reference);
          const status = said === 'SUCCESSFUL' ? 'SUCCESSFUL' : 'FAILED';
          await options.settleRefund!({ reference, status, actor: 'provider:momo', via: 'poll', reason: said === 'NOT_FOUND' ? 'MoMo has no record of this refund' : undefined });
        })
        .catch((error: unknown) => {
          options.onError?.(error, reference);
          schedulePolls(reference, rest, next);
        })
        .finally(() => inFlight.delete(work));
      inFlight.add(work);
    }, next - waited);
    timer.unref();
    polls.set(reference, timer);
  }

  return {
    async refund({ reference, paymentRef, amount }: RefundRequest): Promise<{ accepted: boolean; reason?: string }> {
      if (!paymentRef) return { accepted: false, reason: 'The call has no MoMo payment to refund' };
      const more: Record<string, string> = { 'X-Reference-Id': reference, 'Content-Type': 'application/json' };
      if (options.callbackUrl) more['X-Callback-Url'] = options.callbackUrl;
      const response = await send(`${base}/disbursement/v1_0/refund`, {
        method: 'POST',
        headers: await headers(more),
        body: JSON.stringify({
          amount: String(amount),
          currency: options.currency,
          externalId: reference,
          payerMessage: 'Dialdesk refund',
          payeeNote: reference,
          referenceIdToRefund: paymentRef,
        }),
      });
      await response.body?.cancel();
      // 202 Accepted; 409 this reference was sent before (ours, the same refund).
      if (response.status === 202 || response.status === 409) {
        if (!polls.has(reference) && !options.callbackUrl) schedulePolls(reference, options.pollAfterMs ?? DEFAULT_POLLS);
        return { accepted: true };
      }
      return { accepted: false, reason: `MoMo refused the refund (${response.status})` };
    },
    refundStatus,
    async close() {
      closed = true;
      for (const timer of polls.values()) clearTimeout(timer);
      polls.clear();
      await Promise.all([...inFlight]);
    },
  };
}
