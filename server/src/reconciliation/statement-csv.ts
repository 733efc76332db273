import { isUtf8 } from 'node:buffer';
import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import { parse, type CsvError, type Info } from 'csv-parse';
import type { FieldError } from '../../../src/domain/entities';
import { formatCount, zoneOffsetMs } from '../../../src/domain/format';
import {
  STATEMENT_COLUMNS,
  STATEMENT_MAX_MB,
  STATEMENT_MAX_SPAN_DAYS,
  STATEMENT_STATUSES,
  STATEMENT_TYPE_COLUMN,
  statementLineType,
  type StatementColumn,
  type StatementLineType,
  type StatementStatus,
} from '../../../src/domain/reconciliation';
import { hasDirectionControl } from '../../../src/domain/schemas/text';
import { HttpError } from '../http/http-error';

/** One line of a statement, checked: what the import writes. */
export interface StatementLine {
  line: number;
  /** PAYMENT (a line without a type) or REFUND. */
  type: StatementLineType;
  reference: string;
  /** A decimal text with at most two decimals ('6000', '6000.50'). */
  amount: string;
  currency: string;
  status: StatementStatus;
  /** ISO 8601 in UTC. */
  completedAt: string;
}

export interface ReadStatement {
  /** SHA-256 of the file's bytes: the same file uploaded twice is one statement. */
  hash: string;
  lines: StatementLine[];
  /** The earliest and latest completedAt, or the declared period's first and last instants. */
  periodFrom: string;
  periodTo: string;
  periodDeclared: boolean;
}

/** A period declared at upload: its first and last instants, and its days as the upload named them. */
export interface DeclaredPeriod {
  from: string;
  to: string;
  days: string;
}

export interface ReadStatementOptions {
  maxBytes: number;
  /** The zone of a completedAt written without one (TZ_NAME). */
  timeZone: string;
  /** At most this many lines (a month of a busy service is well under it). */
  maxLines?: number;
  /** Every line must fall within it; without one the lines may span at most STATEMENT_MAX_SPAN_DAYS. */
  period?: DeclaredPeriod;
}

/** A file refused: one error per line and column, at most MAX_ERRORS of them, never echoing the file. */
const MAX_ERRORS = 10;
const DEFAULT_MAX_LINES = 200_000;
/** Longer than any line of a statement: a file of garbage without line breaks is refused at this length, not at its end. */
const MAX_RECORD_BYTES = 16 * 1024;
const REFERENCE_MAX = 128;

export const statementTooLarge = () => new HttpError(413, `The file is larger than ${STATEMENT_MAX_MB} MB`, [{ field: 'file', message: `The file is larger than ${STATEMENT_MAX_MB} MB` }]);

const badFile = (errors: FieldError[]) => new HttpError(400, errors[0].message, errors);
const fileError = (message: string) => badFile([{ field: 'file', message }]);

/**
 * csv-parse's errors in our words, with the line; its own messages quote the file. A quote left
 * open swallows the rest of the file, so it is named on the line after the last whole record,
 * where it was opened, not at the file's end where it was noticed.
 */
function csvErrorMessage(error: CsvError, lastRecordLine: number): string {
  const line = typeof error.lines === 'number' && error.lines > 0 ? `Line ${error.lines}: ` : '';
  switch (error.code) {
    case 'CSV_MAX_RECORD_SIZE':
      return `${line}the line is too long for a statement (is this a CSV file?)`;
    case 'CSV_QUOTE_NOT_CLOSED':
      return `Line ${lastRecordLine + 1}: a quoted value opened on this line is not closed (it runs to the end of the file)`;
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return `${line}a closing quote is not followed by a comma or the end of the line`;
    default:
      return `${line}not a readable CSV line`;
  }
}

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const AMOUNT = /^\d{1,12}(\.\d{1,2})?$/;
/** An ISO 4217 code as written (UGX), or in lower case as some exports write it; 'USh' is the shilling's sign, not a code. */
const CURRENCY = /^(?:[A-Z]{3}|[a-z]{3})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
/** UTC offsets in use run from -12:00 to +14:00; ±14:00 is what ISO 8601 readers take. */
const MAX_OFFSET_MINUTES = 14 * 60;
/** The instants a statement may hold: years 2000 to 2100, in UTC. */
const EARLIEST = Date.UTC(2000, 0, 1);
const AFTER_LATEST = Date.UTC(2101, 0, 1);
const DAY_MS = 86_400_000;
/** What csv-parse puts where the file's bytes were not UTF-8. */
const REPLACEMENT = '\uFFFD';

/** The instant at which `zone`'s clock shows the wall time `wall` (its fields read as UTC). */
export function zonedInstant(wall: number, zone: string): number {
  // The offset at the guess, checked once more across a change of offset.
  const first = wall - zoneOffsetMs(wall, zone);
  return wall - zoneOffsetMs(first, zone);
}

