import type { FastifyInstance } from 'fastify';

export default async function contentsRoutes(_app: FastifyInstance) {}
