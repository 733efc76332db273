import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
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
}

export interface DatabaseOptions {
  /** A PostgreSQL server; when unset the embedded PGlite is used. */
  databaseUrl?: string;
  /** Where PGlite keeps its files; 'memory' keeps nothing (tests). */
  dataDir?: string;
}

const migrationsFolder = path.join(__dirname, 'migrations');

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
  const settings = { postgresqlconf: ['shared_buffers = 32MB'] };
  const client = dataDir === 'memory' ? new PGlite(settings) : new PGlite(path.resolve(dataDir, 'pglite'), settings);
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  return { db: db as unknown as Db, kind: 'pglite', close: () => client.close() };
}
