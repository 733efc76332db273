import type { FastifyInstance } from 'fastify';

export default async function campaignsRoutes(_app: FastifyInstance) {}