/**
 * A statement's completedAt as an ISO instant, or what is wrong with it: ISO 8601, with an offset
 * of at most ±14:00 or in the service's zone, within the years 2000 to 2100 once the offset is applied.
 */
export function readCompletedAt(value: string, timeZone: string): { instant: string } | { problem: string } {
  const notATime = { problem: 'not a date and time (ISO 8601, e.g. 2026-05-01T10:15:00Z)' };
  const m = DATE_TIME.exec(value);
  if (!m) return notATime;
  const [year, month, day, hour, minute, second = 0] = m.slice(1, 7).map((part) => (part === undefined ? undefined : Number(part))) as number[];
  const ms = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  const wall = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const back = new Date(wall);
  // 2026-02-30 or 25:00 roll over into another date: not a time anyone wrote.
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return notATime;
  let instant: number;
  const zone = m[8];
  if (zone === undefined) {
    instant = zonedInstant(wall, timeZone);
  } else if (zone.toUpperCase() === 'Z') {
    instant = wall;
  } else {
    const digits = zone.replace(':', '');
    const hours = Number(digits.slice(1, 3));
    const minutes = Number(digits.slice(3, 5) || 0);
    if (minutes > 59 || hours * 60 + minutes > MAX_OFFSET_MINUTES) return { problem: 'the offset is not one a clock has (from -14:00 to +14:00)' };
    instant = wall - (digits[0] === '-' ? -1 : 1) * (hours * 60 + minutes) * 60_000;
  }
  if (instant < EARLIEST || instant >= AFTER_LATEST) return { problem: 'outside the years 2000 to 2100' };
  return { instant: new Date(instant).toISOString() };
}

/**
 * The declared days (`YYYY-MM-DD`, both counted, validated already) as the instants they run from
 * and to on the service zone's clock.
 */
export function declaredPeriod(from: string, to: string, timeZone: string): DeclaredPeriod {
  const midnight = (day: string) => Date.parse(`${day}T00:00:00Z`);
  return {
    from: new Date(zonedInstant(midnight(from), timeZone)).toISOString(),
    to: new Date(zonedInstant(midnight(to) + DAY_MS, timeZone) - 1).toISOString(),
    days: `${from} to ${to}`,
  };
}

/**
 * Finds the first byte of a file that is not UTF-8, as it streams in: the line it is on, or
 * undefined. Whole chunks are checked natively; a chunk that does not check (a character cut
 * between two chunks, or a bad byte) is walked byte by byte.
 */
function utf8Checker() {
  let line = 1;
  let pending = 0;
  let low = 0x80;
  let high = 0xbf;
  let badLine: number | undefined;
  const countLines = (chunk: Buffer) => {
    for (let at = chunk.indexOf(0x0a); at >= 0; at = chunk.indexOf(0x0a, at + 1)) line += 1;
  };
  return {
    push(chunk: Buffer) {
      if (badLine !== undefined) return;
      if (pending === 0 && isUtf8(chunk)) return countLines(chunk);
      for (const byte of chunk) {
        if (pending > 0) {
          if (byte < low || byte > high) return void (badLine = line);
          pending -= 1;
          low = 0x80;
          high = 0xbf;
        } else if (byte < 0x80) {
          if (byte === 0x0a) line += 1;
        } else if (byte >= 0xc2 && byte <= 0xdf) {
          pending = 1;
        } else if (byte >= 0xe0 && byte <= 0xef) {
          // No overlong forms and no surrogates.
          [pending, low, high] = [2, byte === 0xe0 ? 0xa0 : 0x80, byte === 0xed ? 0x9f : 0xbf];
        } else if (byte >= 0xf0 && byte <= 0xf4) {
          [pending, low, high] = [3, byte === 0xf0 ? 0x90 : 0x80, byte === 0xf4 ? 0x8f : 0xbf];
        } else {
          return void (badLine = line);
        }
      }
    },
    /** The line of the first byte that is not UTF-8 (a character cut off by the end counts), or undefined. */
    end: () => badLine ?? (pending > 0 ? line : undefined),
  };
}

type Cells = Record<StatementColumn, string | undefined> & { type?: string };
/** Where each column is in the file: the five a statement needs, and its optional type. */
type Columns = Record<StatementColumn, number> & { type?: number };

/** The problem of a cell whatever its column, or undefined: what no value of a statement holds. */
function unreadable(raw: string): string | undefined {
  if (raw.includes('\u0000')) return 'contains a NUL character';
  if (CONTROL.test(raw)) return 'contains a control character';
  if (raw.includes(REPLACEMENT)) return 'not UTF-8 text (save the file as UTF-8)';
  if (hasDirectionControl(raw)) return 'contains a text-direction control character';
  if (raw.trim() === '') return 'empty';
  return undefined;
}

