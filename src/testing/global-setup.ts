import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../server/src/app';
import { ensureFirstAdmin } from '../../server/src/auth/first-admin';
import { openDatabase, type Database } from '../../server/src/db/client';
import { localSmsProvider } from '../../server/src/providers/sms';
import { seedCampaignTestVotes } from './campaign-vote-seed';
import { seedTestIncidents } from './incident-seed';
import { TEST_ADMIN } from './test-admin';
import { firstSmsFailsForUnreachable } from './unreachable-phones';

declare global {
  var __DIALDESK_TEST_SERVER__: { app: FastifyInstance; database: Database } | undefined;
}

/**
 * Starts the real API once for the web tests, on an in-memory PGlite and a free port of
 * 127.0.0.1; the SPA under test talks to it over HTTP. Tests make their own data over the API,
 * except the campaign votes (src/testing/campaign-votes.ts) and the incidents
 * (src/testing/test-incidents.ts), which only the database can write.
 */
export default async function globalSetup() {
  const database = await openDatabase({ dataDir: 'memory' });
  // The migrated, empty database, for the server tests' worlds to start from (server/test/helpers.ts):
  // one new PGlite set up from nothing costs ~3 s of CPU, one loaded from this copy ~0.7 s.
  const dump = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dialdesk-jest-')), 'migrated.tar');
  fs.writeFileSync(dump, Buffer.from(await (await database.dump!()).arrayBuffer()));
  process.env.DIALDESK_TEST_DATABASE_DUMP = dump;
  await ensureFirstAdmin(database.db, TEST_ADMIN.userName, TEST_ADMIN.password);
  await seedCampaignTestVotes(database.db);
  await seedTestIncidents(database.db);
  // Web tests play the payment provider: they sign callbacks with this secret (src/testing/ussd-calls.ts).
  process.env.DIALDESK_CALLBACK_SECRET = crypto.randomUUID();
  // …and dial with this USSD callback token.
  process.env.DIALDESK_USSD_TOKEN = crypto.randomUUID();
  const app = await buildApp({
    db: database.db, jwtSecret: crypto.randomUUID(), callbackSecret: process.env.DIALDESK_CALLBACK_SECRET,
    ussd: { callbackToken: process.env.DIALDESK_USSD_TOKEN },
    providers: { sms: firstSmsFailsForUnreachable(localSmsProvider()) },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  // Node closes an idle kept-alive socket after 5 s; a test worker's fetch that picks that socket just as it
  // closes fails with ECONNRESET (seen on a loaded machine). The test workers' sockets stay open instead.
  app.server.keepAliveTimeout = 120_000;
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('test API did not start');
  process.env.DIALDESK_API_URL = `http://127.0.0.1:${address.port}`;
  globalThis.__DIALDESK_TEST_SERVER__ = { app, database };
}
