import crypto from 'node:crypto';

/**
 * The hash chain of the audit trail. Each entry's `hash` is
 *
 *   hex(SHA-256(UTF-8(previous entry's hash + canonicalJson(entry's content))))
 *
 * where the first entry's previous hash is GENESIS_HASH and the content is `AuditContent` below,
 * every field present (null when empty). Changing, removing or reordering an entry outside the API
 * breaks the chain from there on, which GET /v1/audit/verify finds.
 */
export const GENESIS_HASH = '0'.repeat(64);

/** What an entry's hash covers: all of it but its place (`seq`) and its hash. */
export interface AuditContent {
  id: string;
  /** ISO 8601 with milliseconds, UTC (`2026-05-01T10:15:00.000Z`). */
  at: string;
  actor: { id: string | null; userName: string | null; role: string | null };
  ip: string | null;
  action: string;
  entity: { type: string; id: string | null; label: string };
  serviceCode: string | null;
  changes: { field: string; before: unknown; after: unknown }[];
  reason: string | null;
}

/**
 * Canonical JSON: JSON.stringify's text for strings, numbers, booleans and null, with no spaces;
 * object keys sorted by UTF-16 code units (Array.prototype.sort) and keys whose value is undefined
 * left out; arrays in their order; non-finite numbers as null. The same value always gives the
 * same text, whatever order its keys were written or stored in (jsonb reorders them).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'null';
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  throw new TypeError(`No canonical JSON for a ${typeof value}`);
}

/** The hash of an entry chained after `previousHash`. */
export function chainHash(previousHash: string, content: AuditContent): string {
  return crypto.createHash('sha256').update(previousHash + canonicalJson(content), 'utf8').digest('hex');
}
