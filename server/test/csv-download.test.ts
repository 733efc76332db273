import Fastify from 'fastify';
import errorsPlugin from '../src/plugins/errors';
import { CSV_FAILED_LINE, sendCsv } from '../src/http/csv-download';

/** Chunks of rows that fail after `failAfter` chunks, as a query cut off by the database would. */
async function* rows(chunks: string[][], failAfter = Infinity) {
  for (const [i, chunk] of chunks.entries()) {
    if (i >= failAfter) throw new Error('canceling statement due to statement timeout');
    yield chunk;
  }
}

async function appServing(chunks: string[][], failAfter?: number) {
  const app = Fastify();
  await app.register(errorsPlugin);
  app.get('/export', (_request, reply) => sendCsv(reply, { file: 'calls all.csv', header: 'phone\r\n', chunks: rows(chunks, failAfter), line: (row: string) => `${row}\r\n` }));
  await app.ready();
  return app;
}

describe('sendCsv', () => {
  it('streams the header and every chunk as a named attachment', async () => {
    const app = await appServing([['256700000001', '256700000002'], ['256700000003']]);
    const response = await app.inject({ method: 'GET', url: '/export' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="calls_all.csv"');
    expect(response.body).toBe('phone\r\n256700000001\r\n256700000002\r\n256700000003\r\n');
    await app.close();
  });

  it('answers an error, not a 200, when the query fails before the first row', async () => {
    const app = await appServing([['256700000001']], 0);
    const response = await app.inject({ method: 'GET', url: '/export' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ status: false, message: 'Something went wrong on our side', errors: [], requestId: expect.any(String) });
    await app.close();
  });

  it('ends a file that fails part way with a line saying it is incomplete', async () => {
    const app = await appServing([['256700000001'], ['256700000002']], 1);
    const response = await app.inject({ method: 'GET', url: '/export' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(`phone\r\n256700000001\r\n${CSV_FAILED_LINE}`);
    await app.close();
  });
});
