import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { ADMIN, chooseServiceCode, launchBrowser, OUTPUT, ROOT, screenshot, settled, signIn, startServer, USSD_TOKEN, type RunningServer } from './harness';

/**
 * Live traffic in the browser: the built server with the local payment provider settling
 * after 300 ms and refusing a third of the payments, and the local SMS provider refusing every fifth
 * SMS (SMS_LOCAL_FAIL_RATE 0.2), while `npm run simulate` plays customers on one service code. A
 * manager watches that code's transactions of today grow, finds a refused call in Failed and reads
 * its timeline, then resends the ticket of a paid call whose SMS failed. Screenshots in e2e/output.
 */

const CODE = '*217*1#';
/** The simulator's numbers (scripts/simulator.ts): 2567 7 or 0, then 1,000,000 + a pool of 5,000. */
const SIMULATED_PHONE = /^2567[07]100[0-4]\d{3}$/;
const SIMULATION = { rate: '5', duration: '10' };

let server: RunningServer;
let browser: Browser;
let page: Page;
let simulator: ChildProcess | undefined;
let simulatorLog = '';
let simulatorDone: Promise<number | null> = Promise.resolve(null);

before(async () => {
  server = await startServer({
    // A port of this worktree's range (4600–4699), or PORT when given.
    port: Number(process.env.PORT ?? 4631),
    env: { PAYMENT_PROVIDER: 'local', PAYMENT_LOCAL_DELAY_MS: '300', PAYMENT_LOCAL_FAIL_RATE: '0.35', SMS_PROVIDER: 'local', SMS_LOCAL_FAIL_RATE: '0.2' },
  });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
});

after(async () => {
  if (simulator && simulator.exitCode === null) simulator.kill('SIGTERM');
  await simulatorDone;
  await browser?.close();
  await server?.stop();
});

/** `npm run simulate` against the server, as a person would start it in a terminal. */
function startSimulator() {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const args = ['run', 'simulate', '--', '--rate', SIMULATION.rate, '--duration', SIMULATION.duration, '--url', server.url, '--codes', CODE, '--seed', '7'];
  simulator = spawn(npm, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, USSD_CALLBACK_TOKEN: USSD_TOKEN } });
  simulator.stdout?.on('data', (chunk) => (simulatorLog += chunk));
  simulator.stderr?.on('data', (chunk) => (simulatorLog += chunk));
  const child = simulator;
  simulatorDone = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** The count in the heading `Transactions for 23 November 2026 ( 123 )`. */
async function listedTotal(): Promise<number> {
  const heading = await page.getByRole('heading', { level: 1 }).innerText();
  const count = /\(\s*(\d+)\s*\)/.exec(heading)?.[1];
  assert.ok(count, `no count in "${heading}"`);
  return Number(count);
}

