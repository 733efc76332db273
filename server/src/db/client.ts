import path from 'node:path';
import { PGlite, types, type ParserOptions, type PGliteOptions, type QueryOptions, type Results } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { Pool } from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
/** One type for both drivers: the queries are the same PostgreSQL either way. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle, accepted wherever a repository takes an optional `tx`. */
export type DbOrTx = Db | Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** PGlite only: the whole database as a tarball, for another to start from (DatabaseOptions.from). */
  dump?(): Promise<Blob>;
}

export interface DatabaseOptions {
  /** A PostgreSQL server; when unset the embedded PGlite is used. */
  databaseUrl?: string;
  /** Where PGlite keeps its files; 'memory' keeps nothing (tests). */
  dataDir?: string;
  /**
   * A PGlite dump (dumpDataDir) to start from instead of an empty database: the tests open one
   * migrated copy, as a fresh PGlite spends ~3 s of CPU setting its cluster up.
   */
  from?: Blob;
}

const migrationsFolder = path.join(__dirname, 'migrations');

const asText = (value: string) => value;
/**
 * The types drizzle's PGlite driver leaves as PostgreSQL's text (drizzle-orm/pglite/session.js,
 * `rawQueryConfig` and `queryConfig`): dates, times and intervals, and their arrays, whose columns
 * map them themselves. server/test/pglite-parsers.test.ts holds this list to drizzle's.
 */
export const DRIZZLE_TEXT_PARSERS: ParserOptions = {
  [types.TIMESTAMP]: asText,
  [types.TIMESTAMPTZ]: asText,
  [types.INTERVAL]: asText,
  [types.DATE]: asText,
  1231: asText, // numeric[]
  1115: asText, // timestamp[]
  1185: asText, // timestamptz[]
  1187: asText, // interval[]
  1182: asText, // date[]
};

/**
 * PGlite with drizzle's parsers as its own, so that drizzle need not hand them over per query:
 * PGlite copies its whole table of 318 parsers into a new object for every query that brings
 * parsers of its own (parseResults in @electric-sql/pglite 0.5), which drizzle does with each one,
 * and that copy cost ~0.15–0.4 ms of CPU per query, 10–20% of the phone search on 100,000 calls
 * (bench/pglite-reads.ts). The per-query parsers are the instance's, so dropping them changes no
 * value. Queries inside a transaction go through PGlite's transaction object and still copy.
 */
class DrizzlePGlite extends PGlite {
  /** Opens PGlite and, once it is ready (it builds its array types' parsers then), takes drizzle's. */
  static async open(dataDir: string | undefined, options: PGliteOptions): Promise<DrizzlePGlite> {
    const client = dataDir ? new DrizzlePGlite(dataDir, options) : new DrizzlePGlite(options);
    await client.waitReady;
    Object.assign(client.parsers, DRIZZLE_TEXT_PARSERS);
    return client;
  }

  override query<T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return super.query<T>(query, params, options?.parsers ? { ...options, parsers: undefined } : options);
  }
}

/** Opens the database and brings its schema up to date. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    // JIT compiling pays off for analytics, not for short OLTP queries, where it adds tens of ms.
    const pool = new Pool({ connectionString: options.databaseUrl, max: 10, options: '-c jit=off' });
    // An idle connection the server ends (restart, failover, a database dropped while the pool
    // closes) is reported on the pool; without a listener that event would crash the process.
    // The pool opens a new connection on the next query.
    let closing = false;
    pool.on('error', (error) => {
      if (!closing) console.error(`PostgreSQL closed an idle connection: ${error.message}`);
    });
    const db = drizzlePg(pool, { schema });
    await migratePg(db, { migrationsFolder });
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      close: () => {
        closing = true;
        return pool.end();
      },
    };
  }
  const dataDir = options.dataDir ?? './data';
  // PGlite keeps its buffer pool inside the server's own memory, next to the OS's file cache; its
  // default 128 MB pool put the embedded server over 500 MB resident. 32 MB holds a busy day's pages.
  const settings = { postgresqlconf: ['shared_buffers = 32MB'], loadDataDir: options.from };
  const client = await DrizzlePGlite.open(dataDir === 'memory' ? undefined : path.resolve(dataDir, 'pglite'), settings);
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  return { db: db as unknown as Db, kind: 'pglite', close: () => client.close(), dump: () => client.dumpDataDir('none') };
}
