/**
 * Remembers `value` under `key` in a memory of at most `most` entries. A full memory starts again
 * rather than evicting in order: what is asked for often is soon back, and there is no order to keep
 * on the hot path. The memos of zone offsets, verified tokens, USSD menus and list filters share it.
 */
export function rememberWithin<K, V>(memory: Map<K, V>, most: number, key: K, value: V): void {
  if (memory.size >= most) memory.clear();
  memory.set(key, value);
}
