/**
 * Lighthouse performance of the first visit, desktop and mobile presets, median of 3 runs, against
 * Debian's Chromium. Private routes are measured signed in: the session stays in localStorage
 * while the HTTP cache is emptied before every run, so each run downloads everything again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import type { Config, Flags, Result } from 'lighthouse';
import { CHROMIUM_FLAGS } from '../e2e/harness';
import { freePort } from '../scripts/free-port';

export interface LighthouseRoute {
  route: string;
  signedIn: boolean;
}

export interface LighthouseFigures {
  route: string;
  preset: 'desktop' | 'mobile';
  /** Median of the runs, 0–100. */
  score: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Every byte the page transferred (total-byte-weight). */
  transferBytes: number;
  scores: number[];
}

const RUNS = 3;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Debian's Chromium for Lighthouse: a persistent context is the browser's default one, the same
 * Lighthouse opens its tab in; `port` is its debugging port. close() also removes its profile.
 */
export async function launchLighthouseBrowser(): Promise<{ context: BrowserContext; port: number; close: () => Promise<void> }> {
  const port = await freePort();
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dialdesk-lighthouse-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...CHROMIUM_FLAGS, `--remote-debugging-port=${port}`],
    headless: true,
  });
  return {
    context,
    port,
    async close() {
      await context.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Runs Lighthouse RUNS times per route and preset; signIn leaves a session in the browser's default context. */
export async function measureLighthouse(
  baseUrl: string,
  routes: LighthouseRoute[],
  signIn: (context: BrowserContext) => Promise<void>,
  outDir: string,
): Promise<LighthouseFigures[]> {
  const { default: lighthouse, desktopConfig } = await import('lighthouse');
  const { context, port, close } = await launchLighthouseBrowser();
  const figures: LighthouseFigures[] = [];
  try {
    const cdp = await context.newCDPSession(await context.newPage());
    const runOnce = async (url: string, preset: 'desktop' | 'mobile', keepSession: boolean, attempt = 1): Promise<Result> => {
      await cdp.send('Network.clearBrowserCache');
      const flags: Flags = { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: keepSession };
      const config: Config | undefined = preset === 'desktop' ? desktopConfig : undefined;
      const result = await lighthouse(url, flags, config);
      const error = result ? result.lhr.runtimeError : { message: 'no result' };
      if (!error) return result!.lhr;
      // A busy machine now and then loses the trace's start (NO_NAVSTART): that run is taken again.
      if (attempt < 3) return runOnce(url, preset, keepSession, attempt + 1);
      throw new Error(`Lighthouse failed on ${url}: ${error.message}`);
    };
    let signedIn = false;
    // Public routes first: Lighthouse's own storage reset would sign the browser out.
    for (const { route, signedIn: needsSession } of [...routes].sort((a, b) => Number(a.signedIn) - Number(b.signedIn))) {
      if (needsSession && !signedIn) {
        await signIn(context);
        signedIn = true;
      }
      for (const preset of ['desktop', 'mobile'] as const) {
        const results: Result[] = [];
        for (let run = 0; run < RUNS; run += 1) {
          results.push(await runOnce(`${baseUrl}${route}`, preset, needsSession));
        }
        const numeric = (lhr: Result, audit: string) => lhr.audits[audit]?.numericValue ?? NaN;
        const scores = results.map((lhr) => Math.round((lhr.categories.performance.score ?? 0) * 100));
        figures.push({
          route,
          preset,
          score: median(scores),
          lcpMs: median(results.map((lhr) => numeric(lhr, 'largest-contentful-paint'))),
          tbtMs: median(results.map((lhr) => numeric(lhr, 'total-blocking-time'))),
          cls: median(results.map((lhr) => numeric(lhr, 'cumulative-layout-shift'))),
          transferBytes: median(results.map((lhr) => numeric(lhr, 'total-byte-weight'))),
          scores,
        });
        const last = results[results.length - 1];
        // The last run's full report, to see which audits cost what.
        fs.writeFileSync(path.join(outDir, `lighthouse-${preset}-${route === '/' ? 'sign-in' : route.replace(/\W+/g, '')}.json`), JSON.stringify(last));
      }
    }
  } finally {
    await close();
  }
  return figures;
}
