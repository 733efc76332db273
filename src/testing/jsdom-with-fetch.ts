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
    const JsdomFormData = g.FormData as typeof FormData;
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
    // React builds `new FormData(form, submitter)` when a form's submit handler starts a transition
    // (a router navigation: a list's view lives in the URL); Node's FormData takes no form, so it is
    // given one that does. Only text fields are copied: jsdom's files are not Node's Blobs.
    const NodeFormData = g.FormData as typeof FormData;
    g.FormData = class FormDataOfForm extends NodeFormData {
      constructor(form?: HTMLFormElement, submitter?: HTMLElement | null) {
        super();
        if (!form) return;
        new JsdomFormData(form, submitter).forEach((value, key) => {
          if (typeof value === 'string') this.append(key, value);
        });
      }
    };
    // The statement upload reports its progress through XMLHttpRequest: one on the same fetch.
    g.XMLHttpRequest = nodeXmlHttpRequest(g.FileReader as typeof FileReader);
  }
}
