import type { FastifyRequest } from 'fastify';

export interface ResetLinkSettings {
  /** The site's public origin for links in mail (PUBLIC_URL). */
  publicUrl?: string;
  /** Without `publicUrl`, the Host names a link may be built on (ALLOWED_HOSTS); localhost and 127.0.0.1 by default. */
  allowedHosts?: readonly string[];
}

/** The password-reset links of a site: on PUBLIC_URL, or on a request's Host when it is allowed. */
export function resetLinks(settings: ResetLinkSettings) {
  const allowedHosts = (settings.allowedHosts ?? ['localhost', '127.0.0.1']).map((host) => host.toLowerCase());
  return {
    /** Builds a request's reset link from its token; undefined when no link may be built on its Host. */
    forRequest(request: Pick<FastifyRequest, 'headers' | 'protocol'>, redirectUrl: string | undefined): ((token: string) => string) | undefined {
      const origin = linkOrigin(request, settings.publicUrl, allowedHosts);
      return origin === undefined ? undefined : (token) => resetLink(origin, redirectUrl, token);
    },
  };
}

/**
 * The origin reset links point at: PUBLIC_URL, or the request's Host when ALLOWED_HOSTS lists it
 * (a name alone allows any port); undefined otherwise, as a forged Host would send the token to
 * someone else's site. X-Forwarded-Host is never read, for the same reason.
 */
function linkOrigin(request: Pick<FastifyRequest, 'headers' | 'protocol'>, publicUrl: string | undefined, allowedHosts: readonly string[]): string | undefined {
  if (publicUrl) return new URL(publicUrl).origin;
  const host = request.headers.host?.toLowerCase();
  if (!host) return undefined;
  const listed = allowedHosts.some((allowed) => host === allowed || (host.startsWith(`${allowed}:`) && /^\d+$/.test(host.slice(allowed.length + 1))));
  // The scheme may come from a trusted proxy's X-Forwarded-Proto; only the two a link can have are taken.
  return listed ? `${request.protocol === 'https' ? 'https' : 'http'}://${host}` : undefined;
}

/** Builds the reset link on our own origin; only the path (and hash route) of redirectUrl is kept, so a link never leaves the site. */
function resetLink(origin: string, redirectUrl: string | undefined, token: string) {
  let route = '/reset-password';
  if (redirectUrl) {
    try {
      const url = new URL(redirectUrl, origin);
      route = `${url.pathname}${url.hash}`;
    } catch {
      // keep the default route
    }
  }
  return `${origin}${route}?token=${encodeURIComponent(token)}`;
}
