import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { buildApp } from '../server/src/app';
import { ensureFirstAdmin } from '../server/src/auth/first-admin';
import { hashPassword } from '../server/src/auth/passwords';
import { openDatabase, type Database } from '../server/src/db/client';
import { categories, serviceCodes, transactionEvents, transactions, users } from '../server/src/db/schema';
import { paymentProviderFor } from '../server/src/providers/payment-from-config';
import type { SmsProvider } from '../server/src/providers/sms';
import { ADMIN, assertAccessible, go, launchBrowser, listRows, ROOT, screenshot, setColourMode, settled, signIn, viewportShot } from './harness';

/**
 * Refunds in the browser: the API in this process on an in-memory PGlite serving the built SPA
 * (dist/web), the local payment provider refunding after 300 ms. Customer care requests a refund of
 * a paid call from its Details, an admin approves it on /refunds from the keyboard, and the call's
 * timeline shows every step up to the customer's SMS. axe on /refunds and the dialog; screenshots at
 * 1440 and 412 px, light and dark, in e2e/output.
 */

const PHONE = '256772765432';
const CARE = { userName: 'care-desk', password: 'e2e-care-password' };
const sentSms: { phoneNumber: string; message: string }[] = [];
let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>;
let url: string;
let browser: Browser;

before(async () => {
  const webRoot = path.join(ROOT, 'dist/web');
  if (!fs.existsSync(path.join(webRoot, 'index.html'))) throw new Error('The SPA is not built: run `npm run build:web` first');
  database = await openDatabase({ dataDir: 'memory' });
  const { db } = database;
  await ensureFirstAdmin(db, ADMIN.userName, ADMIN.password);
  await db.insert(users).values({ userName: CARE.userName, role: 'customer-care', passwordHash: await hashPassword(CARE.password) });
  const [category] = await db.insert(categories).values({ name: 'Premier League Tips', ordinary: 1000, vip: 5000 }).returning();
  await db.insert(serviceCodes).values({ name: '*217*4#', categoryId: category.id });
  const [call] = await db.insert(transactions).values({
    serviceCode: '*217*4#',
    phoneNumber: PHONE,
    network: 'MTN',
    categoryId: category.id,
    categoryLevel: 'vip',
    amount: 5000,
    paymentRef: crypto.randomUUID(),
    isComplete: true,
    callbackTime: new Date(Date.now() - 60_000),
    messageStatuses: 'Delivered',
    ticketMessage: 'VIP tip: Arsenal v Chelsea, home win.',
    createdAt: new Date(Date.now() - 90_000),
  }).returning();
  // The sale's own steps, so the refund's follow them on the timeline.
  const at = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000);
  await db.insert(transactionEvents).values([
    { transactionId: call.id, kind: 'payment_requested', actor: 'system', detail: { amount: 5000, provider: 'local' }, createdAt: at(90) },
    { transactionId: call.id, kind: 'payment_settled', actor: 'provider:local', detail: { status: 'SUCCESSFUL', via: 'callback' }, createdAt: at(60) },
    { transactionId: call.id, kind: 'sms_sent', actor: 'system', detail: { status: 'Sent', provider: 'local' }, createdAt: at(59) },
  ]);
  const sms: SmsProvider = {
    name: 'local',
    async send(message) {
      sentSms.push(message);
      return { status: 'sent', providerRef: `e2e-${sentSms.length}` };
    },
  };
  const payment = paymentProviderFor({ kind: 'local', delayMs: 300, failRate: 0, refundFailRate: 0 }, () => {});
  app = await buildApp({ db, jwtSecret: crypto.randomUUID(), webRoot, providers: { sms, payment } });
  url = await app.listen({ port: Number(process.env.E2E_PORT ?? 4401), host: '127.0.0.1' });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await app?.close();
  await database?.close();
});

async function signedIn(user: { userName: string; password: string }, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await signIn(page, url, user.userName, user.password);
  await page.waitForURL(`${url}/transactions`);
  return page;
}

/** The paid call in the search, found by its phone number. */
async function searchCall(page: Page) {
  await go(page, '/search');
  await page.getByRole('textbox', { name: 'Phone number' }).fill(PHONE);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByText('Showing 1 out of 1 entries').waitFor();
}

/** The Details of the call the search shows. */
async function detailsOfFound(page: Page) {
  await page.getByRole('button', { name: /^Details/ }).click();
  const drawer = page.getByRole('region', { name: 'Call details' });
  await drawer.getByRole('list', { name: 'Timeline' }).waitFor();
  return drawer;
}

/** The paid call's Details, found by its phone number. */
async function openDetails(page: Page) {
  await searchCall(page);
  return detailsOfFound(page);
}

