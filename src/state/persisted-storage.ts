/**
 * redux-persist's localStorage keys ('persist:' + the key store.ts gives each slice). Kept in a
 * module without imports so the entry can look for a stored session without loading redux.
 */
export const PERSIST_KEY_PREFIX = 'dialdesk.';
export const SESSION_PERSIST_KEY = `${PERSIST_KEY_PREFIX}session`;
export const UI_PERSIST_KEY = `${PERSIST_KEY_PREFIX}ui`;
/** The pair the browser's last token refresh got, written at once so other tabs take it instead of refreshing again. */
export const REFRESHED_TOKENS_ITEM = `${PERSIST_KEY_PREFIX}refreshed-tokens`;

/** The localStorage item redux-persist writes for a persist key. */
export const storageItem = (persistKey: string) => `persist:${persistKey}`;

/** One field of a slice as redux-persist stored it (each field is JSON inside JSON), or undefined. */
function storedField(persistKey: string, field: string): unknown {
  const raw = globalThis.localStorage?.getItem(storageItem(persistKey));
  if (!raw) return undefined;
  const stored = (JSON.parse(raw) as Record<string, string | undefined>)[field];
  return stored === undefined ? undefined : JSON.parse(stored);
}

/** True when something of a session is stored (even an expired one: the full app deals with it). */
export function hasStoredSession(): boolean {
  try {
    return ['accessToken', 'refreshToken', 'user'].some((field) => storedField(SESSION_PERSIST_KEY, field) != null);
  } catch {
    // Unreadable storage: let the full app decide.
    return true;
  }
}

/** The stored colour mode, so the sign-in page shown before the app looks like it. */
export function storedColorMode(): 'light' | 'dark' {
  try {
    return storedField(UI_PERSIST_KEY, 'colorMode') === 'dark' ? 'dark' : 'light';
  } catch {
    return 'light';
  }
}
