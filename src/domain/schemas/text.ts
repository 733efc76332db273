import * as yup from 'yup';

/** The field error for a value of the wrong type or with characters no text field takes (DESIGN §4). */
export const INVALID_VALUE = 'Invalid value';

/** C0 controls except tab, line feed and carriage return; DEL; C1 controls (NUL cannot be stored in PostgreSQL at all). */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const TAB_OR_LINE_BREAK = /[\t\n\r]/;
/** Half of a surrogate pair on its own: not Unicode text, and silently replaced on its way to the database. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const hasLoneSurrogate = (value: string) => LONE_SURROGATE.test(value);

/**
 * The embedding, override and isolate controls (U+202A–202E, U+2066–2069): invisible, they turn the
 * text after them around, so 'invoice\u202Ecod.exe' reads as 'invoiceexe.doc'.
 */
const DIRECTION_CONTROL = /[\u202A-\u202E\u2066-\u2069]/;
export const hasDirectionControl = (value: string) => DIRECTION_CONTROL.test(value);
export const DIRECTION_CONTROL_MESSAGE = 'Must not contain text-direction control characters';

/** True when text holds no control characters (tab and line breaks only when multiline) and no lone surrogates. */
export function isCleanText(value: string, multiline = false): boolean {
  return !CONTROL_CHARACTER.test(value) && !LONE_SURROGATE.test(value) && (multiline || !TAB_OR_LINE_BREAK.test(value));
}

/** Text only: a number is not read as its digits (yup would), so a wrong type is refused as such (a yup transform). */
export const textOnly = <T>(value: T, original: unknown) => (original === undefined || original === null || typeof original === 'string' ? value : original);

/**
 * Text only, trimmed (a yup transform). yup's own `.trim()` after `textOnly` would call trim on the
 * number or boolean textOnly let through and answer 500 instead of refusing the type.
 */
export const trimmedTextOnly = (value: unknown, original: unknown) =>
  typeof original === 'string' && typeof value === 'string' ? value.trim() : original === undefined || original === null ? value : original;

export const tooLongMessage = (max: number) => `Must be at most ${max} characters`;

export interface TextOptions {
  /** Tab and line breaks allowed (messages, descriptions). */
  multiline?: boolean;
  /** The message when longer than max; a generic one otherwise. */
  tooLong?: string;
  /** Text-direction controls refused too: where a reversed reading would mislead (a file name, a note on money). */
  plainDirection?: boolean;
}

/** Every text field starts here: a length limit that fits its use, and no control characters. */
export function text(max: number, options: TextOptions = {}) {
  const schema = yup
    .string()
    .typeError(INVALID_VALUE)
    .max(max, options.tooLong ?? tooLongMessage(max))
    .test('clean-text', INVALID_VALUE, (value) => value === undefined || value === null || isCleanText(value, options.multiline));
  return options.plainDirection ? schema.test('plain-direction', DIRECTION_CONTROL_MESSAGE, (value) => value === undefined || value === null || !hasDirectionControl(value)) : schema;
}

/** A boolean field: anything but a boolean (or its form spelling) is refused with a short error, never an echo of the value. */
export const flag = () => yup.boolean().typeError(INVALID_VALUE);
