import type { FastifyInstance } from 'fastify';

export default async function serviceCodesRoutes(_app: FastifyInstance) {}
