import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AnswerCache } from '../answer-cache';

declare module 'fastify' {
  interface FastifyInstance {
    /** Campaign rankings and results kept for a moment (answer-cache.ts). */
    answerCache: AnswerCache;
  }
}

/** Hands the campaign routes and the payment settlement one answer cache per app; emptied on close. */
export default fp(
  async function answerCachePlugin(app: FastifyInstance, options: { cache: AnswerCache }) {
    app.decorate('answerCache', options.cache);
    app.addHook('onClose', async () => options.cache.clear());
  },
  { name: 'answer-cache' },
);
