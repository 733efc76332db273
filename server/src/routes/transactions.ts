import type { FastifyInstance } from 'fastify';

export default async function transactionsRoutes(_app: FastifyInstance) {}
