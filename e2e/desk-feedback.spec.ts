import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { DEMO_AGENT_PASSWORD, DEMO_AGENTS } from '../server/src/db/seed-data';
import { ADMIN, launchBrowser, listRows, ROOT, screenshot, settled, signIn, startServer, type RunningServer } from './harness';

/**
 * The desk's feedback: toasts that never cover the bars, the loading overlay on the
 * shell's first mount only, disabled controls that look disabled and say why, Resolve on failed
 * calls only, errors said where they belong, and the smaller fixes; plus the one toast look
 * before and after the app loads.
 */

let server: RunningServer;
let browser: Browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 412, height: 915 };

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const intersects = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function newPage(viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  return { context, page: await context.newPage() };
}

async function signedInPage(viewport: { width: number; height: number }, userName: string = ADMIN.userName, password: string = ADMIN.password) {
  const opened = await newPage(viewport);
  await signIn(opened.page, server.url, userName, password);
  await opened.page.waitForURL(`${server.url}/transactions`);
  await opened.page.getByRole('heading', { name: /Transactions for/ }).waitFor();
  return opened;
}

/** The toasts on screen (notistack's and the first visit's page's alike are role=alert). */
const toasts = (page: Page) => page.locator('[role="alert"]:visible');

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  assert.ok(box, 'the element is drawn');
  return box;
}

test('item 1: a repeat of a list’s toast replaces it, at most two show, and none covers the top bar (1440 px)', async () => {
  const { context, page } = await signedInPage(DESKTOP);
  await toasts(page).filter({ hasText: /^Transactions for/ }).first().waitFor();
  for (const code of ['*217*2#', '*217*3#']) {
    // Every list's toast reads alike: the ones on screen are marked, to tell the next load's from them.
    await toasts(page).evaluateAll((elements) => elements.forEach((element) => element.setAttribute('data-earlier', '')));
    await page.getByRole('combobox', { name: 'Service code' }).click();
    // An option reads 'code, category, today's figures'.
    await page.getByRole('option', { name: code }).click();
    await page.getByText(code, { exact: true }).nth(1).waitFor();
    // The new code's list has loaded and said so: on a loaded machine that took long enough for the
    // earlier toast to close by itself, and a look before it found no toast at all.
    await page.locator('[role="alert"]:not([data-earlier]):visible', { hasText: /^Transactions for/ }).first().waitFor();
  }
  await page.waitForTimeout(700); // a replaced toast finishes leaving
  const texts = await toasts(page).allInnerTexts();
  assert.ok(texts.length <= 2, `at most two toasts: ${JSON.stringify(texts)}`);
  assert.equal(texts.filter((text) => text.startsWith('Transactions for')).length, 1, `one toast of the list: ${JSON.stringify(texts)}`);
  const bar = await boxOf(page.locator('header'));
  for (const toast of await toasts(page).all()) assert.ok(!intersects(await boxOf(toast), bar), 'a toast covers the top bar');
  await screenshot(page, 'desk-toasts-1440');
  await context.close();
});

test('item 1: on a phone a toast sits below the header, clear of the menu button, which takes the click', async () => {
  const { context, page } = await signedInPage(PHONE, DEMO_AGENTS[1], DEMO_AGENT_PASSWORD);
  await toasts(page).first().waitFor();
  const header = await boxOf(page.locator('header'));
  const menu = page.getByRole('button', { name: 'Open menu' });
  const menuBox = await boxOf(menu);
  for (const toast of await toasts(page).all()) {
    const box = await boxOf(toast);
    assert.ok(!intersects(box, header) && !intersects(box, menuBox), `a toast at ${JSON.stringify(box)} covers the header ${JSON.stringify(header)}`);
  }
  await screenshot(page, 'desk-toasts-412');
  await menu.click({ timeout: 2_000 });
  await page.getByText(`Hi, ${DEMO_AGENTS[1]}`).waitFor({ timeout: 2_000 });
  await context.close();
});

