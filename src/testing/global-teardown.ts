import fs from 'node:fs';
import path from 'node:path';

export default async function globalTeardown() {
  const dump = process.env.DIALDESK_TEST_DATABASE_DUMP;
  if (dump) fs.rmSync(path.dirname(dump), { recursive: true, force: true });
  const server = globalThis.__DIALDESK_TEST_SERVER__;
  if (!server) return;
  await server.app.close();
  await server.database.close();
}
