import { momoToken } from './momo-token';
import { PaymentProviderUnavailable, providerFailureReason, type CollectRequest, type PaymentAnswer, type PaymentProvider, type PaymentStatus, type SettleDecision } from './payment';

export { PaymentProviderUnavailable };

/** What MoMo needs to know of the account (MOMO_*, read by config.ts). */
export type MomoSettings = Pick<MomoOptions, 'baseUrl' | 'subscriptionKey' | 'apiUser' | 'apiKey' | 'targetEnvironment' | 'currency' | 'callbackUrl'>;

export interface MomoOptions {
  /** https://sandbox.momodeveloper.mtn.com, or the production host MTN gives. */
  baseUrl: string;
  /** The Collections product's Ocp-Apim-Subscription-Key. */
  subscriptionKey: string;
  /** API user (a UUID) and its API key, for the OAuth token. */
  apiUser: string;
  apiKey: string;
  /** X-Target-Environment: 'sandbox', or the country's ('mtnuganda'). */
  targetEnvironment: string;
  /** EUR in the sandbox, UGX in Uganda. */
  currency: string;
  /** Sent as X-Callback-Url when set. */
  callbackUrl?: string;
  /** Status polls after a request (ms after it), settling what MoMo decided; the sweeper backs them up. */
  pollAfterMs?: number[];
  settle?: SettleDecision;
  onError?: (error: unknown, reference: string) => void;
  /** Tries per call on 5xx and network errors, waiting retryDelayMs, then twice that, and so on. */
  attempts?: number;
  retryDelayMs?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
  now?: () => number;
}

const DEFAULT_POLLS = [5_000, 15_000, 30_000, 60_000, 120_000, 300_000];

/**
 * MTN MoMo Collections (DESIGN §1): requesttopay with our reference as X-Reference-Id (and
 * externalId), the OAuth token cached until it expires, status by GET requesttopay/{reference}.
 * 5xx and network errors are retried with backoff; 409 means the reference was already requested,
 * which for us is the same request sent again.
 */
export function momoPaymentProvider(options: MomoOptions): PaymentProvider {
  const doFetch = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  const attempts = Math.max(1, options.attempts ?? 3);
  const retryDelayMs = options.retryDelayMs ?? 250;
  const base = options.baseUrl.replace(/\/+$/, '');
  const polls = new Map<string, NodeJS.Timeout>();
  const inFlight = new Set<Promise<void>>();
  let closed = false;

  /** One call, retried on 5xx and network errors with exponential backoff. */
  async function send(url: string, init: RequestInit): Promise<Response> {
    let lastError: unknown;
    for (let attempt = 0; attempt < attempts; attempt += 1) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, retryDelayMs * 2 ** (attempt - 1)));
      try {
        const response = await doFetch(url, { ...init, signal: AbortSignal.timeout(options.timeoutMs ?? 10_000) });
        if (response.status < 500) return response;
        lastError = new Error(`MoMo answered ${response.status}`);
        await response.body?.cancel();
      } catch (error) {
        lastError = error;
      }
    }
    throw new PaymentProviderUnavailable(`MoMo unreachable: ${(lastError as Error).message}`);
  }

  const token = momoToken({ url: `${base}/collection/token/`, subscriptionKey: options.subscriptionKey, apiUser: options.apiUser, apiKey: options.apiKey, send, now, product: 'MoMo' });

  /** An authorised Collections call; a 401 (token revoked early) gets one fresh token and one more try. */
  async function api(path: string, init: { method: string; headers?: Record<string, string>; body?: string }): Promise<Response> {
    for (let round = 0; ; round += 1) {
      const response = await send(`${base}/collection/v1_0${path}`, {
        method: init.method,
        body: init.body,
        headers: {
          Authorization: `Bearer ${await token.get()}`,
          'X-Target-Environment': options.targetEnvironment,
          'Ocp-Apim-Subscription-Key': options.subscriptionKey,
          ...init.headers,
        },
      });
      if (response.status !== 401 || round > 0) return response;
      token.forget();
      await response.body?.cancel();
    }
  }

  async function answer(reference: string): Promise<PaymentAnswer> {
    const response = await api(`/requesttopay/${encodeURIComponent(reference)}`, { method: 'GET' });
    // MoMo never received it, so nothing was taken.
    if (response.status === 404) {
      await response.body?.cancel();
      return { status: 'FAILED', failureReason: 'MoMo has no such payment request' };
    }
    if (!response.ok) throw new PaymentProviderUnavailable(`MoMo answered ${response.status} to a status request`);
    const body = (await response.json()) as { status?: string; reason?: unknown };
    const said = String(body.status ?? '').toUpperCase();
    if (said === 'FAILED') return { status: 'FAILED', failureReason: providerFailureReason(body.reason) };
    return { status: said === 'SUCCESSFUL' ? said : 'PENDING', failureReason: null };
  }

  const status = async (reference: string): Promise<PaymentStatus> => (await answer(reference)).status;

  function schedulePolls(reference: string, remaining: number[], waited = 0) {
    const [next, ...rest] = remaining;
    if (next === undefined || closed || !options.settle) return void polls.delete(reference);
    const timer = setTimeout(() => {
      const work: Promise<void> = answer(reference)
        .then(async ({ status: said, failureReason }) => {
          if (said === 'PENDING') return schedulePolls(reference, rest, next);
          polls.delete(reference);
          await options.settle!({ reference, status: said, actor: 'provider:momo', via: 'poll', failureReason });
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
    name: 'momo',
    async collect({ reference, phoneNumber, amount }: CollectRequest) {
      const headers: Record<string, string> = { 'X-Reference-Id': reference, 'Content-Type': 'application/json' };
      if (options.callbackUrl) headers['X-Callback-Url'] = options.callbackUrl;
      const response = await api('/requesttopay', {
        method: 'POST',
        headers,
        body: JSON.stringify({
          amount: String(amount),
          currency: options.currency,
          externalId: reference,
          payer: { partyIdType: 'MSISDN', partyId: phoneNumber.replace(/^\+/, '') },
          payerMessage: 'Dialdesk ticket',
          payeeNote: reference,
        }),
      });
      await response.body?.cancel();
      // 202 Accepted; 409 the same reference was requested before (a retry of ours).
      const accepted = response.status === 202 || response.status === 409;
      if (accepted && !polls.has(reference)) schedulePolls(reference, options.pollAfterMs ?? DEFAULT_POLLS);
      return { accepted, providerRef: reference };
    },
    status,
    answer,
    async close() {
      closed = true;
      for (const timer of polls.values()) clearTimeout(timer);
      polls.clear();
      await Promise.all([...inFlight]);
    },
  };
}
