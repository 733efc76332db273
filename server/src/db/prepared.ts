import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from './client';

const dialect = new PgDialect();

/** Values for a statement's `sql.placeholder`s, by name. */
export type PlaceholderValues = Record<string, unknown>;

/**
 * A statement built with drizzle's `sql` template, prepared under `name` (PostgreSQL parses and
 * plans it once per connection) by whichever driver `db` runs on. Answers the rows as the driver
 * parsed them, without drizzle's per-field mapping: the hot reads select a JSON text or a few
 * numbers, so there is nothing to map.
 */
export function preparedRows<Row>(db: Db, name: string, query: SQL): (values: PlaceholderValues) => Promise<Row[]> {
  const statement = db._.session.prepareQuery(dialect.sqlToQuery(query), undefined, name, false);
  return async (values) => ((await statement.execute(values)) as { rows: Row[] }).rows;
}
