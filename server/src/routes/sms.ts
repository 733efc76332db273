import type { FastifyInstance } from 'fastify';

export default async function smsRoutes(_app: FastifyInstance) {}
