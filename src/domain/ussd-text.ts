import { gsm7Length, isGsm7 } from './sms-segments';

/** A USSD reply, `CON `/`END ` included, fits 182 GSM 7-bit characters (DESIGN §6). */
export const USSD_MAX_LENGTH = 182;

/** Characters outside GSM-7 that have a close GSM-7 spelling; anything else without one is dropped. */
const SPELLED: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201A': "'",
  '\u201B': "'",
  '`': "'",
  '\u00B4': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u201E': '"',
  '\u00AB': '"',
  '\u00BB': '"',
  '\u2013': '-',
  '\u2014': '-',
  '\u2212': '-',
  '\u2026': '...',
  '\u0153': 'oe',
  '\u0152': 'OE',
  '\u0142': 'l',
  '\u0141': 'L',
  '\u0111': 'd',
  '\u0110': 'D',
  '\u0131': 'i',
  '\u00F0': 'd',
  '\u00FE': 'th',
  '\u00DE': 'Th',
  '\u00A0': ' ',
};

/**
 * A name from the catalogue (category, team) spelled in GSM-7 only, on one line: accented letters
 * GSM-7 lacks lose their accent ('Côte' → 'Cote'), a few signs get their plain form, the rest is
 * dropped, and line breaks and runs of spaces become one space.
 */
export function toGsm7(text: string): string {
  let out = '';
  for (const ch of text) {
    if (ch === '\n' || ch === '\r' || ch === '\t' || ch === '\f') out += ' ';
    else if (isGsm7(ch)) out += ch;
    else if (SPELLED[ch] !== undefined) out += SPELLED[ch];
    else {
      const bare = ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      if (bare !== ch && isGsm7(bare)) out += bare;
    }
  }
  return out.replace(/ {2,}/g, ' ').trim();
}

/** `text` cut to at most `max` GSM-7 units (extension characters count two), ending in '..' when cut. */
export function clipGsm7(text: string, max: number): string {
  if (gsm7Length(text) <= max) return text;
  let out = '';
  for (const ch of text) {
    if (gsm7Length(out + ch) > max - 2) break;
    out += ch;
  }
  return `${out.trimEnd()}..`;
}
