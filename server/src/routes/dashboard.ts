import type { FastifyInstance } from 'fastify';

export default async function dashboardRoutes(_app: FastifyInstance) {}
