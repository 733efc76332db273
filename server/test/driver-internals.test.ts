import fs from 'node:fs';
import path from 'node:path';
import { parse, PGlite, protocol } from '@electric-sql/pglite';
import * as drizzle from 'drizzle-orm';
import type { Database } from '../src/db/client';
import { openMemoryDatabase } from './memory-database';

/**
 * server/src/db/prepared.ts and db/client.ts reach below the drivers' public APIs for speed
 * (drizzle's session.prepareQuery with a statement name, PGlite's protocol messages and its
 * exclusive-query queues). Those are not promised to stay, so package.json pins both packages to
 * exact versions, and this fails loudly, naming what moved, before an upgrade can change them quietly.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const installedVersion = (name: string) => JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version as string;
jest.setTimeout(30_000);

const pinnedVersion = (name: string) => (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).dependencies as Record<string, string>)[name];

describe('the private driver surface the hot paths use', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openMemoryDatabase();
  });
  afterAll(() => database.close());

  it.each(['drizzle-orm', '@electric-sql/pglite'])('%s is pinned to one exact version, the one installed', (name) => {
    expect(pinnedVersion(name)).toMatch(/^\d+\.\d+\.\d+$/);
    expect(installedVersion(name)).toBe(pinnedVersion(name));
  });

  it("drizzle: the session's prepareQuery takes a statement name, and fillPlaceholders exists", () => {
    const session = (database.db as unknown as { _: { session: { prepareQuery: (...args: unknown[]) => unknown } } })._.session;
    expect(typeof session.prepareQuery).toBe('function');
    expect(session.prepareQuery.length).toBeGreaterThanOrEqual(4);
    expect(typeof drizzle.fillPlaceholders).toBe('function');
  });

  it("PGlite: the protocol builders and parsers, the exclusive queues, and the instance's parser and serializer tables", () => {
    for (const message of ['parse', 'describe', 'bind', 'execute', 'sync'] as const) expect([message, typeof protocol.serialize[message]]).toEqual([message, 'function']);
    expect(typeof parse.parseDescribeStatementResults).toBe('function');
    expect(typeof parse.parseResults).toBe('function');
    for (const method of ['_runExclusiveTransaction', '_runExclusiveQuery', '_checkReady', 'execProtocol']) {
      expect([method, typeof (PGlite.prototype as unknown as Record<string, unknown>)[method]]).toEqual([method, 'function']);
    }
    const client = (database.db as unknown as { $client: PGlite }).$client;
    expect(client).toBeInstanceOf(PGlite);
    expect(typeof client.parsers).toBe('object');
    expect(typeof client.serializers).toBe('object');
  });
});
