import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { ADMIN, go, launchBrowser, listRows, screenshot, setColourMode, signIn, startServer, USSD_TOKEN, type RunningServer } from './harness';

/**
 * The support agent's queue: three calls dialled through the USSD door fail (the local
 * payment provider refuses every payment); on Failed the admin moves with j/k, resolves two with
 * r, a reason and a note, and reads the reason and note in the call's timeline. Screenshots of the
 * focused row and of the dialog, light and dark, 1440 and 412 px; axe on the dialog.
 */

const CODE = '*217*1#';
const PHONES = ['256779900001', '256779900002', '256779900003'].map((phone) => phone.replace(/\d{3}$/, (end) => String((Number(end) + Date.now()) % 1000).padStart(3, '0')));
const NOTE = 'Called back, paid on the second try';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

before(async () => {
  server = await startServer({ env: { PAYMENT_PROVIDER: 'local', PAYMENT_LOCAL_DELAY_MS: '200', PAYMENT_LOCAL_FAIL_RATE: '1', SMS_PROVIDER: 'local' } });
  browser = await launchBrowser();
  // AxeBuilder wants a page of a context made with newContext().
  context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** A customer dials the code, picks the first level and confirms; the provider then refuses the payment. */
async function dialFailingCall(phoneNumber: string) {
  const sessionId = `queue-${phoneNumber}-${Date.now()}`;
  for (const text of ['', '1', '1*1']) {
    const response = await fetch(`${server.url}/v1/ussd/callback?token=${USSD_TOKEN}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ sessionId, serviceCode: CODE, phoneNumber, networkCode: '64110', text }).toString(),
    });
    assert.ok(response.ok, `USSD hop '${text}' answered ${response.status}`);
  }
}

const rowOf = (target: Page, phone: string): Locator => listRows(target).filter({ hasText: phone });
// textContent: a card below the screen is not laid out until it scrolls near (content-visibility), and has no innerText till then.
const focusedPhone = async (target: Page) => ((await target.locator('[aria-current="true"][data-id] [data-field="phoneNumber"]').textContent()) ?? '').trim();

/** Failed, with our three failed calls on it (Refresh until the provider has refused them all). */
async function openFailed(target: Page) {
  await go(target, '/failed');
  await target.getByText(/Clients with failed transactions are engaged/).waitFor();
  const deadline = Date.now() + 30_000;
  for (;;) {
    const shown = await Promise.all(PHONES.map((phone) => rowOf(target, phone).count()));
    if (shown.every((count) => count > 0)) return;
    assert.ok(Date.now() < deadline, `the failed calls did not show: ${shown.join(', ')}`);
    await target.waitForTimeout(1000);
    await target.getByRole('button', { name: 'Refresh' }).click();
  }
}

/** j until the keyboard is on `phone`'s row (where it may be already). */
async function focusRow(target: Page, phone: string) {
  const onRow = target.locator('[aria-current="true"][data-id]');
  if ((await onRow.count()) > 0 && (await focusedPhone(target)) === phone) return;
  const seen: string[] = [];
  for (let step = 0; step < 20; step += 1) {
    await target.keyboard.press('j');
    seen.push(await focusedPhone(target));
    if (seen.at(-1) === phone) return;
  }
  const active = await target.evaluate(() => document.activeElement?.outerHTML.slice(0, 200));
  assert.fail(`j never reached ${phone}: ${seen.join(', ')}; the focus on ${active}`);
}

test('the keyboard flow resolves two failed calls with a reason and a note', async () => {
  for (const phone of PHONES) await dialFailingCall(phone);
  await signIn(page, server.url, ADMIN.userName, ADMIN.password);
  await page.waitForURL(`${server.url}/transactions`);
  await openFailed(page);

  // Newest first: the third call dialled is above the second.
  await focusRow(page, PHONES[2]);
  await page.getByText(new RegExp(`^Call \\d+ of \\d+: from ${PHONES[2]}, not resolved$`)).waitFor({ state: 'attached' });
  await screenshot(page, 'resolve-queue-1440-light-focused');

  for (const [index, phone] of [PHONES[2], PHONES[1]].entries()) {
    assert.equal(await focusedPhone(page), phone);
    await page.keyboard.press('r');
    const dialog = page.getByRole('dialog', { name: `Resolve the call from ${phone}` });
    await dialog.waitFor();
    if (index === 0) await screenshot(page, 'resolve-queue-1440-light-dialog');
    // The first reason has the focus: Space chooses it, the arrow the next one.
    await page.keyboard.press(index === 0 ? 'Space' : 'ArrowDown');
    await page.keyboard.press('Tab');
    await page.keyboard.type(NOTE);
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    await rowOf(page, phone).locator('[data-field="isResolved"]', { hasText: 'Yes' }).waitFor();
  }
  // After each resolve the keyboard moved on to the next open call.
  assert.equal(await focusedPhone(page), PHONES[0]);
  assert.equal((await rowOf(page, PHONES[0]).locator('[data-field="isResolved"]').innerText()).trim(), 'No');

  // The timeline of the first one resolved says why.
  await page.keyboard.press('k');
  await page.keyboard.press('k');
  assert.equal(await focusedPhone(page), PHONES[2]);
  await page.keyboard.press('o');
  const drawer = page.getByRole('region', { name: 'Call details' });
  const timeline = drawer.getByRole('list', { name: 'Timeline' });
  await timeline.getByText(NOTE).waitFor();
  await timeline.getByText('Reached and helped').waitFor();
  await page.keyboard.press('Escape');
  // Gone once it has slid out, and the focus is back on the page.
  await page.locator('.MuiModal-root').waitFor({ state: 'detached' });
});

test('axe finds nothing serious on the resolve dialog; screenshots dark and at 412 px', async () => {
  // 'r' on a resolved call says so, and opens nothing.
  await page.keyboard.press('r');
  await page.getByText(`The call from ${PHONES[2]} is already resolved`).waitFor({ state: 'attached' });
  await focusRow(page, PHONES[0]);
  await page.keyboard.press('r');
  const dialog = page.getByRole('dialog', { name: `Resolve the call from ${PHONES[0]}` });
  await dialog.waitFor();
  // An empty confirm shows the reason's error, which axe checks too.
  await page.keyboard.press('Enter');
  await dialog.getByText('Please choose a reason').waitFor();
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  assert.deepEqual(
    serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(' | ')}`),
    [],
  );
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });

  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await help.waitFor();
  const helpResults = await new AxeBuilder({ page }).include('[role="dialog"]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  assert.deepEqual(helpResults.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id), []);
  await screenshot(page, 'resolve-queue-1440-light-shortcuts');
  await page.keyboard.press('Escape');

  await setColourMode(page, 'Dark');
  await openFailed(page);
  await focusRow(page, PHONES[0]);
  await screenshot(page, 'resolve-queue-1440-dark-focused');
  await page.keyboard.press('r');
  await page.getByRole('dialog', { name: `Resolve the call from ${PHONES[0]}` }).waitFor();
  await screenshot(page, 'resolve-queue-1440-dark-dialog');
  const darkResults = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  assert.deepEqual(darkResults.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical').map((violation) => violation.id), []);
  await page.keyboard.press('Escape');

  // A phone: the cards, the same keys.
  await page.setViewportSize({ width: 412, height: 915 });
  for (const mode of ['dark', 'light'] as const) {
    if (mode === 'light') await setColourMode(page, 'Light');
    await openFailed(page);
    await focusRow(page, PHONES[0]);
    await screenshot(page, `resolve-queue-412-${mode}-focused`);
    await page.keyboard.press('r');
    await page.getByRole('dialog', { name: `Resolve the call from ${PHONES[0]}` }).waitFor();
    await screenshot(page, `resolve-queue-412-${mode}-dialog`);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
  }
});
