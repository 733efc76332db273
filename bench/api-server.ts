/**
 * The server process of bench:api, so that its RSS and CPU are the server's alone (autocannon and
 * the seeding run elsewhere). Prints `listening <port>` once it answers.
 *
 *   BENCH_MODE=app  BENCH_DATABASE_URL=… | BENCH_DATA_DIR=…  BENCH_JWT_SECRET=…   the real API
 *   BENCH_MODE=bare BENCH_PAGE_FILE=…                                            the bare routes
 *     [BENCH_DATABASE_URL=… BENCH_FLOOR_FILE=…]                                    and the driver floors' routes (below)
 *   BENCH_MODE=sale-floor BENCH_DATABASE_URL=…                                   a sale's floor server (bench/sale-floor.ts)
 *   BENCH_PORT=…                                                                 a port of one's own (default: any free one)
 */
import fs from 'node:fs';
import Fastify, { type FastifyInstance } from 'fastify';
import { Pool } from 'pg';
import { answerCache } from '../server/src/plugins/answer-cache';
import { buildApp } from '../server/src/app';
import { rankingCacheMs } from '../server/src/config';
import { openDatabase } from '../server/src/db/client';
import { saleFloorApp } from './sale-floor';

/** An endpoint's one statement, as a driver floor runs it: its text and its parameters' values. */
export interface FloorStatement {
  text: string;
  values: unknown[];
}

/**
 * A read's floor on the database side: `GET /floor/<i>` runs statement i through pg, prepared, on a
 * pool as the API's, and answers its row's text in an envelope, and nothing else. PostgreSQL's CPU
 * a request here is what the statement costs sent by a Node server at the same concurrency, beside
 * pgbench's, which sends it from a client that takes almost no CPU.
 */
function driverFloors(app: FastifyInstance, databaseUrl: string, file: string) {
  const statements = JSON.parse(fs.readFileSync(file, 'utf8')) as FloorStatement[];
  const pool = new Pool({ connectionString: databaseUrl, max: 10, options: '-c jit=off' });
  statements.forEach(({ text, values }, i) => {
    app.get(`/floor/${i}`, async (_request, reply) => {
      const { rows } = await pool.query<Record<string, unknown>>({ name: `floor_${i}`, text, values });
      const parts = Object.values(rows[0] ?? {}).map((value) => (typeof value === 'string' ? value : JSON.stringify(value)));
      return reply.type('application/json; charset=utf-8').send(`{"status":true,"message":"Floor","results":[${parts.join(',')}]}`);
    });
  });
  return { close: () => pool.end() };
}

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
    if (process.env.BENCH_FLOOR_FILE) ({ close } = driverFloors(app, process.env.BENCH_DATABASE_URL!, process.env.BENCH_FLOOR_FILE));
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
