import { sql } from 'drizzle-orm';
import type { Database } from '../src/db/client';
import { openMemoryDatabase } from './memory-database';
import { preparedReadRows } from '../src/db/prepared';

jest.setTimeout(30_000);

const rows = async <T>(database: Database, query: ReturnType<typeof sql>) => ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;

/**
 * On PGlite, preparedReadRows parses a read once under its name through PGlite's protocol API
 * (db/prepared.ts) instead of PGlite's `query`, which parses and plans every call. These hold it
 * to what `query` gives: the same values, errors that leave the database usable, and no read
 * slipping into another caller's transaction.
 */
describe('preparedReadRows on PGlite', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openMemoryDatabase();
    await database.db.execute(sql`create table probe (n int not null, label text)`);
    await database.db.execute(sql`insert into probe values (1, 'one'), (2, 'two'), (3, null)`);
  });
  afterAll(() => database.close());

  const probe = sql`select n, label, n > 1 as big, n / 2.0::float8 as half, ${sql.placeholder('labels')}::text[] as labels, '{"a": 1}'::json as doc
    from probe where n >= ${sql.placeholder('from')} and (${sql.placeholder('label')}::text is null or label = ${sql.placeholder('label')}) order by n`;

  it('binds and parses values as PGlite query does', async () => {
    const read = preparedReadRows<Record<string, unknown>>(database.db, 'probe_read', probe);
    const values = { from: 2, label: undefined, labels: ['a', 'b,c'] };
    const expected = await rows(database, sql`select n, label, n > 1 as big, n / 2.0::float8 as half, array['a', 'b,c'] as labels, '{"a": 1}'::json as doc from probe where n >= 2 order by n`);
    expect(await read(values)).toEqual(expected);
    expect(expected).toEqual([
      { n: 2, label: 'two', big: true, half: 1, labels: ['a', 'b,c'], doc: { a: 1 } },
      { n: 3, label: null, big: true, half: 1.5, labels: ['a', 'b,c'], doc: { a: 1 } },
    ]);
    expect(await read({ from: 1, label: 'one', labels: [] })).toEqual([{ n: 1, label: 'one', big: false, half: 0.5, labels: [], doc: { a: 1 } }]);
  });

  it('parses once per name and PGlite, and plans once after a few calls', async () => {
    const [first, second] = [1, 2].map(() => preparedReadRows<{ n: number }>(database.db, 'probe_once', sql`select n from probe where n = ${sql.placeholder('n')}`));
    for (let n = 1; n <= 8; n++) expect(await (n % 2 ? first : second)({ n: (n % 3) + 1 })).toEqual([{ n: (n % 3) + 1 }]);
    const [statement] = await rows<{ generic: number; custom: number }>(database, sql`select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where name = 'probe_once'`);
    expect(statement.generic + statement.custom).toBe(8);
    expect(statement.generic).toBeGreaterThan(0);
    const other = preparedReadRows(database.db, 'probe_once', sql`select label from probe`);
    await expect(other({})).rejects.toThrow('two statements named probe_once');
  });

  it('answers an error and leaves the database usable', async () => {
    const read = preparedReadRows(database.db, 'probe_error', sql`select 1 / ${sql.placeholder('d')}::int as q`);
    await expect(read({ d: 0 })).rejects.toThrow('division by zero');
    expect(await read({ d: 1 })).toEqual([{ q: 1 }]);
    expect(await rows(database, sql`select count(*)::int as n from probe`)).toEqual([{ n: 3 }]);
    const broken = preparedReadRows(database.db, 'probe_broken', sql`select nope from probe`);
    await expect(broken({})).rejects.toThrow('column "nope" does not exist');
    expect(await read({ d: 1 })).toEqual([{ q: 1 }]);
  });

  it('waits for a transaction in progress instead of reading inside it', async () => {
    const read = preparedReadRows<{ n: number }>(database.db, 'probe_count', sql`select count(*)::int as n from probe`);
    let answered: { n: number }[] | undefined;
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into probe values (4, 'four')`);
      void read({}).then((found) => (answered = found));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(answered).toBeUndefined();
      await tx.execute(sql`delete from probe where n = 4`);
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answered).toEqual([{ n: 3 }]);
  });
});
