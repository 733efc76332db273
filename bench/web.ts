/**
 * First-visit JavaScript per route (gzip, and the bytes that actually crossed the wire), measured
 * in Chromium against the built app, beside the floors (bare bundles of the libraries a route
 * cannot do without) built in the same run; then Lighthouse's performance score of `/` and,
 * signed in, `/transactions`, desktop and mobile presets, median of 3 (bench/lighthouse.ts).
 *
 *   npm run bench:web            builds the app, then measures
 *   npm run bench:web -- --no-build --no-lighthouse
 */
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import webpack, { type Configuration } from 'webpack';
import webpackConfig from '../webpack.config';
import { ADMIN, launchBrowser, ROOT, signIn, startServer } from '../e2e/harness';
import { measureLighthouse, type LighthouseFigures } from './lighthouse';

const OUT = path.join(ROOT, 'bench', 'output');
const gzipSize = (buffer: Buffer) => zlib.gzipSync(buffer, { level: 9 }).length;
const kB = (bytes: number) => Math.round(bytes / 100) / 10;

interface Floor {
  name: string;
  entry: string;
  /** The target set by the issue: a route may weigh at most factor × this floor. */
  route: string;
  factor: number;
}

const FLOORS: Floor[] = [
  { name: 'React + MUI Card/TextField/Button', entry: './bench/floors/sign-in-floor.tsx', route: '/', factor: 1.15 },
  { name: 'DataGrid + RTK Query + router + notistack', entry: './bench/floors/grid-page-floor.tsx', route: '/transactions', factor: 1.2 },
];

/** The targets: the lowest acceptable median score per route and preset. */
const LIGHTHOUSE_TARGETS = [
  { route: '/', signedIn: false, desktop: 100, mobile: 95 },
  { route: '/transactions', signedIn: true, desktop: 95, mobile: 80 },
];

const ROUTES = ['/', '/transactions', '/failed', '/search', '/dashboard', '/users', '/category', '/service/code', '/contents', '/sms'];

async function buildFloor(floor: Floor): Promise<number> {
  const base = webpackConfig({}, { mode: 'production' });
  const outDir = path.join(OUT, 'floors', path.basename(floor.entry, '.tsx'));
  const config: Configuration = {
    ...base,
    entry: floor.entry,
    output: { path: outDir, filename: '[name].js', chunkFilename: '[name].js', clean: true },
    plugins: [],
    optimization: { ...base.optimization, runtimeChunk: false, splitChunks: false },
    devtool: false,
  };
  delete (config as { devServer?: unknown }).devServer;
  await new Promise<void>((resolve, reject) =>
    webpack(config, (error, stats) => (error || stats?.hasErrors() ? reject(error ?? new Error(stats?.toString('errors-only'))) : resolve())),
  );
  return fs
    .readdirSync(outDir)
    .filter((f) => f.endsWith('.js'))
    .reduce((sum, f) => sum + gzipSize(fs.readFileSync(path.join(outDir, f))), 0);
}

interface RouteFigures {
  files: number;
  gzip: number;
  /** The route's JavaScript as it crossed the wire (encoded body and headers). */
  wireJs: number;
  /** Every response of the first visit, documents and API answers included. */
  wireTotal: number;
  encodings: Set<string>;
}