/** Where a toast stands and how it looks, to compare the first visit's with the app's. */
async function toastLook(toast: Locator) {
  return toast.evaluate((element) => {
    const style = getComputedStyle(element);
    const box = element.getBoundingClientRect();
    return {
      top: Math.round(box.top),
      left: Math.round(box.left),
      width: Math.round(box.width),
      height: Math.round(box.height),
      backgroundColor: style.backgroundColor,
      color: style.color,
      fontSize: style.fontSize,
      borderRadius: style.borderRadius,
      boxShadow: style.boxShadow,
      progressBar: element.querySelector('[role="progressbar"]') !== null,
    };
  });
}

async function wrongPassword(page: Page) {
  await page.getByLabel(/username/i).fill(ADMIN.userName);
  await page.getByLabel(/^password/i).fill('not-the-password-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const toast = toasts(page).filter({ hasText: 'Incorrect username or password' });
  await toast.waitFor();
  await settled(page); // slid in
  return toast;
}

for (const [label, viewport] of [['1440', DESKTOP], ['412', PHONE]] as const) {
  test(`the toast before the app loads looks and stands as the app's (${label} px)`, async () => {
    const { context, page } = await newPage(viewport);
    await page.goto(`${server.url}/`);
    const first = await toastLook(await wrongPassword(page));
    await screenshot(page, `desk-sign-in-toast-first-visit-${label}`);
    await signIn(page, server.url, ADMIN.userName, ADMIN.password);
    await page.waitForURL(`${server.url}/transactions`);
    if (label === '412') await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('button', { name: /logout/i }).first().click();
    await page.waitForURL(`${server.url}/`);
    // The app's own toasts go first, so the error stands where the first visit's stood.
    for (const toast of await toasts(page).all()) await toast.click().catch(() => undefined);
    await page.waitForFunction(() => document.querySelectorAll('[role="alert"]').length === 0);
    const inApp = await toastLook(await wrongPassword(page));
    await screenshot(page, `desk-sign-in-toast-in-app-${label}`);
    assert.deepEqual(inApp, first);
    await context.close();
  });
}

test('item 2: the loading overlay shows when the shell mounts, not on a sidebar click', async () => {
  const { context, page } = await newPage(DESKTOP);
  await signIn(page, server.url, ADMIN.userName, ADMIN.password);
  const overlay = page.getByTestId('route-overlay');
  await overlay.waitFor({ state: 'visible' });
  await overlay.waitFor({ state: 'hidden' });
  await page.evaluate(`
    window.overlaySeen = 0;
    const watch = () => {
      const element = document.querySelector('[data-testid="route-overlay"]');
      if (element && getComputedStyle(element).visibility !== 'hidden' && Number(getComputedStyle(element).opacity) > 0) window.overlaySeen += 1;
      requestAnimationFrame(watch);
    };
    requestAnimationFrame(watch);
  `);
  await page.getByRole('navigation').getByRole('link', { name: 'Failed transactions' }).click();
  await page.getByRole('heading', { name: /Failed transactions for/ }).waitFor();
  await page.getByRole('navigation').getByRole('link', { name: 'Users' }).click();
  await page.getByRole('heading', { name: 'Users' }).waitFor();
  await page.waitForTimeout(1_200);
  assert.equal(await page.evaluate(() => (window as unknown as { overlaySeen: number }).overlaySeen), 0, 'the overlay showed on navigation');
  await page.reload();
  await overlay.waitFor({ state: 'visible' });
  await context.close();
});

/** The text and background colours a control is drawn with, and whether it is marked disabled. */
async function controlLook(control: Locator) {
  return control.evaluate((element) => {
    const style = getComputedStyle(element);
    return { color: style.color, backgroundColor: style.backgroundColor, borderColor: style.borderTopColor, cursor: style.cursor };
  });
}

/**
 * WCAG contrast of an element's text on what it is drawn over (its own and its ancestors'
 * backgrounds, blended). Installed as page text: tsx would wrap the helper functions of a real
 * function in a helper the page does not have.
 */
const CONTRAST_OF = `
  window.contrastOf = (element) => {
    // 'rgb(…)', 'rgba(…)', or 'color(srgb r g b / a)' with channels from 0 to 1 (a blended hover colour).
    const parse = (text) => {
      const numbers = (text.match(/[\\d.]+/g) || []).map(Number);
      return text.startsWith('color(srgb') ? [...numbers.slice(0, 3).map((v) => v * 255), ...numbers.slice(3)] : numbers;
    };
    const over = (top, bottom) => [0, 1, 2].map((i) => top[i] * (top.length > 3 ? top[3] : 1) + bottom[i] * (1 - (top.length > 3 ? top[3] : 1)));
    const chain = [];
    for (let node = element; node; node = node.parentElement) chain.unshift(parse(getComputedStyle(node).backgroundColor));
    let background = [255, 255, 255];
    for (const layer of chain) if (layer.length && (layer.length < 4 || layer[3] > 0)) background = over(layer, background);
    const text = over(parse(getComputedStyle(element).color), background);
    const luminance = (rgb) => {
      const [r, g, b] = rgb.map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const [light, dark] = [luminance(text), luminance(background)].sort((x, y) => y - x);
    return (light + 0.05) / (dark + 0.05);
  };
`;

async function contrastOf(control: Locator): Promise<number> {
  await control.page().evaluate(CONTRAST_OF);
  return control.evaluate((element) => (window as unknown as { contrastOf: (element: Element) => number }).contrastOf(element));
}

async function expectReasonOnHoverAndFocus(page: Page, control: Locator, reason: string | RegExp) {
  await control.hover();
  await page.getByRole('tooltip', { name: reason }).waitFor({ timeout: 3_000 });
  assert.ok((await contrastOf(control)) >= 4.5, `hovered, the disabled control reads at ${await contrastOf(control)}`);
  await page.mouse.move(0, 0);
  await page.getByRole('tooltip').first().waitFor({ state: 'detached' });
  await page.keyboard.press('Shift'); // a keyboard user: the focus that follows shows
  await control.focus();
  await page.getByRole('tooltip', { name: reason }).waitFor({ timeout: 3_000 });
  await control.blur();
}

for (const mode of ['light', 'dark'] as const) {
  test(`item 3: disabled controls look disabled, read at AA and say why on hover and focus (${mode})`, async () => {
    const { context, page } = await signedInPage(DESKTOP);
    if (mode === 'dark') {
      await page.goto(`${server.url}/settings`);
      await page.getByRole('main').getByRole('button', { name: 'Dark', exact: true }).click();
    }
    await page.goto(`${server.url}/users`);
    const adminEdit = page.getByRole('button', { name: `Edit ${ADMIN.userName}`, exact: true });
    const agentEdit = page.getByRole('button', { name: `Edit ${DEMO_AGENTS[0]}`, exact: true });
    await adminEdit.waitFor();
    assert.notDeepEqual(await controlLook(adminEdit), await controlLook(agentEdit), 'a disabled Edit looks like an enabled one');
    assert.ok((await contrastOf(adminEdit)) >= 4.5, `disabled Edit contrast ${await contrastOf(adminEdit)}`);
    await expectReasonOnHoverAndFocus(page, adminEdit, 'Admins and super-users cannot be edited here');
    await adminEdit.click({ force: true }); // a person can click it; nothing opens
    await settled(page); // a dialog, had one opened, has faded in
    assert.equal(await page.getByRole('dialog').count(), 0, 'a disabled Edit opened the dialog');
    await screenshot(page, `desk-users-disabled-edit-${mode}`);

    await page.goto(`${server.url}/failed`);
    const resolve = page.getByRole('button', { name: 'Resolve', exact: true });
    await resolve.first().waitFor();
    const row = page.getByRole('row').filter({ has: resolve.first() }).first();
    const phone = (await row.locator('[data-field="phoneNumber"]').innerText()).trim();
    await resolve.first().click();
    const resolved = page.getByRole('row').filter({ hasText: phone }).getByRole('button', { name: 'Resolved', exact: true });
    await resolved.waitFor();
    await page.mouse.move(0, 0);
    const look = await controlLook(resolved);
    assert.notDeepEqual(look, await controlLook(resolve.first()), "'Resolved' looks like 'Resolve'");
    assert.ok((await contrastOf(resolved)) >= 4.5, `'Resolved' contrast ${await contrastOf(resolved)} (${JSON.stringify(look)})`);
    await expectReasonOnHoverAndFocus(page, resolved, new RegExp(`^Resolved by ${ADMIN.userName}`));
    await screenshot(page, `desk-failed-resolved-${mode}`);
    await context.close();
  });
}

test('item 4: the transactions list offers Resolve on failed calls only', async () => {
  const { context, page } = await signedInPage(DESKTOP);
  await listRows(page).first().waitFor();
  const rows = await page.evaluate(() =>
    [...document.querySelectorAll('[role="row"][data-id]')].map((row) => ({
      status: row.querySelector('[data-field="status"]')?.textContent?.trim(),
      buttons: [...row.querySelectorAll('[data-field="action"] button')].filter((button) => /^Resolved?$/.test(button.textContent?.trim() ?? '')).length,
    })),
  );
  assert.ok(rows.some((row) => row.status === 'failed') && rows.some((row) => row.status !== 'failed'), 'the page has failed and other calls');
  for (const row of rows) assert.equal(row.buttons, row.status === 'failed' ? 1 : 0, `a ${row.status} call has ${row.buttons} Resolve buttons`);
  await context.close();
});

test('item 8: a bad number is refused in the field, before any request', async () => {
  const { context, page } = await signedInPage(DESKTOP);
  const searches: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/search')) searches.push(request.url());
  });
  await page.getByRole('navigation').getByRole('link', { name: 'Trans search' }).click();
  await page.getByLabel('Phone number').fill('abc');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByText('Invalid phone number').waitFor();
  assert.equal(await page.getByLabel('Phone number').getAttribute('aria-invalid'), 'true');
  await settled(page);
  assert.deepEqual(searches, []);
  assert.equal(await page.getByText('Unexpected error').count(), 0);
  await screenshot(page, 'desk-search-invalid-number');
  await context.close();
});

