import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { buildApp } from '../server/src/app';
import { ensureFirstAdmin } from '../server/src/auth/first-admin';
import { openDatabase, type Database } from '../server/src/db/client';
import { categories, serviceCodes, transactionEvents, transactions } from '../server/src/db/schema';
import { ADMIN, launchBrowser, OUTPUT, ROOT, screenshot, settled, signIn } from './harness';

/**
 * 'Details' and 'Resend ticket' in the browser: the API runs in this process on an
 * in-memory PGlite serving the built SPA (dist/web), with one paid call whose ticket SMS failed and
 * the timeline ingestion leaves behind. Screenshots at 1280 and 390 px in e2e/output.
 */

const PHONE = '256772123456';
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
  const [category] = await db.insert(categories).values({ name: 'Premier League Tips', ordinary: 1000, vip: 6000 }).returning();
  await db.insert(serviceCodes).values({ name: '*217*4#', categoryId: category.id });
  const start = Date.now() - 5 * 60_000;
  const at = (seconds: number) => new Date(start + seconds * 1000);
  const reference = crypto.randomUUID();
  const [call] = await db
    .insert(transactions)
    .values({
      serviceCode: '*217*4#',
      phoneNumber: PHONE,
      network: 'MTN',
      categoryId: category.id,
      categoryLevel: 'vip',
      amount: 6000,
      sessionId: 'ATUid_e2e_timeline',
      paymentRef: reference,
      isComplete: true,
      callbackTime: at(41),
      messageStatuses: 'Failed',
      ticketMessage: 'VIP tip: Arsenal v Chelsea, home win. Kick-off 17:30.',
      createdAt: at(9),
    })
    .returning();
  const hop = (seconds: number, input: string, reply: string) => ({
    transactionId: call.id, sessionId: 'ATUid_e2e_timeline', kind: 'ussd_hop', actor: 'customer', detail: { input, reply }, createdAt: at(seconds),
  });
  await db.insert(transactionEvents).values([
    hop(0, '', 'CON Premier League Tips\n1. Ordinary UGX 1,000\n2. VIP UGX 6,000\n98. More'),
    hop(6, '2', 'CON Pay UGX 6,000 for VIP (Premier League Tips)?\n1. Confirm\n2. Cancel'),
    hop(9, '2*1', 'END Please approve the payment of UGX 6,000 on your phone.'),
    { transactionId: call.id, kind: 'payment_requested', actor: 'system', detail: { amount: 6000, provider: 'local' }, createdAt: at(9) },
    { transactionId: call.id, kind: 'payment_callback', actor: 'provider:local', detail: { status: 'SUCCESSFUL', reference }, createdAt: at(41) },
    { transactionId: call.id, kind: 'payment_settled', actor: 'provider:local', detail: { status: 'processed' }, createdAt: at(41) },
    { transactionId: call.id, kind: 'sms_sent', actor: 'system', detail: { status: 'Failed', provider: 'local', failureReason: 'Handset unreachable' }, createdAt: at(42) },
  ]);
  app = await buildApp({ db, jwtSecret: crypto.randomUUID(), webRoot });
  // A port of this worktree's range (4500–4599), or PORT when given.
  url = await app.listen({ port: Number(process.env.PORT ?? 4531), host: '127.0.0.1' });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await app?.close();
  await database?.close();
});

/** The drawer as a person sees it: the viewport once the search's toast has gone (the drawer does not scroll the page). */
async function drawerShot(page: Page, name: string) {
  await page.waitForFunction(() => !document.querySelector('#notistack-snackbar'), undefined, { timeout: 20_000 });
  await settled(page);
  await page.screenshot({ path: path.join(OUTPUT, `${name}.png`) });
}

async function openDetails(width: number, height: number): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height } });
  await signIn(page, url, ADMIN.userName, ADMIN.password);
  await page.waitForURL(`${url}/transactions`);
  await page.goto(`${url}/search`);
  await page.getByRole('textbox', { name: 'Phone number' }).fill(PHONE);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByText('Showing 1 out of 1 entries').waitFor();
  await page.getByRole('button', { name: /^Details/ }).click();
  await page.getByRole('region', { name: 'Call details' }).getByRole('list', { name: 'Timeline' }).waitFor();
  return page;
}

test('support opens a paid call whose ticket SMS failed, reads its timeline and resends the ticket', async () => {
  const page = await openDetails(1280, 900);
  await page.keyboard.press('Escape');
  await page.getByRole('region', { name: 'Call details' }).waitFor({ state: 'hidden' });
  await screenshot(page, 'timeline-01-search-row-1280');

  await page.getByRole('button', { name: /^Details/ }).click();
  const drawer = page.getByRole('region', { name: 'Call details' });
  await drawer.getByRole('list', { name: 'Timeline' }).waitFor();
  const labels = await drawer.getByRole('heading', { level: 3 }).allTextContents();
  assert.deepEqual(labels, ['USSD hop', 'USSD hop', 'USSD hop', 'Payment requested', 'Payment callback received', 'Payment settled', 'Ticket SMS sent']);
  await drawerShot(page, 'timeline-02-drawer-1280');

  await drawer.getByRole('button', { name: 'Resend ticket' }).click();
  await page.getByText('Ticket sent').first().waitFor();
  await drawer.getByRole('heading', { name: 'Ticket resent' }).waitFor();
  await drawer.getByRole('heading', { name: 'Ticket resent' }).scrollIntoViewIfNeeded();
  assert.equal(await drawer.getByRole('button', { name: 'Resend ticket' }).count(), 0);
  await drawerShot(page, 'timeline-03-resent-1280');
  await page.close();
});

test('the drawer takes the whole width of a phone', async () => {
  const page = await openDetails(390, 844);
  const drawer = page.getByRole('region', { name: 'Call details' });
  const box = await drawer.boundingBox();
  assert.ok(box && box.width >= 380, `drawer is ${box?.width} px wide`);
  await drawerShot(page, 'timeline-04-drawer-390');
  await page.close();
});
