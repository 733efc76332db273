import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import * as reconciliationRepositoryModule from '../src/repositories/reconciliation-repository';
import { buildTestWorld, type TestWorld } from './helpers';
import { statementCsv, upload, type Headers } from './reconciliation-fixtures';

jest.setTimeout(180_000);

/**
 * DESIGN §4 and §7: one manager's large statement must not stall the database everyone shares.
 * The import writes in batches that take turns, the export reads CSV_CHUNK_ROWS (500) rows a
 * query, and a page past the last is refused at once instead of walking every row to reach it.
 */

/** The size of each chunk an export read: the repository as the routes build it, each chunk it yields noted. */
const chunkSizes: number[] = [];
const realRepository = reconciliationRepositoryModule.reconciliationRepository;
jest.spyOn(reconciliationRepositoryModule, 'reconciliationRepository').mockImplementation((db) => {
  const repository = realRepository(db);
  return {
    ...repository,
    async *rowChunks(...args: Parameters<typeof repository.rowChunks>) {
      for await (const chunk of repository.rowChunks(...args)) {
        chunkSizes.push(chunk.length);
        yield chunk;
      }
    },
  };
});

let world: TestWorld;
let admin: Headers;

beforeAll(async () => {
  world = await buildTestWorld();
  admin = (await world.headersFor('admin')).headers;
});
afterAll(() => world.close());

const LINES = 30_000;
const lines = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ reference: `${prefix}-${i}`, status: i % 2 ? 'FAILED' : 'SUCCESSFUL', completedAt: `2024-03-01T${String(Math.floor(i / 3600) % 24).padStart(2, '0')}:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}Z` }));

/** A body as the network brings it: 64 kB at a time, each in a turn of its own. */
async function* asPackets(text: string) {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += 65_536) {
    await new Promise((resolve) => setImmediate(resolve));
    yield bytes.subarray(at, at + 65_536);
  }
}

describe('a large statement', () => {
  it('is imported in turns: requests to the database go on meanwhile, each waiting behind a batch at most', async () => {
    const csv = statementCsv(lines('turns', LINES));
    let importing = true;
    // When each request made during the import was answered: the embedded database runs in this
    // thread, so a whole import in one transaction would leave one long gap with no answer at all.
    const answered: number[] = [];
    const probe = async () => {
      while (importing) {
        const response = await world.app.inject({ method: 'GET', url: '/v1/incidents/open-count', headers: admin });
        expect(response.statusCode).toBe(200);
        answered.push(performance.now());
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const started = performance.now();
    const probing = probe();
    const response = await world.app.inject({ method: 'POST', url: '/v1/reconciliation/statements', headers: { ...admin, 'content-type': 'text/csv' }, payload: Readable.from(asPackets(csv)) });
    const ended = performance.now();
    importing = false;
    await probing;
    expect(response.statusCode).toBe(201);
    const times = [started, ...answered.filter((at) => at <= ended), ended];
    const longestGap = Math.max(...times.slice(1).map((at, i) => at - times[i]));
    // The figures are in the comparison so that a failure shows them.
    const figures = { answers: times.length - 2, longestGapMs: Math.round(longestGap), importMs: Math.round(ended - started) };
    expect({ ...figures, manyAnswers: figures.answers > 10, shortGaps: longestGap < 1500 }).toEqual({ ...figures, manyAnswers: true, shortGaps: true });
    const detail = (await world.app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${response.json().results._id}`, headers: admin })).json().results;
    expect(detail).toMatchObject({ lines: LINES, counts: { unknownReference: LINES } });
  });

  it('is exported 500 rows a query', async () => {
    const { _id } = (await upload(world, admin, statementCsv(lines('chunks', 1_200)))).json().results;
    chunkSizes.length = 0;
    const response = await world.app.inject({ method: 'GET', url: `/v1/reconciliation/statements/${_id}/export`, headers: admin });
    expect(response.body.split('\r\n')).toHaveLength(1 + 1_200 + 1);
    expect(chunkSizes).toEqual([500, 500, 200]);
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