test('item 8: an agent typing /users is told it has no access, and nothing is asked of the API', async () => {
  const { context, page } = await signedInPage(DESKTOP, DEMO_AGENTS[0], DEMO_AGENT_PASSWORD);
  const userCalls: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/v1/users')) userCalls.push(request.url());
  });
  await page.goto(`${server.url}/users`);
  await page.getByText('You do not have access to this page').waitFor();
  await page.waitForTimeout(500);
  assert.deepEqual(userCalls, []);
  assert.equal(await page.getByText('Unexpected error').count(), 0);
  await screenshot(page, 'desk-no-access');
  await page.getByRole('link', { name: /Go to Transactions/ }).click();
  await page.waitForURL(`${server.url}/transactions`);
  await context.close();
});

test('item 11: the phone drawer shows Logout in the first screen', async () => {
  const { context, page } = await signedInPage(PHONE);
  await page.getByRole('button', { name: 'Open menu' }).click();
  const logout = page.getByRole('button', { name: 'Logout' });
  await logout.waitFor();
  await settled(page); // the 300 ms slide-in
  const box = await boxOf(logout);
  assert.ok(box.y + box.height <= PHONE.height, `Logout ends at ${box.y + box.height} px, below the ${PHONE.height} px screen`);
  await screenshot(page, 'desk-phone-drawer');
  await context.close();
});

