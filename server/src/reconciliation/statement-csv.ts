import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import { parse, type CsvError, type Info } from 'csv-parse';
import type { FieldError } from '../../../src/domain/entities';
import { STATEMENT_COLUMNS, STATEMENT_MAX_MB, STATEMENT_STATUSES, type StatementColumn, type StatementStatus } from '../../../src/domain/reconciliation';
import { HttpError } from '../http/http-error';

/** One line of a statement, checked: what the import writes. */
export interface StatementLine {
  line: number;
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
  /** The earliest and latest completedAt. */
  periodFrom: string;
  periodTo: string;
}

export interface ReadStatementOptions {
  maxBytes: number;
  /** The zone of a completedAt written without one (TZ_NAME). */
  timeZone: string;
  /** At most this many lines (a month of a busy service is well under it). */
  maxLines?: number;
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

/** csv-parse's errors in our words, with the line; its own messages quote the file. */
function csvErrorMessage(error: CsvError): string {
  const line = typeof error.lines === 'number' && error.lines > 0 ? `Line ${error.lines}: ` : '';
  switch (error.code) {
    case 'CSV_MAX_RECORD_SIZE':
      return `${line}the line is too long for a statement (is this a CSV file?)`;
    case 'CSV_QUOTE_NOT_CLOSED':
      return `${line}a quoted value is not closed`;
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
const CURRENCY = /^[A-Za-z]{3}$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** How far `zone`'s clock is ahead of UTC at the instant `utcMs`, in ms. */
function zoneOffsetMs(utcMs: number, zone: string): number {
  let format = offsetFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    offsetFormats.set(zone, format);
  }
  const p = Object.fromEntries(format.formatToParts(new Date(utcMs)).map((part) => [part.type, Number(part.value)]));
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/** A statement's completedAt as an ISO instant, or undefined: ISO 8601, with a zone or in the service's. */
export function readCompletedAt(value: string, timeZone: string): string | undefined {
  const m = DATE_TIME.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second = 0] = m.slice(1, 7).map((part) => (part === undefined ? undefined : Number(part))) as number[];
  const ms = m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0;
  const wall = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const back = new Date(wall);
  // 2026-02-30 or 25:00 roll over into another date: not a time anyone wrote.
  if (back.getUTCFullYear() !== year || back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) return undefined;
  if (year < 2000 || year > 2100) return undefined;
  let instant: number;
  const zone = m[8];
  if (zone === undefined) {
    // The wall time in the service's zone: the offset at the guess, checked once more across a change of offset.
    const first = wall - zoneOffsetMs(wall, timeZone);
    instant = wall - zoneOffsetMs(first, timeZone);
  } else if (zone.toUpperCase() === 'Z') {
    instant = wall;
  } else {
    const digits = zone.replace(':', '');
    const minutes = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5) || 0);
    instant = wall - (digits[0] === '-' ? -1 : 1) * minutes * 60_000;
  }
  return new Date(instant).toISOString();
}

type Cells = Record<StatementColumn, string | undefined>;

/** One line's cells checked, or the first problem of each bad cell. */
function checkLine(line: number, cells: Cells, timeZone: string): { ok: StatementLine } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const problem = (column: StatementColumn, message: string) => errors.push({ field: column, message: `Line ${line}, column ${column}: ${message}` });
  const values = {} as Record<StatementColumn, string>;
  for (const column of STATEMENT_COLUMNS) {
    const raw = cells[column];
    if (raw === undefined) problem(column, 'missing (the line has fewer columns than the header)');
    else if (raw.includes('\u0000')) problem(column, 'contains a NUL character');
    else if (CONTROL.test(raw)) problem(column, 'contains a control character');
    else if (raw.trim() === '') problem(column, 'empty');
    else values[column] = raw.trim();
  }
  const { reference, amount, currency, status, completedAt } = values;
  if (reference !== undefined && reference.length > REFERENCE_MAX) problem('reference', `longer than ${REFERENCE_MAX} characters`);
  if (amount !== undefined && !AMOUNT.test(amount)) problem('amount', 'not a number (digits, at most two decimals, no sign or separators)');
  if (currency !== undefined && !CURRENCY.test(currency)) problem('currency', 'not a three-letter currency code');
  const upperStatus = status?.toUpperCase();
  if (status !== undefined && !(STATEMENT_STATUSES as readonly string[]).includes(upperStatus!)) problem('status', 'must be SUCCESSFUL or FAILED');
  const instant = completedAt === undefined ? undefined : readCompletedAt(completedAt, timeZone);
  if (completedAt !== undefined && instant === undefined) problem('completedAt', 'not a date and time (ISO 8601, e.g. 2026-05-01T10:15:00Z)');
  if (errors.length > 0) return { errors };
  return { ok: { line, reference, amount, currency: currency.toUpperCase(), status: upperStatus as StatementStatus, completedAt: instant! } };
}

