import { performance } from 'node:perf_hooks';
import type { SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { buildTestWorld, type TestWorld } from './helpers';
import { statementCsv, upload, type Headers } from './reconciliation-fixtures';

jest.setTimeout(180_000);

/**
 * DESIGN §4 and §7: one manager's large statement must not stall the database everyone shares.
 * The import writes in batches that take turns, the export reads CSV_CHUNK_ROWS (500) rows a
 * query, and a page past the last is refused at once instead of walking every row to reach it.
 */

let world: TestWorld;
let admin: Headers;

beforeAll(async () => {
  world = await buildTestWorld();
  admin = (await world.headersFor('admin')).headers;
});
afterAll(() => world.close());

const LINES = 30_000;
const lines = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ reference: `${prefix}-${i}`, status: i % 2 ? 'FAILED' : 'SUCCESSFUL', completedAt: `2024-03-01T${String(Math.floor(i / 3600) % 24).padStart(2, '0')}:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z` }));

describe('a large statement', () => {
  it('is imported in turns: a request to the database meanwhile waits behind a batch, not the whole import', async () => {
    const csv = statementCsv(lines('turns', LINES));
    let importing = true;
    const waits: number[] = [];
    const probe = async () => {
      while (importing) {
        const started = performance.now();
        const response = await world.app.inject({ method: 'GET', url: '/v1/incidents/open-count', headers: admin });
        expect(response.statusCode).toBe(200);
        waits.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const probing = probe();
    const started = performance.now();
    const response = await upload(world, admin, csv);
    const took = performance.now() - started;
    importing = false;
    await probing;
    expect(response.statusCode).toBe(201);
    // The import took long enough for many probes; none of them waited for a large part of it.
    const longest = Math.max(...waits);
    expect({ probes: waits.length > 10, short: longest < Math.max(750, took / 4), longestMs: Math.round(longest), importMs: Math.round(took) }).toMatchObject({ probes: true, short: true });
    const detail = (await world.app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${response.json().results._id}`, headers: admin })).json().results;
    expect(detail).toMatchObject({ lines: LINES, counts: { unknownReference: LINES } });
  });

  it('is exported 500 rows a query', async () => {
    const { _id } = (await upload(world, admin, statementCsv(lines('chunks', 1_200)))).json().results;
    const execute = jest.spyOn(world.db, 'execute');
    try {
      const response = await world.app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${_id}/export`, headers: admin });
      expect(response.body.split('\r\n')).toHaveLength(1 + 1_200 + 1);
      const dialect = new PgDialect();
      const chunkQueries = execute.mock.calls.filter(([query]) => dialect.sqlToQuery(query as SQL).sql.includes("- 'seq'"));
      expect(chunkQueries).toHaveLength(3);
    } finally {
      execute.mockRestore();
    }
  });

  it('refuses a page past the last with a field error, at once', async () => {
    const { _id } = (await upload(world, admin, statementCsv(lines('pages', 120)))).json().results;
    const page = (query: string) => world.app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${_id}${query}`, headers: admin });
    expect((await page('?page=3')).json().results.rows).toMatchObject({ page: 3, pages: 3, total: 120 });
    const started = performance.now();
    const far = await page('?page=1000000');
    expect(performance.now() - started).toBeLessThan(1000);
    expect(far.statusCode).toBe(400);
    expect(far.json().errors).toEqual([{ field: 'page', message: 'There are 3 pages of these rows' }]);
    expect((await page('?page=4')).statusCode).toBe(400);
    // A kind with no rows has its one empty page.
    expect((await page('?kind=matched&page=1')).json().results.rows).toMatchObject({ total: 0, docs: [] });
    expect((await page('?kind=matched&page=2')).json().errors).toEqual([{ field: 'page', message: 'There is 1 page of these rows' }]);
  });
});
