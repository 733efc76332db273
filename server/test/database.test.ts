import { sql } from 'drizzle-orm';
import { Client } from 'pg';
import { buildTestWorld, type TestWorld } from './helpers';

jest.setTimeout(30_000);

// Only the PostgreSQL server can end a connection from outside; PGlite runs in-process.
const onServer = process.env.TEST_DATABASE_URL ? describe : describe.skip;

onServer('PostgreSQL connections', () => {
  let world: TestWorld;
  beforeAll(async () => {
    world = await buildTestWorld();
  });
  afterAll(() => world.close());

  const rows = async <T>(query: ReturnType<typeof sql>) => ((await world.db.execute(query)) as unknown as { rows: T[] }).rows;

  it('survives the server ending idle connections, and answers the next query', async () => {
    const [{ name }] = await rows<{ name: string }>(sql`select current_database() as name`);
    const admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    const ended = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
    await admin.end();
    expect(ended.rowCount).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const [{ one }] = await rows<{ one: number }>(sql`select 1 as one`);
    expect(one).toBe(1);
  });
});
