import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Route } from 'playwright-core';
import { ADMIN, launchBrowser, listRows, screenshot, signIn, startServer, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;
let storageState: Awaited<ReturnType<BrowserContext['storageState']>>;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, server.url, ADMIN.userName, ADMIN.password);
  await page.waitForURL((url) => url.pathname !== '/', { timeout: 30_000 });
  storageState = await context.storageState();
  await context.close();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

interface Shift {
  value: number;
  sources: string[];
}

/**
 * Records every layout shift not caused by input, named by what moved. A string, not a function:
 * tsx would wrap named inner functions in a helper the page does not have.
 */
const RECORD_LAYOUT_SHIFTS = `
  window.layoutShifts = [];
  const describe = (node) => {
    const element = node instanceof Element ? node : node && node.parentElement;
    if (!element) return 'gone';
    if (element.closest('footer')) return 'footer';
    if (element.closest('h1')) return 'heading';
    return element.tagName.toLowerCase() + '.' + [...element.classList].slice(0, 2).join('.');
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (!entry.hadRecentInput) window.layoutShifts.push({ value: entry.value, sources: entry.sources.map((s) => describe(s.node)) });
    }
  }).observe({ type: 'layout-shift', buffered: true });
`;

/** Answers a request `ms` late. */
const late = (ms: number) => async (route: Route) => {
  await new Promise((resolve) => setTimeout(resolve, ms));
  await route.continue();
};

/**
 * Opens the transactions page signed in, its rows 1.5 s late, so the page is painted while they
 * load, as on a slow network; answers every layout shift until the rows are in, by what moved.
 * Then steps to the next page, again 1.5 s late, and answers whether the pagination stayed on
 * screen meanwhile (it hides only while no row is drawn).
 */
async function loadTransactions(viewport: { width: number; height: number }) {
  const context = await browser.newContext({ storageState, viewport });
  const page = await context.newPage();
  await page.route(/\/v1\/transactions\?/, late(1500));
  await page.addInitScript(RECORD_LAYOUT_SHIFTS);
  await page.goto(`${server.url}/transactions`);
  await listRows(page).nth(5).waitFor({ timeout: 30_000 });
  await page.waitForTimeout(1500); // the route overlay (1 s) and any late shift
  const shifts = await page.evaluate(() => (window as unknown as { layoutShifts: Shift[] }).layoutShifts);
  const pagination = page.getByRole('navigation', { name: 'pagination' });
  const shownWithRows = await pagination.isVisible();
  await pagination.getByRole('button', { name: 'Next' }).click();
  const shownWhileNextLoads = await pagination.isVisible();
  const stillLoading = await pagination.getByRole('button', { name: 'Previous' }).isDisabled();
  await context.close();
  return { shifts, shownWithRows, shownWhileNextLoads, stillLoading };
}

for (const [name, viewport] of [
  ['desktop', { width: 1440, height: 900 }],
  ['mobile', { width: 412, height: 823 }],
] as const) {
  test(`nothing on the transactions page moves while its data loads: footer, heading, pagination (${name})`, async () => {
    const { shifts, shownWithRows, shownWhileNextLoads, stillLoading } = await loadTransactions(viewport);
    const moved = shifts.flatMap((shift) => shift.sources);
    assert.ok(!moved.includes('footer'), `the footer moved: ${JSON.stringify(shifts)}`);
    assert.ok(!moved.includes('heading'), `the heading moved: ${JSON.stringify(shifts)}`);
    assert.deepEqual(shifts, [], 'nothing moves');
    assert.ok(shownWithRows, 'the pagination shows once the rows are in');
    assert.ok(stillLoading, 'the next page was still loading when checked');
    assert.ok(shownWhileNextLoads, 'the pagination stays on screen while a next page loads');
  });
}

test('a phone gets its lists as cards and never downloads the DataGrid; a wide screen gets the grid', async () => {
  for (const [width, height, grid] of [[412, 823, false], [1280, 800, true]] as const) {
    const context = await browser.newContext({ storageState, viewport: { width, height } });
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(`${server.url}/transactions`);
    await listRows(page).nth(5).waitFor({ timeout: 30_000 });
    assert.equal(await page.getByRole('grid', { name: 'Transactions' }).count(), grid ? 1 : 0);
    assert.equal(await page.getByRole('list', { name: 'Transactions' }).getByRole('listitem').count() > 0, !grid);
    assert.equal(scripts.some((script) => script.includes('paged-data-grid')), grid, scripts.join(' '));
    if (!grid) {
      // A card reads header and value, the row's buttons included.
      const card = listRows(page).first();
      await card.getByText('Call Time').waitFor();
      assert.ok(await card.getByRole('button', { name: /^Details/ }).count());
      await screenshot(page, 'transactions-cards-412');
    }
    await context.close();
  }
});

test("a deep link's index.html names every script its first visit needs, the DataGrid's for wide screens only", async () => {
  for (const [width, height] of [[412, 823], [1280, 800]] as const) {
    const context = await browser.newContext({ storageState, viewport: { width, height } });
    const page = await context.newPage();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    const response = await page.goto(`${server.url}/transactions`);
    const html = (await response?.text()) ?? '';
    await listRows(page).nth(5).waitFor({ timeout: 30_000 });
    // Each is preloaded or an entry script, so none waits for the script that asks for it.
    const unnamed = scripts.filter((script) => !new RegExp(`(src|href)="?${script.replace(/\./g, '\\.')}[" >]`).test(html));
    assert.deepEqual(unnamed, [], `${width} px: scripts index.html did not name`);
    assert.ok(html.includes('rel="preload"'), 'no preload in index.html');
    await context.close();
  }
});

test("the grid's placeholder has the height of the empty grid that replaces it", async () => {
  const context = await browser.newContext({ storageState, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  // The grid's code arrives late, so the placeholder shows first; the rows later still, so the
  // grid first shows empty, loading. 4 s, not 1.5: the screen now takes longer than 1.5 s to reach
  // its grid on CI's machine, and the grid's code was there before the placeholder could show.
  await page.route(/paged-data-grid\.[^/]*\.js$/, late(4000));
  await page.route(/\/v1\/transactions\?/, late(8000));
  await page.addInitScript(`
    window.gridHeights = [];
    const watch = () => {
      const grid = document.querySelector('.MuiDataGrid-root');
      const placeholder = grid ? null : document.querySelector('main [role="progressbar"][aria-label="Loading"]');
      const seen = grid ? 'grid ' + grid.getBoundingClientRect().height : placeholder ? 'placeholder ' + placeholder.parentElement.getBoundingClientRect().height : '';
      if (seen && window.gridHeights[window.gridHeights.length - 1] !== seen) window.gridHeights.push(seen);
      if (!grid) requestAnimationFrame(watch);
    };
    requestAnimationFrame(watch);
  `);
  await page.goto(`${server.url}/transactions`);
  await page.locator('.MuiDataGrid-root').waitFor({ timeout: 30_000 });
  const heights = (await page.evaluate('window.gridHeights')) as string[];
  // The spinner the grid replaces is the last seen before it (the screen's own fallback may come first).
  const gridAt = heights.findIndex((seen) => seen.startsWith('grid'));
  const grid = heights[gridAt];
  const placeholder = heights[gridAt - 1];
  assert.ok(placeholder?.startsWith('placeholder') && grid, `not both seen: ${heights.join(', ')}`);
  assert.ok(Math.abs(Number(placeholder.split(' ')[1]) - Number(grid.split(' ')[1])) <= 1, heights.join(', '));
  await context.close();
});