async function measureRoutes(withLighthouse: boolean): Promise<{ routes: Map<string, RouteFigures>; lighthouse: LighthouseFigures[] }> {
  const server = await startServer();
  const browser = await launchBrowser();
  const results = new Map<string, RouteFigures>();
  let lighthouse: LighthouseFigures[] = [];
  try {
    // Sign in once and keep the stored session, so private routes are measured as a signed-in first visit.
    const loginContext = await browser.newContext();
    const loginPage = await loginContext.newPage();
    await signIn(loginPage, server.url, ADMIN.userName, ADMIN.password);
    await loginPage.waitForURL((url) => url.pathname !== '/', { timeout: 30_000 });
    const storageState = await loginContext.storageState();
    await loginContext.close();

    for (const route of ROUTES) {
      const context = await browser.newContext(route === '/' ? {} : { storageState });
      const page = await context.newPage();
      const scripts = new Set<string>();
      const encodings = new Set<string>();
      const sizes: Promise<{ js: boolean; bytes: number }>[] = [];
      page.on('response', (response) => {
        const url = new URL(response.url());
        const js = url.pathname.endsWith('.js');
        if (js) {
          scripts.add(url.pathname);
          encodings.add(response.headers()['content-encoding'] ?? 'identity');
        }
        sizes.push(response.request().sizes().then((s) => ({ js, bytes: s.responseBodySize + s.responseHeadersSize })));
      });
      await page.goto(`${server.url}${route}`, { waitUntil: 'networkidle' });
      await page.waitForTimeout(1500); // the route's lazy chunk loads after the 1-second overlay
      let gzip = 0;
      for (const script of scripts) gzip += gzipSize(fs.readFileSync(path.join(ROOT, 'dist/web', script)));
      const wire = await Promise.all(sizes);
      const wireJs = wire.filter((w) => w.js).reduce((sum, w) => sum + w.bytes, 0);
      const wireTotal = wire.reduce((sum, w) => sum + w.bytes, 0);
      results.set(route, { files: scripts.size, gzip, wireJs, wireTotal, encodings });
      await context.close();
    }

    if (withLighthouse) {
      lighthouse = await measureLighthouse(
        server.url,
        LIGHTHOUSE_TARGETS,
        async (context) => {
          const page = await context.newPage();
          await signIn(page, server.url, ADMIN.userName, ADMIN.password);
          await page.waitForURL((url) => url.pathname !== '/', { timeout: 30_000 });
          await page.close();
        },
        OUT,
      );
    }
  } finally {
    await browser.close();
    await server.stop();
  }
  return { routes: results, lighthouse };
}

async function main() {
  if (!process.argv.includes('--no-build')) execSync('npm run build', { cwd: ROOT, stdio: 'inherit' });
  fs.mkdirSync(OUT, { recursive: true });
  const floors = new Map<string, number>();
  for (const floor of FLOORS) floors.set(floor.route, await buildFloor(floor));
  const { routes, lighthouse } = await measureRoutes(!process.argv.includes('--no-lighthouse'));

  const lines: string[] = [];
  lines.push(`### bench:web — ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`);
  lines.push('');
  lines.push(`Command: \`npm run bench:web\`. Machine: ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, Chromium (Debian).`);
  lines.push('First visit = every .js file Chromium requests for the route (gzip -9), signed in for private routes.');
  lines.push('On the wire = encoded bodies and headers as Chromium received them (JS alone, and every response of the visit).');
  lines.push('');
  lines.push('| route | JS files | first-visit JS (gzip kB) | JS on the wire (kB, encoding) | whole visit on the wire (kB) | floor (gzip kB) | target | verdict |');
  lines.push('|---|---|---|---|---|---|---|---|');
  let failed = false;
  for (const [route, measured] of routes) {
    const floorDef = FLOORS.find((f) => f.route === route);
    const floor = floors.get(route);
    let target = '', verdict = '';
    if (floorDef && floor) {
      const limit = floor * floorDef.factor;
      target = `≤ ${kB(limit)} (${floorDef.factor}× ${floorDef.name})`;
      verdict = measured.gzip <= limit ? 'met' : 'MISSED';
      failed ||= measured.gzip > limit;
    }
    const wire = `${kB(measured.wireJs)} (${[...measured.encodings].join(', ')})`;
    lines.push(`| \`${route}\` | ${measured.files} | ${kB(measured.gzip)} | ${wire} | ${kB(measured.wireTotal)} | ${floor ? kB(floor) : ''} | ${target} | ${verdict} |`);
  }
  if (lighthouse.length) {
    lines.push('');
    lines.push('Lighthouse 12 (performance only, its default simulated throttling), median of 3 runs; the HTTP cache is emptied before each run.');
    lines.push('');
    lines.push('| route | preset | score (runs) | LCP (s) | TBT (ms) | CLS | transferred (kB) | target | verdict |');
    lines.push('|---|---|---|---|---|---|---|---|---|');
    for (const figures of lighthouse) {
      const target = LIGHTHOUSE_TARGETS.find((t) => t.route === figures.route)![figures.preset];
      const met = figures.score >= target;
      failed ||= !met;
      lines.push(
        `| \`${figures.route}\` | ${figures.preset} | ${figures.score} (${figures.scores.join(', ')}) | ${(figures.lcpMs / 1000).toFixed(1)} | ${Math.round(figures.tbtMs)} | ${figures.cls.toFixed(3)} | ${kB(figures.transferBytes)} | ≥ ${target} | ${met ? 'met' : 'MISSED'} |`,
      );
    }
  }
  const report = lines.join('\n');
  console.log(`\n${report}\n`);
  fs.writeFileSync(path.join(OUT, 'web.md'), `${report}\n`);
  if (failed) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
