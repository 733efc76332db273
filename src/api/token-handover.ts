import { tokenSessionId } from '../domain/token';
import { REFRESHED_TOKENS_ITEM } from '../state/persisted-storage';
import type { SessionState, Tokens } from '../state/session-slice';

/*
 * How the tab that refreshed hands its new pair to the browser's other tabs of the session, so the
 * next tab to take the refresh lock goes on with that pair instead of spending the same refresh
 * token a second time.
 *
 * The pair travels over a BroadcastChannel (and localStorage, for tabs opened later), but neither
 * is there in time for sure: Chromium carries both to another tab asynchronously, and the next
 * tab may take the lock first. So the refreshing tab also marks the refresh token spent with a
 * Web Lock of its own before it releases the refresh lock; the browser's lock manager answers
 * `query()` in step with its grants, so the next tab knows for certain to wait for the pair.
 */
const CHANNEL_NAME = 'dialdesk-refreshed-tokens';
/** Held by the tab that spent the token until it spends the next; only this origin's scripts, which read the live tokens anyway, see the name. */
const SPENT_MARK_PREFIX = 'dialdesk-spent-refresh-token:';
/** How long a tab waits for a pair known to be on its way; it is sent before the lock moves on. */
const HANDOVER_WAIT_MS = 5_000;

let listening = false;
/** The newest pair this tab heard of (another tab's or its own) while listening. */
let heard: Tokens | undefined;
const onHeard = new Set<() => void>();
let releaseSpentMark: (() => void) | undefined;

function asTokens(value: unknown): Tokens | undefined {
  const pair = value as Partial<Tokens> | null | undefined;
  return typeof pair?.accessToken === 'string' && typeof pair.refreshToken === 'string'
    ? { accessToken: pair.accessToken, refreshToken: pair.refreshToken }
    : undefined;
}

function hear(tokens: Tokens) {
  heard = tokens;
  for (const notify of onHeard) notify();
}

/** Hear the pairs other tabs refresh to until the returned stop is called (the app: for its life). */
export function listenForHandedOverTokens(): () => void {
  if (listening || typeof BroadcastChannel !== 'function') return () => {};
  const channel = new BroadcastChannel(CHANNEL_NAME);
  channel.onmessage = ({ data }: MessageEvent<unknown>) => {
    const tokens = asTokens(data);
    if (tokens) hear(tokens);
  };
  listening = true;
  return () => {
    channel.close();
    listening = false;
    heard = undefined;
  };
}

const webLocks = (): LockManager | undefined => globalThis.navigator?.locks;

/** Resolves once the browser has granted the mark, which then stays until this tab spends its next token. */
function markSpent(refreshToken: string): Promise<void> {
  const locks = webLocks();
  if (!locks) return Promise.resolve();
  releaseSpentMark?.();
  return new Promise((granted) => {
    void locks.request(`${SPENT_MARK_PREFIX}${refreshToken}`, () => {
      granted();
      return new Promise<void>((release) => (releaseSpentMark = release));
    });
  });
}

async function isSpent(refreshToken: string): Promise<boolean> {
  const held = (await webLocks()?.query())?.held ?? [];
  return held.some((lock) => lock.name === `${SPENT_MARK_PREFIX}${refreshToken}`);
}

/** Tell the other tabs the pair `spent` was traded for. Call it holding the refresh lock. */
export async function handOverTokens(spent: string, tokens: Tokens): Promise<void> {
  // A server that does not rotate refresh tokens answers the same one: it is not spent.
  if (tokens.refreshToken !== spent) await markSpent(spent);
  globalThis.localStorage?.setItem(REFRESHED_TOKENS_ITEM, JSON.stringify(tokens));
  if (!listening) return;
  heard = tokens;
  const sender = new BroadcastChannel(CHANNEL_NAME);
  sender.postMessage(tokens);
  sender.close();
}

function storedTokens(): Tokens | undefined {
  try {
    return asTokens(JSON.parse(globalThis.localStorage?.getItem(REFRESHED_TOKENS_ITEM) ?? 'null'));
  } catch {
    return undefined;
  }
}

/** The pair another tab of this session refreshed to, when ours is older; tokens of another session are never taken. */
function refreshedElsewhere(session: SessionState): Tokens | undefined {
  // Once anything is heard, what is heard is the newest: the storage may still show an older pair.
  const latest = heard ?? storedTokens();
  if (!latest || latest.refreshToken === session.refreshToken) return undefined;
  const sessionId = tokenSessionId(latest.accessToken);
  return sessionId && sessionId === tokenSessionId(session.accessToken) ? latest : undefined;
}

function pairOnItsWay(session: SessionState): Promise<Tokens | undefined> {
  return new Promise((resolve) => {
    const check = () => {
      const tokens = refreshedElsewhere(session);
      if (tokens) done(tokens);
    };
    const done = (tokens: Tokens | undefined) => {
      clearTimeout(timer);
      onHeard.delete(check);
      resolve(tokens);
    };
    const timer = setTimeout(() => done(undefined), HANDOVER_WAIT_MS);
    onHeard.add(check);
    check();
  });
}

/**
 * The pair another tab traded this session's refresh token for, waiting for it when the token is
 * marked spent; nothing when the token is ours to trade (or the pair never came: the server answers
 * a token traded again within seconds with the same pair). Call it holding the refresh lock.
 */
export async function tokensHandedOver(session: SessionState): Promise<Tokens | undefined> {
  const tokens = refreshedElsewhere(session);
  if (tokens || !listening || !session.refreshToken || !(await isSpent(session.refreshToken))) return tokens;
  return pairOnItsWay(session);
}
