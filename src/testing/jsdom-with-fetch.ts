import { TestEnvironment } from 'jest-environment-jsdom';
import type { EnvironmentContext, JestEnvironmentConfig } from '@jest/environment';
import { nodeXmlHttpRequest } from './node-xhr';

/**
 * jsdom without Node's fetch cannot talk to our real API; hand the window Node's own
 * fetch and its companions so the SPA's RTK Query calls go over real HTTP.
 */
export default class JsdomWithFetch extends TestEnvironment {
  constructor(config: JestEnvironmentConfig, context: EnvironmentContext) {
    super(config, context);
    const g = this.global as unknown as Record<string, unknown>;
    for (const name of [
      'fetch',
      'Request',
      'Response',
      'Headers',
      'FormData',
      'AbortController',
      'AbortSignal',
      'TextEncoder',
      'TextDecoder',
      'ReadableStream',
      'TransformStream',
      'WritableStream',
      'structuredClone',
      'BroadcastChannel',
      'Blob',
    ]) {
      g[name] = (globalThis as Record<string, unknown>)[name];
    }
    // The statement upload reports its progress through XMLHttpRequest: one on the same fetch.
    g.XMLHttpRequest = nodeXmlHttpRequest(g.FileReader as typeof FileReader);
  }
}
