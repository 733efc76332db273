import { PaymentProviderUnavailable } from './payment';

export interface MomoTokenOptions {
  /** The product's token endpoint: `{base}/collection/token/` or `{base}/disbursement/token/`. */
  url: string;
  /** The product's Ocp-Apim-Subscription-Key. */
  subscriptionKey: string;
  /** The product's API user (a UUID) and its API key. */
  apiUser: string;
  apiKey: string;
  /** The product's own way of sending (its retries, timeout and unreachable error). */
  send: (url: string, init: RequestInit) => Promise<Response>;
  now: () => number;
  /** Names the product in errors: 'MoMo' (Collections), 'MoMo Disbursement'. */
  product: string;
}

export interface MomoToken {
  /** A valid bearer token: the cached one, or a fresh one that concurrent callers share. */
  get(): Promise<string>;
  /** Drops the cached token (MoMo answered 401: revoked before its time). */
  forget(): void;
}

/**
 * The OAuth token of one MoMo product (Collections and Disbursement each have their own user and
 * key): asked for with Basic auth, cached until a little before it expires, one request at a time.
 */
export function momoToken(options: MomoTokenOptions): MomoToken {
  let token: { value: string; expiresAt: number } | undefined;
  let fetching: Promise<string> | undefined;

  async function newToken(): Promise<string> {
    const basic = Buffer.from(`${options.apiUser}:${options.apiKey}`).toString('base64');
    const response = await options.send(options.url, {
      method: 'POST',
      headers: { Authorization: `Basic ${basic}`, 'Ocp-Apim-Subscription-Key': options.subscriptionKey },
    });
    if (!response.ok) throw new PaymentProviderUnavailable(`${options.product} refused the token request (${response.status})`);
    const body = (await response.json()) as { access_token?: string; expires_in?: number };
    if (!body.access_token) throw new PaymentProviderUnavailable(`${options.product} token answer without access_token`);
    const lifetimeMs = Number(body.expires_in ?? 3600) * 1000;
    // Renewed a little early, so a token never expires between our check and MoMo's.
    token = { value: body.access_token, expiresAt: options.now() + lifetimeMs - Math.min(60_000, lifetimeMs / 10) };
    return token.value;
  }

  return {
    get() {
      if (token && token.expiresAt > options.now()) return Promise.resolve(token.value);
      // Concurrent requests share one token request.
      fetching ??= newToken().finally(() => (fetching = undefined));
      return fetching;
    },
    forget() {
      token = undefined;
    },
  };
}
