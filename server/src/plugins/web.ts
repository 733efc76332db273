import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic, { type SetHeadersResponse } from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { PRELOAD_MANIFEST, routePathKey, WIDE_SCREEN_QUERY, type PreloadManifest } from '../../../src/domain/first-visit';
import { failureBody } from '../http/envelope';

/** Webpack names every file under assets/ by its content hash, so a year-long cache is safe. */
export const HASHED_ASSET_CACHE = 'public, max-age=31536000, immutable';
/** Everything else (index.html, favicon) is checked again on every visit. */
export const REVALIDATE = 'no-cache';

const ASSET_URL = /^\/assets\/[\w.-]+\.js$/;

function readPreloadManifest(webRoot: string): PreloadManifest {
  const file = path.join(webRoot, PRELOAD_MANIFEST);
  if (!fs.existsSync(file)) return {};
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as PreloadManifest;
  for (const { scripts, wideScripts } of Object.values(manifest)) {
    if (![...scripts, ...wideScripts].every((url) => ASSET_URL.test(url))) throw new Error(`${PRELOAD_MANIFEST} lists a file outside /assets`);
  }
  return manifest;
}

/** index.html with the service's zone in its `service-time-zone` meta, which the SPA reads at boot. */
function withServiceTimeZone(indexHtml: string, zone: string): string {
  const meta = `<meta name="service-time-zone" content="${zone}" />`;
  const existing = /<meta name="service-time-zone"[^>]*>/;
  return existing.test(indexHtml) ? indexHtml.replace(existing, meta) : indexHtml.replace('<head>', `<head>\n    ${meta}`);
}

/**
 * index.html for each path of the manifest, with `<link rel="preload">` for the app's and the
 * screen's scripts: the browser fetches them beside the entry instead of one round trip after
 * another, which a deep link or a reload on a slow phone would wait for. Paths match as the SPA's router
 * matches them (routePathKey). The DataGrid's scripts are for wide screens: a phone shows lists
 * as cards.
 */
function indexPages(indexHtml: string, manifest: PreloadManifest): (urlPath: string) => string {
  const pages = new Map<string, string>();
  for (const [routePath, { scripts, wideScripts }] of Object.entries(manifest)) {
    // Low priority, as the entry's own deferred scripts: they must not hold up the first paint.
    const links = [
      ...scripts.map((url) => `<link rel="preload" as="script" fetchpriority="low" href="${url}">`),
      ...wideScripts.map((url) => `<link rel="preload" as="script" fetchpriority="low" href="${url}" media="${WIDE_SCREEN_QUERY}">`),
    ].join('');
    pages.set(routePathKey(routePath), indexHtml.replace('</head>', `${links}</head>`));
  }
  return (urlPath) => pages.get(routePathKey(urlPath)) ?? indexHtml;
}

function assetHeaders(webRoot: string) {
  const hashedFolder = path.join(webRoot, 'assets') + path.sep;
  return (response: SetHeadersResponse, filePath: string) => {
    response.setHeader('cache-control', filePath.startsWith(hashedFolder) ? HASHED_ASSET_CACHE : REVALIDATE);
    // The same URL answers brotli, gzip or plain by Accept-Encoding; shared caches must key on it.
    response.setHeader('vary', 'Accept-Encoding');
  };
}

/**
 * The built SPA (DESIGN §1, the API): assets with their build-time brotli/gzip copies chosen by
 * Accept-Encoding, and index.html, read once at start (with `serviceTimeZone` in it when given),
 * for every other GET outside /v1/. Without a built SPA every unknown path answers the 404 envelope.
 */
export default fp(
  async function web(app: FastifyInstance, options: { webRoot?: string; serviceTimeZone?: string }) {
    const indexPath = options.webRoot && path.join(options.webRoot, 'index.html');
    const rawIndex = indexPath && fs.existsSync(indexPath) ? fs.readFileSync(indexPath, 'utf8') : undefined;
    const indexHtml = rawIndex !== undefined && options.serviceTimeZone ? withServiceTimeZone(rawIndex, options.serviceTimeZone) : rawIndex;
    if (options.webRoot && indexHtml !== undefined) {
      const webRoot = path.resolve(options.webRoot);
      await app.register(fastifyStatic, {
        root: webRoot,
        wildcard: false,
        // index.html is answered from memory below; the .br/.gz copies are found by preCompressed, not by URL.
        index: false,
        globIgnore: ['index.html', PRELOAD_MANIFEST, '**/*.br', '**/*.gz'],
        preCompressed: true,
        cacheControl: false,
        setHeaders: assetHeaders(webRoot),
      });
    }

    const pageFor = indexHtml !== undefined && options.webRoot ? indexPages(indexHtml, readPreloadManifest(options.webRoot)) : undefined;
    const sendIndex = (reply: FastifyReply, urlPath: string) =>
      reply.code(200).header('cache-control', REVALIDATE).type('text/html; charset=utf-8').send(pageFor ? pageFor(urlPath) : indexHtml);

    app.setNotFoundHandler((request, reply) => {
      // The SPA owns every other GET path (client-side routes), so it gets index.html.
      if (indexHtml !== undefined && request.method === 'GET' && !request.url.startsWith('/v1/')) return sendIndex(reply, request.url.split('?')[0]);
      // The address is not repeated back: an error answer never echoes the request (DESIGN §4).
      return reply.code(404).send(failureBody('Route not found'));
    });
  },
  { name: 'web' },
);
