import crypto from 'node:crypto';

/** The header every payment callback (and, off Africa's Talking, every SMS delivery report) carries. */
export const CALLBACK_SIGNATURE_HEADER = 'x-callback-signature';

/** The only form of the header we take. */
export const SIGNATURE_SHAPE = /^sha256=[0-9a-f]{64}$/i;

/** `sha256=<hex HMAC-SHA256 of the raw body bytes>`: what a caller puts in X-Callback-Signature. */
export function signCallback(rawBody: string | Buffer, secret: string): string {
  return `sha256=${crypto.createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/** Whether a header value is the signature of these exact bytes, compared in constant time. */
export function isSignedBy(header: string | string[] | undefined, rawBody: Buffer, secret: string): boolean {
  if (typeof header !== 'string' || !SIGNATURE_SHAPE.test(header)) return false;
  const given = Buffer.from(header.slice('sha256='.length).toLowerCase(), 'hex');
  const wanted = crypto.createHmac('sha256', secret).update(rawBody).digest();
  return crypto.timingSafeEqual(given, wanted);
}

/**
 * A callback body (JSON, or a form as Africa's Talking posts) and the headers that sign it: for
 * tests, the benchmark and anything else that plays the provider.
 */
export function signedCallback(body: Record<string, unknown>, secret: string, format: 'json' | 'form' = 'json'): { payload: string; headers: Record<string, string> } {
  const payload = format === 'json' ? JSON.stringify(body) : new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString();
  const contentType = format === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
  return { payload, headers: { 'content-type': contentType, [CALLBACK_SIGNATURE_HEADER]: signCallback(payload, secret) } };
}
