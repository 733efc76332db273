import fs from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { PgDialect } from 'drizzle-orm/pg-core';
import { DRIZZLE_TEXT_PARSERS, type Database } from '../src/db/client';
import { openMemoryDatabase } from './memory-database';

jest.setTimeout(30_000);

/**
 * openDatabase gives PGlite drizzle's parsers once, at start, and drops the copies drizzle hands
 * over with each query (see DrizzlePGlite in client.ts). That is only right while the two are the
 * same parsers, which a drizzle upgrade could change.
 */
describe('PGlite opened for drizzle', () => {
  let database: Database;
  /** PGlite as drizzle's own adapter takes it: no parsers of ours. */
  let plain: PGlite;
  beforeAll(async () => {
    database = await openMemoryDatabase();
    // Parsers are the client's, not the data's: a plain client may open the migrated copy, which takes a
    // fraction of the CPU of setting one up from nothing.
    const dump = process.env.DIALDESK_TEST_DATABASE_DUMP;
    plain = new PGlite(dump ? { loadDataDir: new Blob([fs.readFileSync(dump)]) } : undefined);
  });
  afterAll(async () => {
    await plain.close();
    await database.close();
  });

  it('has as its own the parsers drizzle passes with every query', async () => {
    const prepared = drizzle(plain)._.session.prepareQuery(new PgDialect().sqlToQuery(sql`select 1`), undefined, undefined, false);
    // Private in drizzle's types: read here only to hold our list to drizzle's.
    const { rawQueryConfig, queryConfig } = prepared as unknown as Record<'rawQueryConfig' | 'queryConfig', { parsers: object }>;
    const ours = Object.keys(DRIZZLE_TEXT_PARSERS).sort();
    expect(Object.keys(rawQueryConfig.parsers).sort()).toEqual(ours);
    expect(Object.keys(queryConfig.parsers).sort()).toEqual(ours);
  });

  it('answers every value as drizzle on a plain PGlite does: dates, times, intervals and their arrays as text', async () => {
    const query = sql`select timestamptz '2026-11-23 04:05:06.789+00' as at, timestamp '2026-11-23 04:05:06' as local, date '2026-11-23' as day,
      interval '1 day' as span, array[date '2026-11-23'] as days, array[timestamp '2026-11-23 04:05:06'] as locals,
      array[timestamptz '2026-11-23 04:05:06+00'] as ats, array[interval '1 day'] as spans, array[1.5::numeric] as amounts,
      1.5::numeric as amount, 7::int8 as big, array[1, 2] as ints, '{"a": 1}'::json as doc, true as yes`;
    const expected = (await drizzle(plain).execute(query)).rows;
    const { rows } = (await database.db.execute(query)) as unknown as { rows: unknown[] };
    expect(rows).toEqual(expected);
    expect(rows[0]).toMatchObject({ at: '2026-11-23 04:05:06.789+00', days: '{2026-11-23}', amounts: '{1.5}' });
  });
});
