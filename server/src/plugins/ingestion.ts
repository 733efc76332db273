import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Ingestion } from '../ingestion/ingestion';

declare module 'fastify' {
  interface FastifyInstance {
    /** The money path: USSD hops, settlement, ticket SMS, sweeper (ingestion/ingestion.ts). */
    ingestion: Ingestion;
  }
}

export interface IngestionPluginOptions {
  wing: Ingestion;
  /** Runs the sweeper from when the app is ready until it closes (main.ts); tests run their own sweeps. */
  sweeper?: { timeoutMinutes: number };
}

/** Hands the routes the one ingestion wing buildApp made, and runs its sweeper while the app is up. */
export default fp(
  async function ingestionPlugin(app: FastifyInstance, { wing, sweeper }: IngestionPluginOptions) {
    app.decorate('ingestion', wing);
    if (!sweeper) return;
    let running: ReturnType<Ingestion['startSweeper']> | undefined;
    app.addHook('onReady', async () => {
      running = wing.startSweeper({ timeoutMinutes: sweeper.timeoutMinutes });
    });
    app.addHook('onClose', async () => running?.stop());
  },
  { name: 'ingestion' },
);
