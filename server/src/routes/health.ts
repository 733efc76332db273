import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http/http-error';
import { documented } from '../openapi';

/** When the newest migration of this build was made (drizzle's journal): the database must have applied it. */
function newestMigrationMillis(): number {
  const journal = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'db', 'migrations', 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] };
  return Math.max(...journal.entries.map((entry) => entry.when));
}

export default async function healthRoutes(app: FastifyInstance) {
  const answer = { type: 'object', properties: { status: { type: 'boolean', enum: [true] }, message: { type: 'string', enum: ['ok'] } }, required: ['status', 'message'] };
  const docs = { swaggerTransform: documented({ summary: 'The API answers and its database too', answer }) };
  // Liveness: a load balancer restarts a process that fails it, so it asks no more than the process can answer.
  app.get('/healthz', { schema: { tags: ['health'] }, config: docs }, async (_request, reply) => {
    await app.db.execute(sql`select 1`);
    return reply.send({ status: true, message: 'ok' });
  });

  // Readiness: traffic goes to a process only while its database answers and holds this build's schema
  // (an instance started before another applied newer migrations, or against a restored older backup, is not ready).
  const newest = newestMigrationMillis();
  const readyDocs = {
    swaggerTransform: documented({
      summary: "Ready for traffic: the database answers and this build's migrations are applied",
      answer,
      errors: { 503: 'The database does not answer, or lacks migrations of this build' },
    }),
  };
  app.get('/readyz', { schema: { tags: ['health'] }, config: readyDocs }, async (request, reply) => {
    const applied = await app.db
      .execute(sql`select coalesce(max(created_at), 0)::text as newest from drizzle.__drizzle_migrations`)
      .then((result) => Number((result as unknown as { rows: { newest: string }[] }).rows[0]?.newest ?? 0))
      .catch((error: unknown) => {
        request.log.warn({ err: error }, 'readiness: the database did not answer');
        throw new HttpError(503, 'The database does not answer');
      });
    if (applied < newest) throw new HttpError(503, 'The database lacks migrations of this build');
    return reply.header('cache-control', 'no-store').send({ status: true, message: 'ok' });
  });
}