/** One line's cells checked, or the first problem of each bad cell. */
function checkLine(line: number, cells: Cells, options: ReadStatementOptions): { ok: StatementLine } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const problem = (column: StatementColumn | typeof STATEMENT_TYPE_COLUMN, message: string) => errors.push({ field: column, message: `Line ${line}, column ${column}: ${message}` });
  const values = {} as Record<StatementColumn, string>;
  for (const column of STATEMENT_COLUMNS) {
    const raw = cells[column];
    const bad = raw === undefined ? 'missing (the line has fewer columns than the header)' : unreadable(raw);
    if (bad) problem(column, bad);
    else values[column] = raw!.trim();
  }
  const { reference, amount, currency, status, completedAt } = values;
  if (reference !== undefined && reference.length > REFERENCE_MAX) problem('reference', `longer than ${REFERENCE_MAX} characters`);
  if (amount !== undefined && !AMOUNT.test(amount)) problem('amount', 'not a number (digits, at most two decimals, no sign or separators)');
  if (currency !== undefined && !CURRENCY.test(currency)) problem('currency', 'not a currency code (three letters as ISO 4217 writes them, e.g. UGX)');
  const upperStatus = status?.toUpperCase();
  if (status !== undefined && !(STATEMENT_STATUSES as readonly string[]).includes(upperStatus!)) problem('status', 'must be SUCCESSFUL or FAILED');
  const time = completedAt === undefined ? undefined : readCompletedAt(completedAt, options.timeZone);
  if (time && 'problem' in time) problem('completedAt', time.problem);
  else if (time && options.period && (time.instant < options.period.from || time.instant > options.period.to)) problem('completedAt', `outside the declared period (${options.period.days})`);
  // A type left empty, or cut off with the end of a short line, is a payment's: files without the column hold only payments.
  const rawType = cells.type ?? '';
  const badType = rawType.trim() === '' ? undefined : unreadable(rawType);
  const type = badType ? undefined : statementLineType(rawType);
  if (badType) problem(STATEMENT_TYPE_COLUMN, badType);
  else if (!type) problem(STATEMENT_TYPE_COLUMN, 'must be PAYMENT or REFUND (empty for a payment)');
  if (errors.length > 0 || !type || !time || !('instant' in time)) return { errors };
  return { ok: { line, type, reference, amount, currency: currency.toUpperCase(), status: upperStatus as StatementStatus, completedAt: time.instant } };
}

/** Names a line's type column goes by (case, spaces, '-' and '_' aside). */
const TYPE_COLUMN_NAMES = ['type', 'transactiontype', 'txntype', 'linetype'];

/** The header's column of each name the statement needs (case and spaces aside), and of the optional type; extra columns are ignored. */
function readHeader(record: string[]): { columns: Columns } | { errors: FieldError[] } {
  const names = record.map((name) => name.trim().toLowerCase());
  const columns = {} as Columns;
  const typeAt = names.findIndex((name) => TYPE_COLUMN_NAMES.includes(name.replace(/[\s_-]+/g, '')));
  if (typeAt >= 0) columns.type = typeAt;
  const errors: FieldError[] = [];
  for (const column of STATEMENT_COLUMNS) {
    const at = names.indexOf(column.toLowerCase());
    if (at < 0) errors.push({ field: column, message: `Line 1: the header has no column ${column} (expected ${STATEMENT_COLUMNS.join(',')})` });
    else columns[column] = at;
  }
  if (errors.length === 0) return { columns };
  // A spreadsheet saved with ';' between values: one word about that rather than a missing column each.
  if (names.some((name) => name.includes(';'))) return { errors: [{ field: 'file', message: 'Line 1: the file uses ; — use commas between values' }] };
  return { errors };
}

/** The lines' span when no period was declared: at most STATEMENT_MAX_SPAN_DAYS, or the error naming completedAt. */
function spanError(lines: StatementLine[]): FieldError | undefined {
  let [earliest, latest] = [lines[0], lines[0]];
  for (const line of lines) {
    if (line.completedAt < earliest.completedAt) earliest = line;
    if (line.completedAt > latest.completedAt) latest = line;
  }
  const days = (Date.parse(latest.completedAt) - Date.parse(earliest.completedAt)) / DAY_MS;
  if (days <= STATEMENT_MAX_SPAN_DAYS) return undefined;
  return {
    field: 'completedAt',
    message: `Column completedAt: the lines span ${formatCount(Math.ceil(days))} days (line ${earliest.line} to line ${latest.line}); a statement covers at most ${STATEMENT_MAX_SPAN_DAYS} days unless the upload declares its period (periodFrom and periodTo)`,
  };
}

