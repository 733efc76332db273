/**
 * The service codes the screens on show follow live (issue 23): the stream carries only their calls
 * (`GET /v1/live?serviceCode=`), so a console watching one code of thirty is not sent the other
 * twenty-nine's traffic. A screen that shows one code follows it while mounted; one that shows
 * every code (a dashboard with no code chosen) follows everything, and so does a console whose
 * screen follows nothing (a search, the settings), as before.
 */
type Listener = () => void;

/** What each mounted screen follows: a code, or `null` for every code in the user's scope. */
const followers = new Map<symbol, string | null>();
const listeners = new Set<Listener>();

/** The codes to follow, sorted; `undefined` for everything the user may read. */
export function followedLiveCodes(): string[] | undefined {
  const wanted = [...followers.values()];
  if (wanted.length === 0 || wanted.includes(null)) return undefined;
  return [...new Set(wanted as string[])].sort();
}

/** The stream's path for these codes (`undefined`: everything). */
export function livePathFor(codes: readonly string[] | undefined): string {
  return codes ? `/v1/live?${codes.map((code) => `serviceCode=${encodeURIComponent(code)}`).join('&')}` : '/v1/live';
}

/** The stream's path for what is followed now. */
export const livePath = (): string => livePathFor(followedLiveCodes());

/** Whether a stream of `followed` carries every call a stream of `next` would (so switching loses nothing it overlaps). */
export function liveCodesCover(followed: readonly string[] | undefined, next: readonly string[] | undefined): boolean {
  return followed === undefined || (next !== undefined && next.every((code) => followed.includes(code)));
}

/** Follows `code` (`null`: every code) until the returned function is called. */
export function followLive(code: string | null): () => void {
  const key = Symbol('follower');
  const before = livePath();
  followers.set(key, code);
  if (livePath() !== before) for (const listener of [...listeners]) listener();
  return () => {
    if (!followers.has(key)) return;
    const was = livePath();
    followers.delete(key);
    if (livePath() !== was) for (const listener of [...listeners]) listener();
  };
}

/** Calls the listener whenever the stream's path changes; returns the unsubscribe. */
export function onLivePathChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
