/**
 * `npm run lint:openapi`: builds the app in process on an in-memory database, writes
 * its OpenAPI document (what /docs serves) to a temporary file and lints it with Redocly's
 * recommended rules (redocly.yaml). Fails on any error; warnings are printed.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app';
import { openDatabase } from '../src/db/client';

const root = path.resolve(__dirname, '../..');

async function writeDocument(file: string) {
  const database = await openDatabase({ dataDir: 'memory' });
  try {
    const app = await buildApp({ db: database.db, jwtSecret: 'lint-openapi' });
    await app.ready();
    fs.writeFileSync(file, JSON.stringify(app.swagger(), null, 2));
    await app.close();
  } finally {
    await database.close();
  }
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dialdesk-openapi-'));
  try {
    const file = path.join(dir, 'openapi.json');
    await writeDocument(file);
    const cli = path.join(root, 'node_modules/@redocly/cli/bin/cli.js');
    const lint = spawnSync(process.execPath, [cli, 'lint', file, '--config', path.join(root, 'redocly.yaml'), '--format', 'stylish'], {
      stdio: 'inherit',
      // No telemetry and no update check: CI lints offline and says nothing about itself.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    return lint.status ?? 1;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().then(
  (status) => process.exit(status),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
