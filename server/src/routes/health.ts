import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { documented } from '../openapi';

export default async function healthRoutes(app: FastifyInstance) {
  const answer = { type: 'object', properties: { status: { type: 'boolean', enum: [true] }, message: { type: 'string', enum: ['ok'] } }, required: ['status', 'message'] };
  const docs = { swaggerTransform: documented({ summary: 'The API answers and its database too', answer }) };
  app.get('/healthz', { schema: { tags: ['health'] }, config: docs }, async (_request, reply) => {
    await app.db.execute(sql`select 1`);
    return reply.send({ status: true, message: 'ok' });
  });
}
