import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';

export default async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', { schema: { tags: ['health'], hide: true } }, async (_request, reply) => {
    await app.db.execute(sql`select 1`);
    return reply.send({ status: true, message: 'ok' });
  });
}
