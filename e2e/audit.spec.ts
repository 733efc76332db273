import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { formatMoney } from '../src/domain/format';
import { ADMIN, assertAccessible, go, launchBrowser, screenshot, setColourMode, signIn, startServer, type RunningServer, viewportShot } from './harness';

/**
 * The audit trail in the browser: an admin changes a demo category's VIP price in its edit
 * dialog, then reads the change in words on /audit and in the category's History tab.
 * Screenshots of both, light and dark, 1440 and 412 px, and axe on each.
 */

const CATEGORY = 'Premier League Tips';
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 412, height: 915 };

let server: RunningServer;
let browser: Browser;
/** 'VIP price 5,000 → 6,000' as the change reads once made. */
let changeText = '';

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function signedInPage(viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await signIn(page, server.url, ADMIN.userName, ADMIN.password);
  await page.waitForURL(`${server.url}/transactions`);
  return { context, page };
}



/** The category's edit dialog, opened from its row (a grid row on a wide screen, a card on a phone). */
async function openCategoryDialog(page: Page) {
  await go(page, '/categories/all');
  await page.getByRole('button', { name: `Edit ${CATEGORY}` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByText('Update category').waitFor();
  return dialog;
}

/** /audit showing the category's price changes. */
async function openAudit(page: Page) {
  await go(page, '/audit?entityType=category&action=category.update');
  await page.getByRole('heading', { level: 1, name: 'Audit trail' }).waitFor();
  await page.getByText(changeText).first().waitFor({ timeout: 30_000 });
}

test("an admin changes a category's VIP price and reads it on /audit and in the category's History", async () => {
  const { context, page } = await signedInPage(DESKTOP);
  let dialog = await openCategoryDialog(page);
  const vip = dialog.getByLabel(/^VIP(\s*\*)?$/);
  const before = Number(await vip.inputValue());
  const after = before + 1000;
  changeText = `VIP price ${formatMoney(before)} → ${formatMoney(after)}`;
  await vip.fill(String(after));
  await dialog.getByRole('button', { name: 'Update' }).click();
  await page.getByText('Successfully updated the category').waitFor();
  await dialog.waitFor({ state: 'hidden' });

  await openAudit(page);
  const row = page.getByRole('row').filter({ hasText: changeText });
  await row.getByText(`Category ${CATEGORY}`).waitFor();
  await row.getByText('admin (Admin)').waitFor();
  await row.getByText('Category changed').waitFor();
  assert.equal(await page.getByRole('textbox', { name: 'From' }).inputValue(), '');
  await screenshot(page, 'audit-01-trail-1440-light');
  await assertAccessible(page, '/audit at 1440 px');

  await page.getByRole('button', { name: 'Verify chain' }).click();
  await page.getByText(/^The trail is intact: [\d,]+ entries/).waitFor();

  dialog = await openCategoryDialog(page);
  await dialog.getByRole('tab', { name: 'History' }).click();
  const history = dialog.getByRole('list', { name: 'History, newest first' });
  await history.getByText(changeText).waitFor();
  await history.getByText(/Category changed · admin \(Admin\)/).waitFor();
  await viewportShot(page, 'audit-02-history-1440-light');
  await assertAccessible(page, "the category's History at 1440 px");
  await page.keyboard.press('Escape');

  await setColourMode(page, 'Dark');
  await openAudit(page);
  await screenshot(page, 'audit-03-trail-1440-dark');
  await assertAccessible(page, '/audit at 1440 px, dark');
  dialog = await openCategoryDialog(page);
  await dialog.getByRole('tab', { name: 'History' }).click();
  await dialog.getByText(changeText).waitFor();
  await viewportShot(page, 'audit-04-history-1440-dark');
  await assertAccessible(page, "the category's History at 1440 px, dark");
  await context.close();
});

test('the trail and the History tab on a 412 px phone, light and dark', async () => {
  assert.ok(changeText, 'the price change of the first test');
  const { context, page } = await signedInPage(PHONE);
  for (const mode of ['Light', 'Dark'] as const) {
    await setColourMode(page, mode);
    await openAudit(page);
    await screenshot(page, `audit-05-trail-412-${mode.toLowerCase()}`);
    await assertAccessible(page, `/audit at 412 px, ${mode}`);
    const dialog = await openCategoryDialog(page);
    await dialog.getByRole('tab', { name: 'History' }).click();
    await dialog.getByText(changeText).waitFor();
    await viewportShot(page, `audit-06-history-412-${mode.toLowerCase()}`);
    await assertAccessible(page, `the category's History at 412 px, ${mode}`);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
  }
  await context.close();
});
