/** SPEC §4: a token is expired when its exp claim is earlier than now or cannot be parsed. */
export function isTokenExpired(token: string | null | undefined, nowMs: number = Date.now()): boolean {
  const exp = tokenExpiry(token);
  return exp === null || exp * 1000 <= nowMs;
}

export function tokenExpiry(token: string | null | undefined): number | null {
  const exp = tokenClaims(token)?.exp;
  return typeof exp === 'number' ? exp : null;
}

/** The session an access token belongs to (its sid claim, DESIGN §4), or null. */
export function tokenSessionId(token: string | null | undefined): string | null {
  const sid = tokenClaims(token)?.sid;
  return typeof sid === 'string' ? sid : null;
}

/** A JWT's claims, read without checking the signature (only the server can), or null. */
function tokenClaims(token: string | null | undefined): Record<string, unknown> | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const claims = JSON.parse(decodeBase64Url(payload)) as unknown;
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function decodeBase64Url(input: string): string {
  const base64 = input.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(input.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}