test("item 11: at 412 px the transactions heading keeps '( n )' on one line", async () => {
  const { context, page } = await signedInPage(PHONE);
  const heading = page.getByRole('heading', { name: /Transactions for .* \( \d+ \)/ });
  await heading.waitFor();
  // The '( n )' part, wherever its text sits in the heading: on how many lines is it drawn?
  const lines = await heading.evaluate((element) => {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    const range = document.createRange();
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node as Text;
      if (text.data.includes('(')) range.setStart(text, text.data.lastIndexOf('('));
      range.setEnd(text, text.data.length);
    }
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
  });
  assert.equal(lines, 1);
  await context.close();
});

test('item 11: over 160 characters the SMS counter turns to the error colour and drops the parts', async () => {
  const { context, page } = await signedInPage(DESKTOP);
  await page.getByRole('navigation').getByRole('link', { name: 'Sms' }).click();
  const message = page.getByLabel(/^Message/);
  await message.fill('a'.repeat(150));
  const counter = page.getByText(/^\d+\/160$/);
  await page.getByText('1 SMS').waitFor();
  const normal = await counter.evaluate((element) => getComputedStyle(element).color);
  await message.fill('a'.repeat(170));
  await page.getByText('170/160').waitFor();
  const over = await counter.evaluate((element) => getComputedStyle(element).color);
  // The field's own message (the form refuses past 160) shows in the error colour: the same one.
  await message.blur();
  const error = await page.getByText('Message must be at most 160 characters').evaluate((element) => getComputedStyle(element).color);
  assert.notEqual(over, normal);
  assert.equal(over, error);
  assert.equal(await page.getByText(/\d+ SMS/).count(), 0, 'the parts still show over the limit');
  await screenshot(page, 'desk-sms-over-limit');
  await context.close();
});

