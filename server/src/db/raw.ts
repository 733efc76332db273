import type { Db } from './client';

/** SQL text with `$1…$n` placeholders; a name prepares it once per connection (PostgreSQL server). */
export interface RawQuery {
  name?: string;
  text: string;
  values: unknown[];
}

type PoolClient = { totalCount: number; query(query: RawQuery): Promise<{ rows: unknown[] }> };
type PgliteClient = { query(text: string, values: unknown[]): Promise<{ rows: unknown[] }> };

/**
 * Runs SQL on whichever driver is underneath and answers its rows as the driver parsed them,
 * without drizzle's per-field mapping. For the hot read paths, which select a handful of columns
 * (often one JSON text) and are called thousands of times a second.
 */
export async function rawRows<T>(db: Db, query: RawQuery): Promise<T[]> {
  const client = (db as unknown as { $client: PoolClient | PgliteClient }).$client;
  if ('totalCount' in client) return (await client.query(query)).rows as T[];
  return (await client.query(query.text, query.values)).rows as T[];
}