/** The header's column of each name the statement needs (case and spaces aside); extra columns are ignored. */
function readHeader(record: string[]): { columns: Record<StatementColumn, number> } | { errors: FieldError[] } {
  const names = record.map((name) => name.trim().toLowerCase());
  const columns = {} as Record<StatementColumn, number>;
  const errors: FieldError[] = [];
  for (const column of STATEMENT_COLUMNS) {
    const at = names.indexOf(column.toLowerCase());
    if (at < 0) errors.push({ field: column, message: `Line 1: the header has no column ${column} (expected ${STATEMENT_COLUMNS.join(',')})` });
    else columns[column] = at;
  }
  return errors.length > 0 ? { errors } : { columns };
}

/**
 * Reads a statement CSV as it streams in (DESIGN §7): UTF-8, an optional BOM, CRLF or LF, quoted
 * values as RFC 4180 has them, the header `reference,amount,currency,status,completedAt` in any
 * order with extra columns ignored. Every line is checked before anything is written; a bad file is
 * a 400 naming each bad line and column (at most ten), a file over `maxBytes` a 413. The body is
 * read to its end either way, so the answer reaches a client still sending.
 */
export function readStatement(source: Readable, options: ReadStatementOptions): Promise<ReadStatement> {
  const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
  return new Promise((resolve, reject) => {
    const hash = crypto.createHash('sha256');
    const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true, skip_records_with_empty_values: true, max_record_size: MAX_RECORD_BYTES, info: true });
    const lines: StatementLine[] = [];
    const errors: FieldError[] = [];
    const seen = new Map<string, number>();
    let columns: Record<StatementColumn, number> | undefined;
    let bytes = 0;
    let read = 0;
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
      const checked = checkLine(line, cells, options.timeZone);
      if ('errors' in checked) errors.push(...checked.errors);
      else {
        const earlier = seen.get(checked.ok.reference);
        if (earlier !== undefined) errors.push({ field: 'reference', message: `Line ${line}, column reference: the same reference as line ${earlier}` });
        else {
          seen.set(checked.ok.reference, line);
          lines.push(checked.ok);
        }
      }
      if (errors.length >= MAX_ERRORS) refused = badFile(errors);
    };

    parser.on('data', take);
    parser.on('error', (error: CsvError) => {
      refused ??= fileError(csvErrorMessage(error));
      // Found while the last bytes were read (a quote left open): nothing else will end this.
      if (sourceEnded) finish(() => reject(refused));
    });
    parser.on('end', () =>
      finish(() => {
        if (refused) return reject(refused);
        if (errors.length > 0) return reject(badFile(errors));
        if (bytes === 0) return reject(fileError('The file is empty'));
        if (!columns) return reject(fileError('Line 1: the header has no columns'));
        if (lines.length === 0) return reject(fileError('The statement has no lines after its header'));
        let from = lines[0].completedAt;
        let to = from;
        for (const { completedAt } of lines) {
          if (completedAt < from) from = completedAt;
          if (completedAt > to) to = completedAt;
        }
        resolve({ hash: hash.digest('hex'), lines, periodFrom: from, periodTo: to });
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
