declare global {
  // Set by the web tests to the real API they started; the built SPA calls its own origin.
  var __DIALDESK_API_URL__: string | undefined;
}

/** Absolute or same-origin URL of an API path such as /v1/users. */
export function apiUrl(path: string): string {
  return `${globalThis.__DIALDESK_API_URL__ ?? ''}${path}`;
}
