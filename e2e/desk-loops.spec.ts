import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { ADMIN, assertAccessible, go, launchBrowser, listRows, screenshot, setColourMode, signIn, startServer, USSD_TOKEN, type RunningServer } from './harness';

/**
 * A one-click Resolve taken back: a call dialled through the USSD door fails (the local provider
 * refuses every payment, in its own words); on Failed the admin resolves its row, clicks Undo on
 * the toast, and the row is open again. The row shows the amount with a button that copies the
 * payment reference, and the failed status says why. Screenshots light and dark, 1440 and 412 px.
 */

const CODE = '*217*1#';
const PHONE = `2567799${String(Date.now() % 100000).padStart(5, '0')}`;

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

before(async () => {
  server = await startServer({ env: { PAYMENT_PROVIDER: 'local', PAYMENT_LOCAL_DELAY_MS: '200', PAYMENT_LOCAL_FAIL_RATE: '1', SMS_PROVIDER: 'local' } });
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  page = await context.newPage();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** A customer dials the code, picks the first level and confirms; the provider then refuses the payment. */
async function dialFailingCall(phoneNumber: string) {
  const sessionId = `loops-${phoneNumber}-${Date.now()}`;
  for (const text of ['', '1', '1*1']) {
    const response = await fetch(`${server.url}/v1/ussd/callback?token=${USSD_TOKEN}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ sessionId, serviceCode: CODE, phoneNumber, networkCode: '64110', text }).toString(),
    });
    assert.ok(response.ok, `USSD hop '${text}' answered ${response.status}`);
  }
}

const rowOf = (target: Page): Locator => listRows(target).filter({ hasText: PHONE });

/** Failed, with our failed call on it (Refresh until the provider has refused it). */
async function openFailed(target: Page) {
  await go(target, '/failed');
  await target.getByText(/Clients with failed transactions are engaged/).waitFor();
  const deadline = Date.now() + 30_000;
  while ((await rowOf(target).count()) === 0) {
    assert.ok(Date.now() < deadline, 'the failed call did not show');
    await target.waitForTimeout(1000);
    await target.getByRole('button', { name: 'Refresh' }).click();
  }
}

const resolvedCell = (target: Page) => rowOf(target).locator('[data-field="isResolved"]');

test('Undo on the toast of a Resolve puts the row back unresolved', async () => {
  await dialFailingCall(PHONE);
  await signIn(page, server.url, ADMIN.userName, ADMIN.password);
  await page.waitForURL(`${server.url}/transactions`);
  await openFailed(page);

  // The amount and the reference one click away, in one cell; why the payment failed on the status.
  const amount = rowOf(page).locator('[data-field="amount"]');
  assert.match((await amount.innerText()).trim(), /^[\d,]+$/);
  await amount.getByRole('button', { name: 'Copy payment reference' }).click();
  await amount.getByRole('button', { name: 'Payment reference copied' }).waitFor();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(copied, /^[0-9a-f-]{36}$/);
  const why = await rowOf(page).locator('[data-field="status"] [title]').getAttribute('title');
  assert.match(why ?? '', /^Payment failed: Declined: the payer did not approve the payment$/);

  await rowOf(page).getByRole('button', { name: 'Resolve', exact: true }).click();
  await resolvedCell(page).filter({ hasText: 'Yes' }).waitFor();
  const toast = page.locator('[role="alert"]').filter({ hasText: 'Resolved' });
  const undo = toast.getByRole('button', { name: 'Undo' });
  await undo.waitFor();
  await screenshot(page, 'desk-loops-1440-light-undo-toast');
  await undo.click();
  await page.locator('[role="alert"]').filter({ hasText: 'Resolve undone' }).waitFor();
  await resolvedCell(page).filter({ hasText: 'No' }).waitFor();
  await rowOf(page).getByRole('button', { name: 'Resolve', exact: true }).waitFor();

  // The server agrees: read again, the row is still open.
  await openFailed(page);
  assert.equal((await resolvedCell(page).innerText()).trim(), 'No');

  // The timeline says both.
  await rowOf(page).getByRole('button', { name: /^Details of the call from / }).click();
  const timeline = page.getByRole('region', { name: 'Call details' }).getByRole('list', { name: 'Timeline' });
  await timeline.getByText('Resolve undone').waitFor();
  await timeline.getByText('Declined: the payer did not approve the payment').first().waitFor();
  await page.getByRole('button', { name: 'Close details' }).click();
});

test('the toast holds in dark mode, the card on a phone; axe finds nothing serious', async () => {
  await rowOf(page).getByRole('button', { name: 'Resolve', exact: true }).click();
  await page.locator('[role="alert"]').getByRole('button', { name: 'Undo' }).waitFor();
  await assertAccessible(page, 'Failed with the Undo toast');
  // The toast outlives a trip to the settings and back: Undo still works from Failed in dark mode.
  await setColourMode(page, 'Dark');
  await openFailed(page);
  await resolvedCell(page).filter({ hasText: 'Yes' }).waitFor();
  await screenshot(page, 'desk-loops-1440-dark-undo-toast');
  await page.locator('[role="alert"]').getByRole('button', { name: 'Undo' }).first().click();
  await resolvedCell(page).filter({ hasText: 'No' }).waitFor();

  await page.setViewportSize({ width: 412, height: 915 });
  for (const mode of ['dark', 'light'] as const) {
    if (mode === 'light') await setColourMode(page, 'Light');
    await openFailed(page);
    await rowOf(page).getByRole('button', { name: 'Resolve', exact: true }).waitFor();
    await screenshot(page, `desk-loops-412-${mode}-failed`);
    const height = (await rowOf(page).boundingBox())?.height ?? 0;
    assert.ok(height <= 140, `the card is ${height} px tall`);
  }
  const sideways = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(sideways <= 0, `the page scrolls ${sideways} px sideways`);
});

/** A day `back` days before today in the service zone (UTC+3), as the lists' URLs take it. */
const dayBefore = (back: number) => new Date(Date.now() + 3 * 3_600_000 - back * 86_400_000).toISOString().slice(0, 10);

test('with the Amount column every list still fits its width at 1440 and 1280 px, the amount whole', async () => {
  const range = `dateFrom=${dayBefore(3)}&dateTo=${dayBefore(0)}`;
  const routes = ['/failed', '/transactions', `/search?phoneNumber=${PHONE}`, `/failed?${range}`, `/transactions?${range}`];
  for (const width of [1440, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    for (const route of routes) {
      await go(page, route);
      await listRows(page).first().waitFor();
      // Fitted, not scrolled to: the last column ends inside the grid's visible width. The grid lays its
      // columns out again once its rows (and any scrollbar) are in: measured until the fit holds, a few seconds at most.
      const last = page.getByRole('grid').first().getByRole('columnheader').last();
      let inView = false;
      for (const deadline = Date.now() + 3_000; !inView && Date.now() < deadline; await page.waitForTimeout(100)) {
        const [grid, header] = await Promise.all([page.getByRole('grid').first().boundingBox(), last.boundingBox()]);
        inView = grid !== null && header !== null && header.x + header.width <= grid.x + grid.width + 1;
      }
      assert.ok(inView, `${width} px ${route}: the last column '${await last.textContent()}' is out of view`);
      const cut = await listRows(page)
        .locator('[data-field="amount"] .amount-cell > span')
        .evaluateAll((spans) => spans.filter((span) => span.scrollWidth > span.clientWidth).map((span) => span.textContent));
      assert.deepEqual(cut, [], `${width} px ${route}: amounts cut short`);
      assert.ok((await listRows(page).locator('[data-field="amount"] .amount-cell').count()) > 0, `${width} px ${route}: no amount shown`);
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
});
