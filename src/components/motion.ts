declare global {
  /**
   * Set by the web tests only (src/testing/setup-web.ts): the route overlay's time and MUI's
   * transitions, which make every jsdom test wait without showing it anything. The app never sets it.
   */
  var __DIALDESK_MOTION__: { routeOverlayMs?: number; transitions?: boolean } | undefined;
}

/** SPEC §9: the loading overlay shows for 1000 ms (when the private shell mounts, DESIGN §5). */
export const ROUTE_OVERLAY_MS = 1000;

/** How long the route overlay shows: SPEC's 1000 ms unless the web tests say otherwise. */
export const routeOverlayMs = () => globalThis.__DIALDESK_MOTION__?.routeOverlayMs ?? ROUTE_OVERLAY_MS;

/** False only under the web tests, where MUI's transitions would each add a timer to wait for. */
export const transitionsOn = () => globalThis.__DIALDESK_MOTION__?.transitions ?? true;
