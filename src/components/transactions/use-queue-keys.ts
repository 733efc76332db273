import { useHotkeys } from 'react-hotkeys-hook';

/**
 * Keys are the queue's only where nobody is typing and no dialog, drawer or menu is open: a text
 * field, a select or a modal keeps its own keys. A checkbox (the grid's selection) does not.
 */
function keysBelongElsewhere(event: KeyboardEvent): boolean {
  const target = event.target;
  if (!(target instanceof HTMLElement)) return false;
  if (target.closest('[role="dialog"], [aria-modal="true"], .MuiModal-root, [role="menu"], [role="listbox"]')) return true;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLInputElement) return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(target.type);
  return ['combobox', 'textbox', 'searchbox', 'spinbutton'].includes(target.getAttribute('role') ?? '');
}

/** Enter opens Details only when it would not press a control (a button, a link, a checkbox). */
const enterBelongsElsewhere = (event: KeyboardEvent) =>
  keysBelongElsewhere(event) ||
  (event.target instanceof HTMLElement && event.target.closest('button, a[href], input, [role="button"], [role="checkbox"], [role="link"], [role="tab"]') !== null);

/** What a queue's keys do (QUEUE_SHORTCUTS lists the Failed queue's for people). */
export interface QueueKeyActions {
  next: () => void;
  previous: () => void;
  /** `r`, on a queue that resolves (the Failed one). */
  resolve?: () => void;
  /** `o` and Enter, on a queue whose rows open Details. */
  details?: () => void;
  shortcuts: () => void;
  /** A queue's own single-letter keys (the Refunds queue's `a` approve, `x` reject), by key. */
  more?: Record<string, () => void>;
}

/**
 * A queue's keys: `j`/`k` move, `r` resolves, `o` or Enter open Details, `?` lists the keys, and
 * the queue's own (`more`). `actions` is read when a key is pressed, so it may be a new object on every render.
 */
export function useQueueKeys(enabled: boolean, actions: QueueKeyActions): void {
  const keys = { enabled, enableOnFormTags: true, ignoreEventWhen: keysBelongElsewhere, preventDefault: true };
  useHotkeys('j', actions.next, keys, [actions]);
  useHotkeys('k', actions.previous, keys, [actions]);
  useHotkeys('r', () => actions.resolve?.(), { ...keys, enabled: enabled && actions.resolve !== undefined }, [actions]);
  useHotkeys('o', () => actions.details?.(), { ...keys, enabled: enabled && actions.details !== undefined }, [actions]);
  useHotkeys('enter', () => actions.details?.(), { ...keys, enabled: enabled && actions.details !== undefined, ignoreEventWhen: enterBelongsElsewhere, preventDefault: false }, [actions]);
  const more = Object.keys(actions.more ?? {});
  // One binding for all of them, so the number of hooks never changes; the key pressed picks the action.
  useHotkeys(more.length > 0 ? more.join(',') : 'f20', (event) => actions.more?.[event.key.toLowerCase()]?.(), { ...keys, enabled: enabled && more.length > 0 }, [actions]);
  // The key '?' wherever the layout puts it (Shift and / on most, not all), so Shift is not asked for.
  useHotkeys('?', actions.shortcuts, { ...keys, useKey: true, ignoreModifiers: true }, [actions]);
}
