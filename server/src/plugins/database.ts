import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
  }
}

/** Hands routes the database; whoever opened it closes it (main.ts or the test helper). */
export default fp(
  async function database(app: FastifyInstance, options: { db: Db }) {
    app.decorate('db', options.db);
  },
  { name: 'database' },
);