/**
 * Reads a statement CSV as it streams in (DESIGN §7): UTF-8, an optional BOM, CRLF or LF, quoted
 * values as RFC 4180 has them, the header `reference,amount,currency,status,completedAt` (and an
 * optional `type`, PAYMENT or REFUND, a payment when empty or absent) in any
 * order with extra columns ignored. Every line is checked before anything is written; a bad file is
 * a 400 naming each bad line and column (at most ten), a file over `maxBytes` a 413. The body is
 * read to its end either way, so the answer reaches a client still sending.
 */
export function readStatement(source: Readable, options: ReadStatementOptions): Promise<ReadStatement> {
  const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
  return new Promise((resolve, reject) => {
    const hash = crypto.createHash('sha256');
    const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true, skip_records_with_empty_values: true, max_record_size: MAX_RECORD_BYTES, info: true });
    const utf8 = utf8Checker();
    const lines: StatementLine[] = [];
    const errors: FieldError[] = [];
    const seen = new Map<string, number>();
    let columns: Columns | undefined;
    let bytes = 0;
    let read = 0;
    let lastRecordLine = 0;
    let sourceEnded = false;
    /** Set once the file is known bad (or too large): the rest is read and dropped. */
    let refused: HttpError | undefined;
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      outcome();
    };

    const take = ({ record, info }: { record: string[]; info: Info }) => {
      if (refused) return;
      const line = info.lines;
      lastRecordLine = line;
      if (!columns) {
        const header = readHeader(record);
        if ('errors' in header) refused = badFile(header.errors);
        else columns = header.columns;
        return;
      }
      read += 1;
      if (read > maxLines) {
        refused = fileError(`Line ${line}: a statement holds at most ${maxLines.toLocaleString('en-US')} lines`);
        return;
      }
      const cells = Object.fromEntries(STATEMENT_COLUMNS.map((column) => [column, record[columns![column]]])) as Cells;
      if (columns.type !== undefined) cells.type = record[columns.type];
      const checked = checkLine(line, cells, options);
      if ('errors' in checked) errors.push(...checked.errors);
      else {
        // A payment and a refund may share a reference (a provider that refunds under the payment's); two of one type may not.
        const key = `${checked.ok.type} ${checked.ok.reference}`;
        const earlier = seen.get(key);
        if (earlier !== undefined) errors.push({ field: 'reference', message: `Line ${line}, column reference: the same reference as line ${earlier}` });
        else {
          seen.set(key, line);
          lines.push(checked.ok);
        }
      }
      if (errors.length >= MAX_ERRORS) refused = badFile(errors);
    };

    parser.on('data', take);
    parser.on('error', (error: CsvError) => {
      // The lines' errors found before it are named too: the file is fixed in one go.
      refused ??= badFile([...errors, { field: 'file', message: csvErrorMessage(error, lastRecordLine) }]);
      // Found while the last bytes were read (a quote left open): nothing else will end this.
      if (sourceEnded) finish(() => reject(refused));
    });
    parser.on('end', () =>
      finish(() => {
        if (refused) return reject(refused);
        const notUtf8 = utf8.end();
        // Bytes that are not UTF-8 outside the columns read (a header, an ignored column) still make the file unreadable.
        if (notUtf8 !== undefined && !errors.some((e) => e.message.includes('not UTF-8'))) errors.push({ field: 'file', message: `Line ${notUtf8}: not UTF-8 text (save the file as UTF-8)` });
        if (errors.length > 0) return reject(badFile(errors.slice(0, MAX_ERRORS)));
        if (bytes === 0) return reject(fileError('The file is empty'));
        if (!columns) return reject(fileError('Line 1: the header has no columns'));
        if (lines.length === 0) return reject(fileError('The statement has no lines after its header'));
        const span = options.period ? undefined : spanError(lines);
        if (span) return reject(badFile([span]));
        let from = lines[0].completedAt;
        let to = from;
        for (const { completedAt } of lines) {
          if (completedAt < from) from = completedAt;
          if (completedAt > to) to = completedAt;
        }
        const period = options.period ? { periodFrom: options.period.from, periodTo: options.period.to, periodDeclared: true } : { periodFrom: from, periodTo: to, periodDeclared: false };
        resolve({ hash: hash.digest('hex'), lines, ...period });
      }),
    );

    source.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > options.maxBytes) {
        // Refused at once; what is still coming is dropped unread.
        source.removeAllListeners('data');
        source.resume();
        parser.destroy();
        return finish(() => reject(statementTooLarge()));
      }
      hash.update(chunk);
      utf8.push(chunk);
      // A refused file is still read to its end, but no longer parsed.
      if (!refused && !parser.destroyed) parser.write(chunk);
    });
    source.on('end', () => {
      sourceEnded = true;
      if (settled) return;
      if (refused) {
        parser.destroy();
        return finish(() => reject(refused));
      }
      parser.end();
    });
    source.on('error', (error) => finish(() => reject(error)));
  });
}
