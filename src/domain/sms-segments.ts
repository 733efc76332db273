/** GSM 03.38 basic alphabet; characters outside it force UCS-2. */
const GSM7_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** Extension characters are sent with an escape and count two. */
const GSM7_EXTENSION = '^{}\\[~]|€\f';

export const SMS_MAX_LENGTH = 160;

export interface SmsSegments {
  encoding: 'GSM-7' | 'UCS-2';
  /** Characters as the network counts them (extension characters count two in GSM-7). */
  units: number;
  parts: number;
  perPart: number;
}

/** The first character the GSM-7 alphabet lacks, or undefined when it has them all. */
export function firstNonGsm7(text: string): string | undefined {
  for (const ch of text) {
    if (!GSM7_BASIC.includes(ch) && !GSM7_EXTENSION.includes(ch)) return ch;
  }
  return undefined;
}

export function isGsm7(text: string): boolean {
  return firstNonGsm7(text) === undefined;
}

/**
 * Names a character for an error message: its code point always (an invisible or look-alike character
 * cannot be found from its glyph), and the glyph too when it is a visible letter, digit, sign or emoji.
 */
export function describeCharacter(ch: string): string {
  const codePoint = `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(ch) ? `'${ch}' (${codePoint})` : codePoint;
}

/** GSM-7 length: extension characters count two. */
export function gsm7Length(text: string): number {
  let units = 0;
  for (const ch of text) units += GSM7_EXTENSION.includes(ch) ? 2 : 1;
  return units;
}

/** SPEC §5: at most 160 characters as the network counts them (a GSM-7 extension character counts two). */
export function fitsSmsLimit(text: string): boolean {
  return (isGsm7(text) ? gsm7Length(text) : text.length) <= SMS_MAX_LENGTH;
}

/** DESIGN §5: GSM-7 160 single / 153 per part, UCS-2 70 / 67. */
export function smsSegments(text: string): SmsSegments {
  if (isGsm7(text)) {
    const units = gsm7Length(text);
    const perPart = units <= 160 ? 160 : 153;
    return { encoding: 'GSM-7', units, parts: units === 0 ? 0 : Math.ceil(units / perPart), perPart };
  }
  const units = [...text].reduce((n, ch) => n + (ch.codePointAt(0)! > 0xffff ? 2 : 1), 0);
  const perPart = units <= 70 ? 70 : 67;
  return { encoding: 'UCS-2', units, parts: units === 0 ? 0 : Math.ceil(units / perPart), perPart };
}