test('customer care requests a refund from Details, an admin approves it by keyboard, and the timeline shows it to the SMS', async () => {
  const care = await signedIn(CARE, { width: 1440, height: 900 });
  // The search's row offers the same Refund as Details while something is left to refund (looked at
  // before Details opens: the drawer narrows the grid, which then leaves its last columns undrawn).
  await searchCall(care);
  await listRows(care).getByRole('button', { name: `Refund the call from ${PHONE}` }).waitFor();
  let drawer = await openDetails(care);
  await drawer.getByRole('button', { name: 'Refund' }).click();
  const dialog = care.getByRole('dialog', { name: `Refund the call from ${PHONE}` });
  await dialog.waitFor();
  assert.equal(await dialog.getByRole('spinbutton', { name: 'Amount (UGX)' }).inputValue(), '5000');
  await dialog.getByRole('combobox', { name: 'Reason' }).click();
  await care.getByRole('option', { name: 'Ticket not delivered' }).click();
  await dialog.getByRole('textbox', { name: 'Note (optional)' }).fill('Customer says the SMS never came');
  await assertAccessible(care, 'the refund dialog');
  await viewportShot(care, 'refunds-01-dialog-1440');
  await dialog.getByRole('button', { name: 'Request refund' }).click();
  await care.getByText('Refund requested').first().waitFor();
  await drawer.getByRole('heading', { level: 3, name: 'Refund requested' }).waitFor();
  await care.context().close();

  const admin = await signedIn(ADMIN, { width: 1440, height: 900 });
  await go(admin, '/refunds');
  await admin.getByRole('heading', { level: 1, name: 'Refunds' }).waitFor();
  const queue = admin.getByRole('list', { name: 'Refunds, awaiting approval first' });
  await queue.getByText('Awaiting approval').waitFor();
  await assertAccessible(admin, '/refunds');
  await screenshot(admin, 'refunds-02-queue-1440-light');
  await admin.keyboard.press('j');
  await admin.locator('li[aria-current="true"]').waitFor();
  await admin.keyboard.press('a');
  await admin.getByText(/^Refund approved/).first().waitFor();
  // The local provider completes it after 300 ms; the live stream reads the queue again.
  await queue.getByText('Completed').waitFor({ timeout: 20_000 });
  await screenshot(admin, 'refunds-03-completed-1440-light');
  // The queue as CSV: the completed refund with who asked and who decided.
  const [download] = await Promise.all([admin.waitForEvent('download'), admin.getByRole('button', { name: 'Export CSV' }).click()]);
  assert.equal(download.suggestedFilename(), 'refunds-all.csv');
  const csv = fs.readFileSync(await download.path(), 'utf8').trimEnd().split('\r\n');
  assert.match(csv[0], /^Requested at,Service code,From,Call amount,Amount,Reason,Note,State,Requested by,Decided by,/);
  assert.equal(csv.length, 2);
  assert.match(csv[1], new RegExp(`,\\*217\\*4#,${PHONE},5000,5000,Ticket not delivered,Customer says the SMS never came,Completed,${CARE.userName},${ADMIN.userName},`));

  // Refunded in full: the search's row has nothing left to offer, and Details is still one click away.
  await searchCall(admin);
  await listRows(admin).getByRole('button', { name: /^Details of the call from / }).waitFor();
  assert.equal(await listRows(admin).getByRole('button', { name: /^Refund the call from / }).count(), 0);
  // From the rows on show: searching again on /search first clears the search (its URL loses the
  // query), and a slow page could clear the number typed after it.
  drawer = await detailsOfFound(admin);
  await drawer.getByRole('heading', { level: 3, name: 'Refund SMS sent' }).waitFor({ timeout: 20_000 });
  const labels = (await drawer.getByRole('heading', { level: 3 }).allTextContents()).filter((label) => label.startsWith('Refund'));
  assert.deepEqual(labels, ['Refund requested', 'Refund approved', 'Refund sent to the provider', 'Refund completed', 'Refund SMS sent']);
  await drawer.getByText('UGX 5,000', { exact: true }).first().waitFor();
  await drawer.getByRole('heading', { level: 3, name: 'Refund SMS sent' }).scrollIntoViewIfNeeded();
  await settled(admin);
  await viewportShot(admin, 'refunds-04-timeline-1440');
  assert.deepEqual(sentSms, [{ phoneNumber: PHONE, message: 'UGX 5,000 for your VIP ticket has been refunded.' }]);
  await admin.context().close();
});

test('the queue at 1440 and 412 px, light and dark, is accessible and never scrolls sideways', async () => {
  for (const mode of ['Light', 'Dark'] as const) {
    for (const viewport of [
      { width: 1440, height: 900 },
      { width: 412, height: 915 },
    ]) {
      const page = await signedIn(ADMIN, viewport);
      await setColourMode(page, mode);
      await go(page, '/refunds');
      await page.getByRole('list', { name: 'Refunds, awaiting approval first' }).waitFor();
      await page.waitForFunction(() => !document.querySelector('#notistack-snackbar'), undefined, { timeout: 20_000 });
      await assertAccessible(page, `/refunds ${viewport.width} ${mode}`);
      await screenshot(page, `refunds-05-queue-${viewport.width}-${mode.toLowerCase()}`);
      await page.context().close();
    }
  }
});
