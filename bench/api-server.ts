/**
 * The server process of bench:api, so that its RSS and CPU are the server's alone (autocannon and
 * the seeding run elsewhere). Prints `listening <port>` once it answers.
 *
 *   BENCH_MODE=app  BENCH_DATABASE_URL=… | BENCH_DATA_DIR=…  BENCH_JWT_SECRET=…   the real API
 *   BENCH_MODE=bare BENCH_PAGE_FILE=…                                            the bare routes
 *   BENCH_MODE=sale-floor BENCH_DATABASE_URL=…                                   a sale's floor server (bench/sale-floor.ts)
 *   BENCH_PORT=…                                                                 a port of one's own (default: any free one)
 */
import fs from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import { answerCache } from '../server/src/plugins/answer-cache';
import { buildApp } from '../server/src/app';
import { rankingCacheMs } from '../server/src/config';
import { openDatabase } from '../server/src/db/client';
import { saleFloorApp } from './sale-floor';

async function main() {
  let app: FastifyInstance;
  let close = async () => {};
  if (process.env.BENCH_MODE === 'bare') {
    const pageJson = fs.readFileSync(process.env.BENCH_PAGE_FILE!, 'utf8');
    // The same page as an object, serialized on every request as a route that reads rows must.
    const pageObject = JSON.parse(pageJson) as object;
    app = Fastify({ logger: false });
    app.get('/bare', () => pageObject);
    app.get('/bare-string', (_request, reply) => reply.type('application/json').send(pageJson));
  } else if (process.env.BENCH_MODE === 'sale-floor') {
    ({ app, close } = await saleFloorApp(process.env.BENCH_DATABASE_URL!));
  } else {
    const database = await openDatabase(process.env.BENCH_DATABASE_URL ? { databaseUrl: process.env.BENCH_DATABASE_URL } : { dataDir: process.env.BENCH_DATA_DIR });
    // RANKING_CACHE_MS=0 measures the campaign answers uncached.
    app = await buildApp({ db: database.db, jwtSecret: process.env.BENCH_JWT_SECRET!, answerCache: answerCache({ ttlMs: rankingCacheMs(process.env) }) });
    close = () => database.close();
  }
  await app.listen({ port: Number(process.env.BENCH_PORT ?? 0), host: '127.0.0.1' });
  console.log(`listening ${(app.server.address() as { port: number }).port}`);
  process.on('SIGTERM', async () => {
    await app.close();
    await close();
    process.exit(0);
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
