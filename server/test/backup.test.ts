import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { Client } from 'pg';
import { ensureFirstAdmin } from '../src/auth/first-admin';
import { BackupError, backupDatabase, restoreDatabase, type BackupTarget } from '../src/db/backup';
import { openDatabase, type Database } from '../src/db/client';
import { seedDemoData } from '../src/db/seed';

jest.setTimeout(120_000);

const run = promisify(execFile);
const root = path.join(__dirname, '..', '..');

/** What a restore must bring back: the rows of the tables a day's work writes, and the audit chain's head. */
async function countsOf(database: Database) {
  const result = await database.db.execute(sql`select
    (select count(*)::int from users) as users, (select count(*)::int from categories) as categories,
    (select count(*)::int from transactions) as transactions, (select count(*)::int from transaction_events) as events,
    (select count(*)::int from transaction_daily_stats) as "dailyStats", (select count(*)::int from campaign_voters) as voters,
    (select count(*)::int from audit_log) as audit, (select count(*)::int from drizzle.__drizzle_migrations) as migrations`);
  return (result as unknown as { rows: Record<string, number>[] }).rows[0];
}

async function seedInto(database: Database) {
  await ensureFirstAdmin(database.db, 'admin', 'backup-password-1');
  await seedDemoData(database.db, { timeZone: 'Africa/Kampala', transactions: 300, votesPerCampaign: 20 });
  return countsOf(database);
}

/** Restores the file into the target and reads the counts back. */
async function countsAfterRestore(target: BackupTarget, file: string) {
  await restoreDatabase(target, file);
  const restored = await openDatabase(target);
  try {
    return await countsOf(restored);
  } finally {
    await restored.close();
  }
}

const temp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'dialdesk-backup-'));

describe('backup and restore of the embedded database', () => {
  const folders: string[] = [];
  afterAll(() => folders.forEach((folder) => fs.rmSync(folder, { recursive: true, force: true })));

  it('npm run backup writes a file that restores into a fresh DATA_DIR with the same counts', async () => {
    const [from, to, files] = [temp(), temp(), temp()];
    folders.push(from, to, files);
    const source = await openDatabase({ dataDir: from });
    const before = await seedInto(source);
    await source.close();
    expect(before.transactions).toBeGreaterThan(0);

    // The script as an operator runs it, with the server stopped.
    const file = path.join(files, 'dialdesk.backup');
    const env = { ...process.env, DATA_DIR: from, DATABASE_URL: '' };
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'server/scripts/backup.ts', 'backup', '--out', file], { cwd: root, env });
    expect(stdout).toMatch(/Backed up the embedded database/);

    expect(await countsAfterRestore({ dataDir: to }, file)).toEqual(before);

    // Nothing is restored over a database, or from a file of the other kind, unless asked.
    await expect(restoreDatabase({ dataDir: to }, file)).rejects.toThrow(/holds a database already/);
    const notABackup = path.join(files, 'notes.txt');
    fs.writeFileSync(notABackup, 'hello');
    await expect(restoreDatabase({ dataDir: temp() }, notABackup)).rejects.toThrow(BackupError);
    await expect(backupDatabase({ dataDir: path.join(files, 'nothing-here') }, path.join(files, 'x'))).rejects.toThrow(/No embedded database/);
  });
});

const serverUrl = process.env.TEST_DATABASE_URL;
(serverUrl ? describe : describe.skip)('backup and restore on PostgreSQL (pg_dump, pg_restore)', () => {
  const names: string[] = [];
  const admin = async <T>(work: (client: Client) => Promise<T>) => {
    const client = new Client({ connectionString: serverUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  const freshDatabase = async () => {
    const name = `dialdesk_backup_${crypto.randomUUID().replace(/-/g, '').slice(0, 12)}`;
    names.push(name);
    await admin((client) => client.query(`create database ${name}`));
    const url = new URL(serverUrl!);
    url.pathname = `/${name}`;
    return url.toString();
  };
  afterAll(() => admin(async (client) => void (await Promise.all(names.map((name) => client.query(`drop database if exists ${name} with (force)`))))));

  it('restores a backup into a fresh database with the same counts, and refuses a database that holds data', async () => {
    const sourceUrl = await freshDatabase();
    const source = await openDatabase({ databaseUrl: sourceUrl });
    const before = await seedInto(source);
    await source.close();

    const file = path.join(temp(), 'dialdesk.pgdump');
    await backupDatabase({ databaseUrl: sourceUrl }, file);
    const targetUrl = await freshDatabase();
    expect(await countsAfterRestore({ databaseUrl: targetUrl }, file)).toEqual(before);
    await expect(restoreDatabase({ databaseUrl: targetUrl }, file)).rejects.toThrow(/not empty/);
    await restoreDatabase({ databaseUrl: targetUrl }, file, { replace: true });
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });
});
