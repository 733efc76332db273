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

/** What the Failed queue's keys do (QUEUE_SHORTCUTS lists them for people). */
export interface QueueKeyActions {
  next: () => void;
  previous: () => void;
  resolve: () => void;
  details: () => void;
  shortcuts: () => void;
}

/**
 * The Failed queue's keys: `j`/`k` move, `r` resolves, `o` or Enter open Details, `?` lists the
 * keys. `actions` is read when a key is pressed, so it may be a new object on every render.
 */
export function useQueueKeys(enabled: boolean, actions: QueueKeyActions): void {
  const keys = { enabled, enableOnFormTags: true, ignoreEventWhen: keysBelongElsewhere, preventDefault: true };
  useHotkeys('j', actions.next, keys, [actions]);
  useHotkeys('k', actions.previous, keys, [actions]);
  useHotkeys('r', actions.resolve, keys, [actions]);
  useHotkeys('o', actions.details, keys, [actions]);
  useHotkeys('enter', actions.details, { ...keys, ignoreEventWhen: enterBelongsElsewhere, preventDefault: false }, [actions]);
  // The key '?' wherever the layout puts it (Shift and / on most, not all), so Shift is not asked for.
  useHotkeys('?', actions.shortcuts, { ...keys, useKey: true, ignoreModifiers: true }, [actions]);
}
