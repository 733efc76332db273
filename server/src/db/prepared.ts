import { PGlite, parse, protocol, type Results } from '@electric-sql/pglite';
import { fillPlaceholders, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db, DbOrTx } from './client';

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

/**
 * As `preparedRows`, for a statement run inside whichever transaction (or on the database) each
 * call names: the SQL is rendered once, and PostgreSQL parses and plans it once per connection.
 */
export function preparedOn<Row>(name: string, query: SQL): (db: DbOrTx, values: PlaceholderValues) => Promise<Row[]> {
  const rendered = dialect.sqlToQuery(query);
  return async (db, values) => ((await (db as Db)._.session.prepareQuery(rendered, undefined, name, false).execute(values)) as { rows: Row[] }).rows;
}

const { serialize } = protocol;

function concat(messages: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(messages.reduce((sum, message) => sum + message.length, 0));
  let at = 0;
  for (const message of messages) {
    all.set(message, at);
    at += message.length;
  }
  return all;
}

/** The statements parsed on each PGlite, by name: their text and their parameters' types. */
const parsedOn = new WeakMap<PGlite, Map<string, { text: string; paramTypes: number[] }>>();

/**
 * As `preparedRows`, for statements that only read. On PostgreSQL it is `preparedRows`. On PGlite,
 * whose `query` parses and plans every call as an unnamed statement (and drizzle's driver ignores
 * the name), the statement is parsed once under `name` through PGlite's protocol API, and each call
 * binds and executes it in one message to the database, so PostgreSQL plans it as it does prepared
 * statements (a cached generic plan once that is no dearer than the custom ones). A read writes
 * nothing, so it does not sync PGlite's files. It waits for any transaction, as PGlite's `query`.
 */
export function preparedReadRows<Row>(db: Db, name: string, query: SQL): (values: PlaceholderValues) => Promise<Row[]> {
  const client = (db as unknown as { $client?: unknown }).$client;
  if (!(client instanceof PGlite)) return preparedRows<Row>(db, name, query);
  const pglite = client;
  const { sql: text, params } = dialect.sqlToQuery(query);
  const exclusive = <T>(run: () => Promise<T>) => pglite._runExclusiveTransaction(() => pglite._runExclusiveQuery(run));

  /** The parameters' types, parsing the statement the first time on this PGlite. */
  async function parsed(): Promise<number[]> {
    let statements = parsedOn.get(pglite);
    if (!statements) parsedOn.set(pglite, (statements = new Map()));
    const found = statements.get(name);
    if (found) {
      if (found.text !== text) throw new Error(`two statements named ${name}`);
      return found.paramTypes;
    }
    const { messages } = await pglite.execProtocol(concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]), { syncToFs: false });
    const paramTypes = parse.parseDescribeStatementResults(messages);
    statements.set(name, { text, paramTypes });
    return paramTypes;
  }

  return async (values) => {
    await pglite._checkReady();
    const results = await exclusive(async () => {
      const types = await parsed();
      const bound = fillPlaceholders(params, values).map((value, i) => {
        if (value === null || value === undefined) return null;
        const serializer = pglite.serializers[types[i]] as ((value: unknown) => string) | undefined;
        return serializer ? serializer(value) : String(value);
      });
      const { messages } = await pglite.execProtocol(
        concat([serialize.bind({ statement: name, values: bound }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync()]),
        { syncToFs: false },
      );
      return parse.parseResults(messages, pglite.parsers) as Results<Row>[];
    });
    return results[0].rows;
  };
}