test("item 11: World Cup's failed list says 'Failed transactions for…' as /failed does", async () => {
  const { context, page } = await signedInPage(DESKTOP);
  await toasts(page).first().waitFor();
  await page.goto(`${server.url}/world/cup/failed`);
  await toasts(page).filter({ hasText: /^Failed transactions for \d\d \w+ \d{4}$/ }).waitFor();
  await context.close();
});

const SCREENS = ['/transactions', '/failed', '/search', '/users', '/sms', '/world/cup/failed'];

test('screenshots: the changed screens at 1440 and 412 px, light and dark', async () => {
  for (const [label, viewport] of [['1440', DESKTOP], ['412', PHONE]] as const) {
    const { context, page } = await signedInPage(viewport);
    for (const mode of ['light', 'dark'] as const) {
      if (mode === 'dark') {
        await page.goto(`${server.url}/settings`);
        await page.getByRole('main').getByRole('button', { name: 'Dark', exact: true }).click();
      }
      for (const route of SCREENS) {
        await page.goto(`${server.url}${route}`);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await screenshot(page, `desk-${mode}-${label}${route.replace(/\//g, '-')}`);
      }
    }
    await context.close();
  }
});

test('npm start prints the first admin’s password last, framed, after the "running on" line', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dialdesk-first-start-'));
  const { ADMIN_PASSWORD: _unset, ...env } = process.env;
  const child = spawn(process.execPath, [path.join(ROOT, 'dist/server/server/src/main.js')], {
    cwd: ROOT,
    env: { ...env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', SEED_DEMO: '0', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  try {
    const deadline = Date.now() + 120_000;
    while (!/└─+┘\s*$/.test(out) && Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`the server exited:\n${out}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await new Promise((resolve) => setTimeout(resolve, 500)); // nothing more comes after it
    const lines = out.trimEnd().split('\n');
    const running = lines.findIndex((line) => line.includes('running on'));
    const top = lines.findIndex((line, index) => index > running && /^\s*┌─+┐\s*$/.test(line));
    assert.ok(running >= 0 && top > running, `a frame follows "running on":\n${out}`);
    assert.match(lines.at(-1) ?? '', /^\s*└─+┘\s*$/, `the frame closes the output:\n${out}`);
    assert.ok(lines.slice(top).some((line) => /│.*password.*│/i.test(line)), `the frame holds the password:\n${out}`);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