/** Presses Refresh (and waits for the answer) until `done` holds, or fails after `timeoutMs`. */
async function refreshUntil(done: () => Promise<boolean>, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  const refresh = page.getByRole('button', { name: 'Refresh' });
  for (;;) {
    if (await done()) return;
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs / 1000} s; simulator said:\n${simulatorLog}`);
    await page.waitForTimeout(1500);
    await refresh.click();
    // Disabled while the list is fetched, enabled once it has arrived.
    await page.waitForFunction(() => [...document.querySelectorAll('button')].some((b) => b.textContent?.trim() === 'Refresh' && !b.disabled));
  }
}

/** The grid's rows of simulated calls (newest first), optionally those offering a button. */
function simulatedRows(button?: string): Locator {
  const rows = page.getByRole('row').filter({ has: page.locator('[data-field="phoneNumber"]', { hasText: SIMULATED_PHONE }) });
  return button ? rows.filter({ has: page.getByRole('button', { name: button, exact: true }) }) : rows;
}

async function chooseCode() {
  await chooseServiceCode(page, CODE);
}

/** The drawer as a person sees it once the list's toast has gone. */
async function drawerShot(name: string) {
  await page.waitForFunction(() => !document.querySelector('#notistack-snackbar'), undefined, { timeout: 20_000 });
  await settled(page);
  await page.screenshot({ path: path.join(OUTPUT, `${name}.png`) });
}

async function openDetails(row: Locator): Promise<Locator> {
  await row.getByRole('button', { name: /^Details/ }).click();
  const drawer = page.getByRole('region', { name: 'Call details' });
  await drawer.getByRole('list', { name: 'Timeline' }).waitFor();
  return drawer;
}

async function closeDetails() {
  await page.keyboard.press('Escape');
  await page.getByRole('region', { name: 'Call details' }).waitFor({ state: 'hidden' });
}

test('a manager watches simulated customers arrive, reads a refused payment and resends a failed ticket', async () => {
  await signIn(page, server.url, ADMIN.userName, ADMIN.password);
  await page.waitForURL(`${server.url}/transactions`);
  await chooseCode();
  await page.getByRole('grid').waitFor();
  const before = await listedTotal();
  await screenshot(page, 'live-01-before');

  startSimulator();
  await refreshUntil(async () => (await listedTotal()) > before, 'the list did not grow');
  await screenshot(page, 'live-02-growing');

  // The run ends (its sessions finish) and every confirmed payment is settled 300 ms later.
  const exit = await simulatorDone;
  assert.equal(exit, 0, `simulator failed:\n${simulatorLog}`);
  assert.match(simulatorLog, /confirmed [1-9]/);
  await page.waitForTimeout(1000);
  await page.getByRole('button', { name: 'Refresh' }).click();
  await refreshUntil(async () => (await simulatedRows('Resend ticket').count()) > 0, 'no paid call with a failed ticket SMS', 10_000);
  const after = await listedTotal();
  assert.ok(after > before, `${after} calls listed, ${before} before`);
  await screenshot(page, 'live-03-after-run');

  // A refused payment in Failed, with its whole story.
  await page.getByRole('navigation').getByRole('link', { name: /failed/i }).first().click();
  await page.waitForURL(`${server.url}/failed`);
  await chooseCode();
  await simulatedRows().first().waitFor();
  await screenshot(page, 'live-04-failed');
  const failed = await openDetails(simulatedRows().first());
  const failedLabels = await failed.getByRole('heading', { level: 3 }).allTextContents();
  assert.ok(failedLabels.filter((label) => label === 'USSD hop').length >= 3, `hops: ${failedLabels.join(', ')}`);
  assert.ok(failedLabels.includes('Payment requested'), failedLabels.join(', '));
  const settled = failed.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Payment settled' }) });
  assert.match(await settled.innerText(), /failed/i);
  assert.ok(!failedLabels.includes('Ticket SMS sent'), 'a refused payment sends no ticket');
  await settled.scrollIntoViewIfNeeded();
  await drawerShot('live-05-failed-timeline');
  await closeDetails();

  // A paid call whose ticket SMS failed: one resend, recorded.
  await page.getByRole('navigation').getByRole('link', { name: 'Transactions', exact: true }).first().click();
  await page.waitForURL(`${server.url}/transactions`);
  await chooseCode();
  const unsent = simulatedRows('Resend ticket').first();
  await unsent.waitFor();
  const phone = (await unsent.locator('[data-field="phoneNumber"]').innerText()).trim();
  const drawer = await openDetails(unsent);
  const labels = await drawer.getByRole('heading', { level: 3 }).allTextContents();
  assert.ok(labels.includes('Payment settled') && labels.includes('Ticket SMS sent'), labels.join(', '));
  assert.match(await drawer.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Ticket SMS sent' }) }).innerText(), /Failed/);
  await drawerShot('live-06-paid-sms-failed');

  await drawer.getByRole('button', { name: 'Resend ticket' }).click();
  await page.getByText('Ticket sent').first().waitFor();
  await drawer.getByRole('heading', { name: 'Ticket resent' }).waitFor();
  assert.equal(await drawer.getByRole('heading', { name: 'Ticket resent' }).count(), 1);
  assert.equal(await drawer.getByRole('button', { name: 'Resend ticket' }).count(), 0);
  await drawer.getByRole('heading', { name: 'Ticket resent' }).scrollIntoViewIfNeeded();
  await drawerShot('live-07-ticket-resent');
  await closeDetails();
  const row = page.getByRole('row').filter({ has: page.locator('[data-field="phoneNumber"]', { hasText: phone }) }).first();
  assert.equal(await row.getByRole('button', { name: 'Resend ticket', exact: true }).count(), 0, 'the row still offers a resend');
});
