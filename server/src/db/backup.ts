import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { Client } from 'pg';
import { openDatabase } from './client';

const run = promisify(execFile);

/** Where a backup comes from or goes to: the server's PostgreSQL (DATABASE_URL), or the embedded database in DATA_DIR. */
export type BackupTarget = { databaseUrl: string } | { dataDir: string };

/** pg_dump's custom format starts with these bytes; an embedded backup is a gzipped tarball. */
const PG_DUMP_MAGIC = Buffer.from('PGDMP');
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

export class BackupError extends Error {}

const pgliteFolder = (dataDir: string) => path.resolve(dataDir, 'pglite');

/**
 * Writes a backup of the whole database to `file`: pg_dump's custom format for PostgreSQL (restored
 * with pg_restore, table by table, and readable by `pg_restore -l`), PGlite's own data-folder
 * tarball, gzipped, for the embedded one. The embedded database must not be open elsewhere (stop
 * the server first): one process holds a PGlite folder.
 */
export async function backupDatabase(target: BackupTarget, file: string): Promise<{ bytes: number }> {
  if ('databaseUrl' in target) {
    await run('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--file=${file}`, target.databaseUrl], { maxBuffer: 16 * 1024 * 1024 });
  } else {
    if (!fs.existsSync(pgliteFolder(target.dataDir))) throw new BackupError(`No embedded database in ${target.dataDir}`);
    const database = await openDatabase({ dataDir: target.dataDir });
    try {
      const tarball = Buffer.from(await (await database.dump!()).arrayBuffer());
      fs.writeFileSync(file, zlib.gzipSync(tarball));
    } finally {
      await database.close();
    }
  }
  return { bytes: fs.statSync(file).size };
}

/** True when the PostgreSQL database holds tables of ours already (a restore would mix two histories). */
async function postgresHasData(databaseUrl: string) {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(`select count(*)::int as n from pg_tables where schemaname in ('public', 'drizzle')`);
    return rows[0].n > 0;
  } finally {
    await client.end();
  }
}

/**
 * Restores a backup made by `backupDatabase` into an empty database (or, with `replace`, over an
 * existing one: PostgreSQL's objects are dropped first, the embedded folder is moved aside to
 * `pglite.before-restore-<time>`). The kind of file must match the target; migrations newer than
 * the backup run when the server next starts.
 */
export async function restoreDatabase(target: BackupTarget, file: string, { replace = false } = {}): Promise<void> {
  const bytes = fs.readFileSync(file);
  if ('databaseUrl' in target) {
    if (!bytes.subarray(0, PG_DUMP_MAGIC.length).equals(PG_DUMP_MAGIC)) throw new BackupError(`${path.basename(file)} is not a PostgreSQL backup (pg_dump's custom format)`);
    if (!replace && (await postgresHasData(target.databaseUrl))) throw new BackupError('The database is not empty: restore into a fresh one, or pass --replace');
    await run('pg_restore', ['--no-owner', '--no-privileges', '--exit-on-error', ...(replace ? ['--clean', '--if-exists'] : []), `--dbname=${target.databaseUrl}`, file], { maxBuffer: 16 * 1024 * 1024 });
    return;
  }
  if (!bytes.subarray(0, GZIP_MAGIC.length).equals(GZIP_MAGIC)) throw new BackupError(`${path.basename(file)} is not an embedded-database backup`);
  const folder = pgliteFolder(target.dataDir);
  if (fs.existsSync(folder) && fs.readdirSync(folder).length > 0) {
    if (!replace) throw new BackupError(`${target.dataDir} holds a database already: restore into a fresh DATA_DIR, or pass --replace`);
    fs.renameSync(folder, `${folder}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  }
  const database = await openDatabase({ dataDir: target.dataDir, from: new Blob([zlib.gunzipSync(bytes)]) });
  await database.close();
}
