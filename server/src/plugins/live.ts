import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ChangeFeed } from '../live/change-feed';
import type { IncidentDetector, IncidentSettings } from '../live/incident-detector';
import type { LiveStream } from '../live/live-stream';

/** Live operations (DESIGN §7): the change feed, the stream's clients, the incident rules. */
export interface Live {
  feed: ChangeFeed;
  stream: LiveStream;
  detector: IncidentDetector;
  settings: IncidentSettings;
}

declare module 'fastify' {
  interface FastifyInstance {
    live: Live;
  }
}

export interface LivePluginOptions {
  live: Live;
  /** Runs the incident detector this often while the app is up (main.ts); tests detect by hand. */
  detectEveryMs?: number;
}

/**
 * Hands the routes the live parts and runs them while the app is up: the feed listens from ready,
 * the streams end before the server closes (an open stream would hold it), the detector runs on its timer.
 */
export default fp(
  async function livePlugin(app: FastifyInstance, { live, detectEveryMs }: LivePluginOptions) {
    app.decorate('live', live);
    let detecting: ReturnType<IncidentDetector['start']> | undefined;
    app.addHook('onReady', async () => {
      await live.feed.start();
      if (detectEveryMs) detecting = live.detector.start(detectEveryMs);
    });
    app.addHook('preClose', async () => live.stream.close());
    app.addHook('onClose', async () => {
      await detecting?.stop();
      await live.feed.close();
    });
  },
  { name: 'live' },
);
