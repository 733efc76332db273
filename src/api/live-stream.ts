import { fetchEventSource, EventStreamContentType } from '@microsoft/fetch-event-source';
import { LIVE_EVENTS, LIVE_HEARTBEAT_MS, type LiveEventName } from '../domain/live';
import { apiUrl } from './api-url';

/** `connecting` until the first stream opens; `offline` from a failed attempt or a dead stream until one opens again. */
export type LiveConnectionState = 'connecting' | 'open' | 'offline';

export interface LiveStreamOptions {
  /** The access token to connect with now; none ends the stream (signed out). */
  token: () => string | null | undefined;
  /** After a 401 to `sentWith`: true when there is a (new) token to try, false when the session ended. */
  renew: (sentWith: string) => Promise<boolean>;
  onEvent: (name: LiveEventName, data: unknown) => void;
  /** A stream opened; `reconnected` after an earlier one, when what happened between may have been missed. */
  onOpen: (reconnected: boolean) => void;
  onState: (state: LiveConnectionState) => void;
  /** The server's longest silence; twice it without a byte is a dead stream. */
  heartbeatMs?: number;
  firstRetryMs?: number;
  maxRetryMs?: number;
}

/** How one attempt ended. */
type Outcome = 'ended' | 'failed' | 'unauthorized' | 'closed';

class Unauthorized extends Error {}

const isLiveEvent = (name: string): name is LiveEventName => (LIVE_EVENTS as readonly string[]).includes(name);

/**
 * Follows `GET /v1/live` until the returned function is called: fetch streaming, so the
 * token travels in the Authorization header and never in a URL. Reconnects with jittered backoff
 * (1 s doubling to 30 s), renews the token on a 401, and treats a stream silent for two heartbeats
 * as dead (a proxy or a sleeping laptop can leave a socket open that carries nothing).
 */
export function openLiveStream(options: LiveStreamOptions): () => void {
  const { heartbeatMs = LIVE_HEARTBEAT_MS, firstRetryMs = 1000, maxRetryMs = 30_000 } = options;
  let closed = false;
  let current: AbortController | undefined;
  let wake: (() => void) | undefined;
  let opened = false;
  /** Failed attempts since a stream last opened: the backoff's exponent. */
  let failures = 0;
  let state: LiveConnectionState = 'connecting';
  const setState = (next: LiveConnectionState) => {
    if (next === state) return;
    state = next;
    options.onState(next);
  };

  // Full jitter over the upper half, so tabs dropped together do not come back together.
  const backoff = (attempt: number) => {
    const ceiling = Math.min(maxRetryMs, firstRetryMs * 2 ** attempt);
    return ceiling / 2 + Math.random() * (ceiling / 2);
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  async function attempt(token: string): Promise<Outcome> {
    const controller = new AbortController();
    current = controller;
    let lastByteAt = Date.now();
    let dead = false;
    let streamOpen = false;
    const watchdog = setInterval(() => {
      if (Date.now() - lastByteAt <= 2 * heartbeatMs) return;
      dead = true;
      controller.abort();
    }, Math.max(50, heartbeatMs / 2));
    try {
      await fetchEventSource(apiUrl('/v1/live'), {
        headers: { Authorization: `Bearer ${token}` },
        signal: controller.signal,
        // Hidden tabs keep following: the library would otherwise reopen on its own, with this attempt's token.
        openWhenHidden: true,
        // Comments (the heartbeat) never reach onmessage, so liveness is read from the bytes themselves.
        fetch: async (input, init) => {
          const response = await globalThis.fetch(input, init);
          lastByteAt = Date.now();
          if (!response.ok || !response.body) return response;
          const counted = response.body.pipeThrough(
            new TransformStream<Uint8Array, Uint8Array>({
              transform(chunk, stream) {
                lastByteAt = Date.now();
                stream.enqueue(chunk);
              },
            }),
          );
          return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
        },
        onopen: async (response) => {
          if (response.status === 401) throw new Unauthorized();
          if (!response.ok || !response.headers.get('content-type')?.startsWith(EventStreamContentType)) throw new Error(`GET /v1/live answered ${response.status}`);
          streamOpen = true;
          failures = 0;
          setState('open');
          options.onOpen(opened);
          opened = true;
        },
        onmessage: (message) => {
          // A heartbeat comment ends as an empty message.
          if (!isLiveEvent(message.event)) return;
          let data: unknown = {};
          try {
            data = message.data ? JSON.parse(message.data) : {};
          } catch {
            return;
          }
          options.onEvent(message.event, data);
        },
        // Retries are ours (a fresh token each time), not the library's.
        onerror: (error) => {
          throw error;
        },
      });
      if (closed) return 'closed';
      if (dead) return 'failed';
      return streamOpen ? 'ended' : 'failed';
    } catch (error) {
      if (closed) return 'closed';
      return error instanceof Unauthorized ? 'unauthorized' : 'failed';
    } finally {
      clearInterval(watchdog);
      controller.abort();
    }
  }

  async function run() {
    let renewedFor: string | undefined;
    while (!closed) {
      const token = options.token();
      if (!token) return;
      const outcome = await attempt(token);
      if (outcome === 'closed' || closed) return;
      if (outcome === 'unauthorized' && renewedFor !== token) {
        // One renewal per token: a second 401 with a fresh token waits like any failure.
        renewedFor = token;
        if (!(await options.renew(token))) return;
        continue;
      }
      // A stream the server ended (its token expired, or it is going down) is reconnected soon,
      // and called offline only if that fails.
      if (outcome !== 'ended') setState('offline');
      await sleep(backoff(failures));
      failures = Math.min(failures + 1, 16);
    }
  }

  void run();
  return () => {
    closed = true;
    current?.abort();
    wake?.();
  };
}
