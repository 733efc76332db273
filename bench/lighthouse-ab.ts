/**
 * Lighthouse A/B of built SPAs, taking turns: one route and preset, RUNS runs per build, against
 * one server per build (the current dist/server, each with its own WEB_ROOT). Runs of one build on
 * this machine spread by 10–15 points, so a single median of 3 cannot tell two builds apart;
 * alternating runs share the machine's slow and quick spells.
 *
 *   npm run build:web && cp -r dist/web /tmp/web-a   # and likewise /tmp/web-b from another commit
 *   node --import tsx bench/lighthouse-ab.ts --route /transactions --preset mobile --runs 5 /tmp/web-a /tmp/web-b
 *
 * `--reports DIR` keeps every run's full report (DIR/ab-<build>-<run>.json), to see which tasks cost what.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Result } from 'lighthouse';
import { ADMIN, signIn, startServer } from '../e2e/harness';
import { launchLighthouseBrowser } from './lighthouse';

const { values, positionals } = parseArgs({
  options: { route: { type: 'string', default: '/transactions' }, preset: { type: 'string', default: 'mobile' }, runs: { type: 'string', default: '5' }, reports: { type: 'string' } },
  allowPositionals: true,
});
const route = values.route!;
const preset = values.preset === 'desktop' ? 'desktop' : 'mobile';
const runs = Number(values.runs);
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

async function main() {
  if (positionals.length === 0) throw new Error('name one or more built SPA folders (dist/web copies)');
  const servers = await Promise.all(positionals.map((root) => startServer({ env: { WEB_ROOT: path.resolve(root) } })));
  const { default: lighthouse, desktopConfig } = await import('lighthouse');
  const { context, port, close } = await launchLighthouseBrowser();
  const scores: number[][] = servers.map(() => []);
  try {
    const page = await context.newPage();
    const signedIn = route !== '/';
    // One origin per server: sign in on each, the session stays in its localStorage.
    for (const server of signedIn ? servers : []) {
      await signIn(page, server.url, ADMIN.userName, ADMIN.password);
      await page.waitForURL((url) => url.pathname !== '/', { timeout: 30_000 });
    }
    const cdp = await context.newCDPSession(page);
    if (values.reports) fs.mkdirSync(values.reports, { recursive: true });
    for (let run = 0; run < runs * servers.length; run += 1) {
      const which = run % servers.length;
      await cdp.send('Network.clearBrowserCache');
      const result = await lighthouse(
        `${servers[which].url}${route}`,
        { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'], disableStorageReset: signedIn },
        preset === 'desktop' ? desktopConfig : undefined,
      );
      const lhr = result?.lhr as Result | undefined;
      if (!lhr || lhr.runtimeError) {
        console.log(`[${which}] run ${run}: failed (${lhr?.runtimeError?.message ?? 'no result'})`);
        continue;
      }
      if (values.reports) {
        fs.writeFileSync(path.join(values.reports, `ab-${which}-${run}.json`), JSON.stringify(lhr));
      }
      const audit = (id: string) => Math.round(lhr.audits[id]?.numericValue ?? NaN);
      const score = Math.round((lhr.categories.performance.score ?? 0) * 100);
      scores[which].push(score);
      console.log(
        `[${which}] run ${run}: score ${score}, FCP ${audit('first-contentful-paint')} ms, LCP ${audit('largest-contentful-paint')} ms, TBT ${audit('total-blocking-time')} ms, CLS ${lhr.audits['cumulative-layout-shift']?.numericValue?.toFixed(3)}`,
      );
    }
  } finally {
    await close();
    await Promise.all(servers.map((server) => server.stop()));
  }
  positionals.forEach((root, k) => console.log(`[${k}] ${root}: ${scores[k].join(', ')} (median ${median(scores[k])})`));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
