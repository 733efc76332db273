/**
 * What the build, the server and the SPA agree on for a first visit: the preload
 * manifest's name and shape, how a path is matched, and where a phone ends.
 */

/** Written by the build (webpack.config.ts) beside index.html; read by the server (server/src/plugins/web.ts). */
export const PRELOAD_MANIFEST = 'preload-manifest.json';

/** Per private path: the scripts its first visit needs beyond the entry, and the DataGrid's for wide screens. */
export type PreloadManifest = Record<string, { scripts: string[]; wideScripts: string[] }>;

/** A path as the SPA's router matches it: without a trailing slash, in any case. */
export function routePathKey(pathname: string): string {
  return pathname.replace(/(.)\/+$/, '$1').toLowerCase();
}

/** Below MUI's `sm` breakpoint (600 px, a phone held upright) a list shows cards instead of the grid. */
export const PHONE_QUERY = '(max-width:599.95px)';
/** The rest: where the DataGrid shows, so where its code is preloaded. */
export const WIDE_SCREEN_QUERY = '(min-width: 600px)';
