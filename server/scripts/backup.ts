/**
 * npm run backup -- --out FILE             the database DATABASE_URL names, or the embedded one in DATA_DIR
 * npm run restore -- --in FILE [--replace] into an empty database (or over the present one with --replace)
 *
 * Stop the server before backing up or restoring the embedded database: one process holds its folder.
 * README: Backups.
 */
import { backupDatabase, BackupError, restoreDatabase, type BackupTarget } from '../src/db/backup';

const [command, ...args] = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const target: BackupTarget = process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : { dataDir: process.env.DATA_DIR ?? './data' };
const where = 'databaseUrl' in target ? 'PostgreSQL (DATABASE_URL)' : `the embedded database in ${target.dataDir}`;

async function main() {
  if (command === 'backup') {
    const file = option('--out');
    if (!file) throw new BackupError('Name the backup file: npm run backup -- --out FILE');
    const { bytes } = await backupDatabase(target, file);
    console.log(`Backed up ${where} to ${file} (${(bytes / 1024 / 1024).toFixed(1)} MB)`);
  } else if (command === 'restore') {
    const file = option('--in');
    if (!file) throw new BackupError('Name the backup file: npm run restore -- --in FILE');
    await restoreDatabase(target, file, { replace: args.includes('--replace') });
    console.log(`Restored ${file} into ${where}`);
  } else {
    throw new BackupError('Usage: backup.ts backup --out FILE | restore --in FILE [--replace]');
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof BackupError ? error.message : error);
  process.exit(1);
});
