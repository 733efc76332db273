import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { ADMIN, launchBrowser, signIn, startServer, type RunningServer } from './harness';

/** Two tabs of one session refresh once between them (a Web Lock), and both stay signed in. */

let server: RunningServer;
let browser: Browser;

before(async () => {
  server = await startServer({ env: { SEED_DEMO: '0' } });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('two tabs whose access token is refused refresh once and both go on', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const first = await context.newPage();
  await signIn(first, server.url, ADMIN.userName, ADMIN.password);
  await first.waitForURL(`${server.url}/transactions`);
  assert.equal(await first.evaluate(() => typeof navigator.locks?.request), 'function');

  // The stored session's access token with a broken signature: the server refuses it, its refresh token still works.
  await first.evaluate(() => {
    const key = 'persist:dialdesk.session';
    const stored = JSON.parse(localStorage.getItem(key) ?? '{}') as Record<string, string>;
    const token = JSON.parse(stored.accessToken) as string;
    stored.accessToken = JSON.stringify(`${token.slice(0, -4)}${token.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`);
    localStorage.setItem(key, JSON.stringify(stored));
  });
  const refreshes: string[] = [];
  context.on('request', (request) => {
    if (request.url().endsWith('/v1/auth/refresh-token')) refreshes.push(request.url());
  });
  const second = await context.newPage();
  await Promise.all([first.goto(`${server.url}/transactions`), second.goto(`${server.url}/transactions`)]);
  for (const page of [first, second]) await page.getByText(`Username: ${ADMIN.userName}`).waitFor();
  // Both tabs have loaded their list with a good token by now.
  await Promise.all([first, second].map((page) => page.getByText(/Showing \d+ out of \d+ entries/).first().waitFor()));
  assert.equal(refreshes.length, 1);
  for (const page of [first, second]) assert.equal(new URL(page.url()).pathname, '/transactions');
  await context.close();
});
