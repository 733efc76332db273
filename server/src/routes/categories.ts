import type { FastifyInstance } from 'fastify';

export default async function categoriesRoutes(_app: FastifyInstance) {}
