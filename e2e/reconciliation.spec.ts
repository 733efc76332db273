import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import { sql } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { buildApp } from '../server/src/app';
import { ensureFirstAdmin } from '../server/src/auth/first-admin';
import { openDatabase, type Database } from '../server/src/db/client';
import { categories, contents, refunds, serviceCodes, transactions } from '../server/src/db/schema';
import { ADMIN, go, launchBrowser, OUTPUT, ROOT, screenshot, setColourMode, signIn } from './harness';

/**
 * Money that reconciles, in the browser: the API runs in this process on an in-memory
 * PGlite serving the built SPA (dist/web). Finance uploads a November statement of 20,000 paid
 * calls and a few problems (upload progress shown on a throttled connection), reads the counts,
 * issues the ticket of a customer who paid and got nothing, sees it on the call's timeline and
 * marks a ticket without money reviewed. axe checks the screen and both dialogs in light and dark;
 * screenshots at 1440 and 412 px in e2e/output.
 */

const DAY = '2026-11-01';
const FILLER = 20_000;
const FAILED_PHONE = '256772000111';
let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>;
let url: string;
let browser: Browser;
let csv: string;
const failedRef = `momo-${crypto.randomUUID()}`;
const noMoneyRef = `momo-${crypto.randomUUID()}`;
const shortRef = `momo-${crypto.randomUUID()}`;
/** The refunds statement's day, after the November one's, and its calls and refunds. */
const REFUND_DAY = '2026-11-05';
const REFUND_PHONE = '256772000555';
const unticketedRef = `momo-${crypto.randomUUID()}`;
const unknownRefundRef = crypto.randomUUID();
let refundCsv: string;
let agreedRefundRef: string;
let missingRefundRef: string;

before(async () => {
  const webRoot = path.join(ROOT, 'dist/web');
  if (!fs.existsSync(path.join(webRoot, 'index.html'))) throw new Error('The SPA is not built: run `npm run build:web` first');
  database = await openDatabase({ dataDir: 'memory' });
  const { db } = database;
  await ensureFirstAdmin(db, ADMIN.userName, ADMIN.password);
  const [category] = await db.insert(categories).values({ name: 'Premier League Tips', ordinary: 1000, vip: 6000 }).returning();
  await db.insert(serviceCodes).values({ name: '*217*4#', categoryId: category.id });
  await db.insert(contents).values({ categoryId: category.id, categoryLevel: 'vip', message: 'VIP tip: Arsenal v Chelsea, home win. Kick-off 17:30.', active: true });
  const call = (values: Partial<typeof transactions.$inferInsert>) => ({
    serviceCode: '*217*4#', phoneNumber: '256772000000', network: 'MTN', categoryId: category.id, categoryLevel: 'vip', amount: 6000, ...values,
  });
  const at = (time: string) => new Date(`${DAY}T${time}Z`);
  await db.insert(transactions).values([
    // Paid at the provider, failed here: the callback never came and the sweeper timed it out.
    call({ phoneNumber: FAILED_PHONE, paymentRef: failedRef, isDeleted: true, messageStatuses: 'Payment timed out', callbackTime: at('10:15:00'), createdAt: at('10:00:00') }),
    // A ticket the provider says it never collected for.
    call({ phoneNumber: '256772000222', paymentRef: noMoneyRef, isComplete: true, messageStatuses: 'Delivered', ticketMessage: 'VIP tip', callbackTime: at('11:00:00'), createdAt: at('10:59:00') }),
    // Sold for 6,000; the provider says it collected 5,000.
    call({ phoneNumber: '256772000444', paymentRef: shortRef, isComplete: true, messageStatuses: 'Delivered', ticketMessage: 'VIP tip', callbackTime: at('13:00:00'), createdAt: at('12:59:00') }),
    // Settled within the statement's day, and not on it.
    call({ phoneNumber: '256772000333', paymentRef: `momo-${crypto.randomUUID()}`, isComplete: true, messageStatuses: 'Delivered', ticketMessage: 'VIP tip', callbackTime: at('12:00:00'), createdAt: at('11:59:00') }),
  ]);
  await db.execute(sql`
    insert into transactions (service_code, phone_number, network, category_id, category_level, amount, payment_ref, is_complete, callback_time, created_at)
    select '*217*4#', '2567' || lpad(i::text, 8, '0'), 'MTN', ${category.id}::uuid, 'vip', 6000, 'filler-' || i, true,
      ${`${DAY}T00:00:00Z`}::timestamptz + i * interval '4 seconds', ${`${DAY}T00:00:00Z`}::timestamptz + i * interval '4 seconds'
    from generate_series(1, ${FILLER}) as i`);
  const line = (reference: string, status: string, time: string) => `${reference},6000.00,UGX,${status},${time}`;
  const filler = Array.from({ length: FILLER }, (_, i) => line(`filler-${i + 1}`, 'SUCCESSFUL', new Date(Date.parse(`${DAY}T00:00:00Z`) + (i + 1) * 4000).toISOString()));
  csv = ['reference,amount,currency,status,completedAt,fee', line(failedRef, 'SUCCESSFUL', `${DAY}T10:00:30Z`), line(noMoneyRef, 'FAILED', `${DAY}T10:59:30Z`), `${shortRef},5000.00,UGX,SUCCESSFUL,${DAY}T12:59:30Z`, ...filler, ...['x1', 'x2', 'x3'].map((r) => line(`unknown-${r}`, 'SUCCESSFUL', `${DAY}T20:00:00Z`))].map((l) => `${l},0`).join('\r\n');
  // The refunds statement: a payment without its ticket, a refund it shows, one it does not know, one it leaves out
  // (the refunded calls were paid in October, outside both statements).
  const onRefundDay = (time: string) => new Date(`${REFUND_DAY}T${time}Z`);
  const refundedCalls = await db
    .insert(transactions)
    .values([
      call({ phoneNumber: REFUND_PHONE, paymentRef: unticketedRef, isDeleted: true, messageStatuses: 'Payment timed out', callbackTime: onRefundDay('08:15:00'), createdAt: onRefundDay('08:00:00') }),
      call({ phoneNumber: '256772000666', paymentRef: `momo-${crypto.randomUUID()}`, isComplete: true, messageStatuses: 'Delivered', ticketMessage: 'VIP tip', callbackTime: new Date('2026-10-20T09:00:00Z'), createdAt: new Date('2026-10-20T08:59:00Z') }),
      call({ phoneNumber: '256772000777', paymentRef: `momo-${crypto.randomUUID()}`, isComplete: true, messageStatuses: 'Delivered', ticketMessage: 'VIP tip', callbackTime: new Date('2026-10-20T09:30:00Z'), createdAt: new Date('2026-10-20T09:29:00Z') }),
    ])
    .returning();
  const [agreed, missing] = await db
    .insert(refunds)
    .values([
      { transactionId: refundedCalls[1].id, amount: 6000, reason: 'duplicate-payment', state: 'completed', settledAt: onRefundDay('10:00:00') },
      { transactionId: refundedCalls[2].id, amount: 3000, reason: 'wrong-ticket', state: 'completed', settledAt: onRefundDay('11:00:00') },
    ])
    .returning();
  agreedRefundRef = agreed.providerRef;
  missingRefundRef = missing.providerRef;
  refundCsv = [
    'type,reference,amount,currency,status,completedAt',
    `payment,${unticketedRef},6000,UGX,SUCCESSFUL,${REFUND_DAY}T08:00:30Z`,
    `REFUND,${agreedRefundRef},6000,UGX,SUCCESSFUL,${REFUND_DAY}T10:00:00Z`,
    `REFUND,${unknownRefundRef},2000,UGX,SUCCESSFUL,${REFUND_DAY}T12:00:00Z`,
  ].join('\r\n');
  app = await buildApp({ db, jwtSecret: crypto.randomUUID(), webRoot });
  url = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await app?.close();
  await database?.close();
});

const problems: string[] = [];

/** axe (WCAG 2.1 A and AA): no serious or critical violation, and no sideways scroll. */
async function audit(page: Page, where: string) {
  await page.waitForTimeout(400);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (overflow > 0) problems.push(`${where}: the page is ${overflow} px wider than the window`);
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  for (const violation of results.violations) {
    if (violation.impact === 'serious' || violation.impact === 'critical') problems.push(`${where}: ${violation.id} at ${violation.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`);
  }
}

async function openScreen(width: number, height: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  await signIn(page, url, ADMIN.userName, ADMIN.password);
  await page.waitForURL(`${url}/transactions`);
  await page.goto(`${url}/reconciliation`);
  await page.getByRole('heading', { name: 'Reconciliation', level: 1 }).waitFor();
  return page;
}

const card = (page: Page, name: RegExp) => page.getByRole('group', { name: 'Rows per kind' }).getByRole('button', { name });
const rowOf = (page: Page, text: string) => page.locator('[role="row"][data-id], li[data-id]').filter({ hasText: text });

/** Light or dark (through /settings), then back to the screen with its counts, as a person would: no reload. */
async function setColourModeHere(page: Page, mode: 'Light' | 'Dark') {
  await setColourMode(page, mode);
  await go(page, '/reconciliation');
  await page.getByRole('heading', { name: 'Reconciliation', level: 1 }).waitFor();
  await card(page, /^Matched/).filter({ hasText: /\d/ }).waitFor();
}

test('finance uploads a statement, reads the counts, issues one ticket and sees it on the call’s timeline', async () => {
  const page = await openScreen(1440, 900);
  await page.getByText('No statement uploaded yet.').waitFor();
  await screenshot(page, 'reconciliation-01-empty-1440');

  // About 1.3 MB over a connection of 300 kB/s: the upload's progress shows on the way.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 300 * 1024 });
  await page.getByLabel('Statement file').setInputFiles({ name: 'momo-november.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByText(/^momo-november\.csv \(1\.\d MB\)$/).waitFor();
  // The page notes each share the bar and its words show together: this process also serves the API,
  // so a look from here may come only after the upload's end, when the bar is gone.
  await page.evaluate(() => {
    const seen: number[] = [];
    Object.assign(window, { uploadShares: seen });
    new MutationObserver(() => {
      const share = Number(document.querySelector('[role="progressbar"][aria-label="Upload progress"]')?.getAttribute('aria-valuenow'));
      if (share > 0 && share < 100 && document.body.textContent?.includes(`Uploading… ${share}%`)) seen.push(share);
    }).observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  await page.getByRole('button', { name: 'Upload' }).click();
  await page.waitForFunction(() => (window as unknown as { uploadShares: number[] }).uploadShares.length > 0, undefined, { timeout: 30_000 });
  await page.screenshot({ path: path.join(OUTPUT, 'reconciliation-02-uploading-1440.png') });
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

  await page.getByText('Statement imported').first().waitFor({ timeout: 60_000 });
  await card(page, /^Paid, no ticket/).filter({ hasText: '1 to act on' }).waitFor();
  assert.match(await card(page, /^Matched/).innerText(), /Matched\s+20,000/);
  assert.match(await card(page, /^Paid, no ticket/).innerText(), /Paid, no ticket\s+1\s+1 to act on/);
  assert.match(await card(page, /^Ticket, no money/).innerText(), /Ticket, no money\s+2\s+2 to act on/);
  assert.match(await card(page, /^Amount mismatch/).innerText(), /Amount mismatch\s+1\s+1 to act on/);
  assert.match(await card(page, /^Unknown reference/).innerText(), /Unknown reference\s+3/);
  await rowOf(page, failedRef).waitFor();
  await page.waitForFunction(() => !document.querySelector('#notistack-snackbar'), undefined, { timeout: 20_000 });
  await screenshot(page, 'reconciliation-03-counts-1440');
  await audit(page, 'light 1440 screen');

  // Issue ticket: confirmed first, then once.
  await rowOf(page, failedRef).getByRole('button', { name: 'Issue ticket' }).click();
  const confirm = page.getByRole('dialog', { name: 'Issue the ticket?' });
  await confirm.waitFor();
  assert.match(await confirm.innerText(), new RegExp(`UGX 6,000 .*${FAILED_PHONE}`, 's'));
  await audit(page, 'light 1440 issue-ticket dialog');
  await screenshot(page, 'reconciliation-04-issue-dialog-1440');
  await confirm.getByRole('button', { name: 'Issue ticket' }).click();
  await page.getByText('Ticket issued', { exact: true }).first().waitFor();
  await rowOf(page, failedRef).getByText(`Ticket issued · ${ADMIN.userName}`).waitFor();
  assert.equal(await rowOf(page, failedRef).getByRole('button', { name: 'Issue ticket' }).count(), 0);
  await card(page, /^Paid, no ticket/).filter({ hasText: 'All acted on' }).waitFor();

  // The call's timeline says who settled it from the statement, and that its ticket went out.
  await rowOf(page, failedRef).getByRole('button', { name: /^Details/ }).click();
  const drawer = page.getByRole('region', { name: 'Call details' });
  await drawer.getByRole('heading', { name: 'Settled from the provider statement' }).waitFor();
  const headings = await drawer.getByRole('heading', { level: 3 }).allTextContents();
  assert.deepEqual(headings.slice(-2), ['Settled from the provider statement', 'Ticket SMS sent']);
  assert.match(await drawer.innerText(), new RegExp(`Settled from the provider statement[\\s\\S]*${ADMIN.userName}[\\s\\S]*momo-november\\.csv`));
  await drawer.getByText('processed', { exact: true }).first().waitFor();
  await page.waitForFunction(() => !document.querySelector('#notistack-snackbar'), undefined, { timeout: 20_000 });
  await screenshot(page, 'reconciliation-05-timeline-1440');
  await page.keyboard.press('Escape');
  await drawer.waitFor({ state: 'hidden' });

  // A ticket without money: reviewed with a note.
  await card(page, /^Ticket, no money/).click();
  await rowOf(page, noMoneyRef).waitFor();
  await rowOf(page, noMoneyRef).getByRole('button', { name: 'Mark reviewed' }).click();
  const review = page.getByRole('dialog', { name: 'Mark reviewed' });
  await review.waitFor();
  await audit(page, 'light 1440 review dialog');
  await review.getByRole('textbox', { name: 'Note' }).fill('MTN confirmed the payment reversed; ticket voided with the customer.');
  await screenshot(page, 'reconciliation-06-review-dialog-1440');
  await review.getByRole('button', { name: 'Mark reviewed' }).click();
  await rowOf(page, noMoneyRef).getByText(`Reviewed · ${ADMIN.userName}`).waitFor();

  // An amount mismatch: selected, reviewed with a note, and the note and reviewer show on the row.
  await card(page, /^Amount mismatch/).click();
  await rowOf(page, shortRef).waitFor();
  await rowOf(page, shortRef).getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Review 1 selected' }).click();
  const reviewMany = page.getByRole('dialog', { name: 'Review 1 row' });
  await reviewMany.waitFor();
  await audit(page, 'light 1440 review-selected dialog');
  await reviewMany.getByRole('textbox', { name: 'Note' }).fill('MTN took a 1,000 promotion off; agreed with finance.');
  await screenshot(page, 'reconciliation-06b-review-selected-1440');
  await reviewMany.getByRole('button', { name: 'Mark reviewed' }).click();
  await reviewMany.waitFor({ state: 'hidden' });
  await rowOf(page, shortRef).getByText(`Reviewed · ${ADMIN.userName}: MTN took a 1,000 promotion off; agreed with finance.`).waitFor();
  await card(page, /^Amount mismatch/).filter({ hasText: 'All acted on' }).waitFor();
  await page.waitForFunction(() => !document.querySelector('#notistack-snackbar'), undefined, { timeout: 20_000 });
  await screenshot(page, 'reconciliation-06c-mismatch-reviewed-1440');

  // The statement picker names the file, its period, uploader and counts, and searches them.
  const picker = page.getByRole('combobox', { name: 'Statement' });
  assert.equal(await picker.inputValue(), 'momo-november.csv');
  await picker.click();
  const option = page.getByRole('option', { name: /momo-november\.csv/ });
  assert.match(await option.innerText(), new RegExp(`momo-november\\.csv\\s+01 November 2026( – 02 November 2026)? · by ${ADMIN.userName} · 20,006 lines · \\d+ to act on`));
  await picker.fill('by admin');
  await option.waitFor();
  // A month neither the statement's period (November) nor its upload day (today) is in.
  const months = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
  const nearToday = new Set([-1, 0, 1].map((step) => months[(new Date().getUTCMonth() + step + 12) % 12]));
  await picker.fill(['march', 'june', 'september'].find((month) => !nearToday.has(month))!);
  await page.getByText('No statement matches').waitFor();
  await page.keyboard.press('Escape');

  // Dark: the screen and both dialogs.
  await setColourModeHere(page, 'Dark');
  await card(page, /^Ticket, no money/).click();
  await rowOf(page, '256772000333').waitFor();
  // A paid call the statement has no line for: no line number, and the statement column says so.
  assert.equal(await rowOf(page, '256772000333').locator('[data-field="line"]').innerText(), '—');
  assert.equal(await rowOf(page, '256772000333').locator('[data-field="status"]').innerText(), 'No line');
  await page.waitForFunction(() => !document.querySelector('#notistack-snackbar'), undefined, { timeout: 20_000 });
  await audit(page, 'dark 1440 screen');
  await screenshot(page, 'reconciliation-07-dark-1440');
  await rowOf(page, '256772000333').getByRole('button', { name: 'Mark reviewed' }).click();
  await review.waitFor();
  await audit(page, 'dark 1440 review dialog');
  await screenshot(page, 'reconciliation-08-dark-review-1440');
  await page.keyboard.press('Escape');
  await review.waitFor({ state: 'hidden' });
  await card(page, /^Paid, no ticket/).click();
  await rowOf(page, failedRef).waitFor();
  await setColourModeHere(page, 'Light');
  await page.context().close();
  assert.deepEqual(problems, []);
});

test('the screen on a 412 px phone, light and dark, with its dialogs', async () => {
  const page = await openScreen(412, 915);
  await card(page, /^Paid, no ticket/).waitFor();
  await card(page, /^Ticket, no money/).click();
  await rowOf(page, '256772000333').waitFor();
  await audit(page, 'light 412 screen');
  await screenshot(page, 'reconciliation-09-phone-412');
  await rowOf(page, '256772000333').getByRole('button', { name: 'Mark reviewed' }).click();
  await page.getByRole('dialog', { name: 'Mark reviewed' }).waitFor();
  await audit(page, 'light 412 review dialog');
  await screenshot(page, 'reconciliation-10-phone-review-412');
  await page.keyboard.press('Escape');
  await page.getByRole('dialog', { name: 'Mark reviewed' }).waitFor({ state: 'hidden' });
  await setColourModeHere(page, 'Dark');
  await card(page, /^Ticket, no money/).click();
  await rowOf(page, '256772000333').waitFor();
  await audit(page, 'dark 412 screen');
  await screenshot(page, 'reconciliation-11-phone-dark-412');
  await page.context().close();
  assert.deepEqual(problems, []);
});

test('a manager voids the statement with a reason: it shows as voided, offers nothing to act on and leaves the list', async () => {
  const page = await openScreen(1440, 900);
  await card(page, /^Paid, no ticket/).waitFor();
  await page.getByRole('button', { name: 'Void statement' }).click();
  const dialog = page.getByRole('dialog', { name: 'Void the statement?' });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Void statement' }).click();
  await dialog.getByText('Please say why the statement is voided').waitFor();
  await audit(page, 'light 1440 void dialog');
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('MTN sent a corrected November statement; this one double-counts the 1st.');
  await screenshot(page, 'reconciliation-12-void-dialog-1440');
  await dialog.getByRole('button', { name: 'Void statement' }).click();
  await dialog.waitFor({ state: 'hidden' });

  const notice = page.getByRole('alert', { name: 'Voided statement' });
  await notice.waitFor();
  assert.match(await notice.innerText(), new RegExp(`Voided by ${ADMIN.userName} on .*: “MTN sent a corrected November statement; this one double-counts the 1st\\.” It no longer counts`));
  assert.match(await card(page, /^Ticket, no money/).innerText(), /^Ticket, no money\s+2\s*$/);
  assert.equal(await page.getByRole('switch', { name: 'Voided statements' }).isChecked(), true);
  assert.equal(await page.getByRole('button', { name: 'Void statement' }).count(), 0);
  await card(page, /^Ticket, no money/).click();
  await rowOf(page, '256772000333').waitFor();
  assert.equal(await rowOf(page, '256772000333').getByRole('button', { name: 'Mark reviewed' }).count(), 0);
  await page.waitForFunction(() => !document.querySelector('#notistack-snackbar'), undefined, { timeout: 20_000 });
  await audit(page, 'light 1440 voided statement');
  await screenshot(page, 'reconciliation-13-voided-1440');

  // The standing statements: none is left.
  await page.getByRole('switch', { name: 'Voided statements' }).click();
  await page.getByText('No statement uploaded yet.').waitFor();
  await page.context().close();
  assert.deepEqual(problems, []);
});

test("refund lines: their own kinds, and 'Refund' on a paid-no-ticket row gives the money back instead of a ticket", async () => {
  const page = await openScreen(1440, 900);
  await page.getByLabel('Statement file').setInputFiles({ name: 'momo-refunds.csv', mimeType: 'text/csv', buffer: Buffer.from(refundCsv) });
  await page.getByRole('button', { name: 'Upload' }).click();
  await page.getByText('Statement imported').first().waitFor({ timeout: 60_000 });
  await card(page, /^Paid, no ticket/).filter({ hasText: '1 to act on' }).waitFor();
  assert.match(await card(page, /^Matched/).innerText(), /Matched\s+1/);
  assert.match(await card(page, /^Unknown refund/).innerText(), /Unknown refund\s+1\s+1 to act on/);
  assert.match(await card(page, /^Refund missing/).innerText(), /Refund missing\s+1\s+1 to act on/);
  assert.match(await card(page, /^Refund mismatch/).innerText(), /Refund mismatch\s+0/);

  // 'Refund' beside 'Issue ticket': the call's refund dialog, for the whole amount by default.
  const row = rowOf(page, unticketedRef);
  await row.getByRole('button', { name: 'Issue ticket' }).waitFor();
  await row.getByRole('button', { name: `Refund the call of reference ${unticketedRef}` }).click();
  const dialog = page.getByRole('dialog', { name: `Refund the call from ${REFUND_PHONE}` });
  await dialog.waitFor();
  assert.equal(await dialog.getByRole('spinbutton', { name: 'Amount (UGX)' }).inputValue(), '6000');
  await audit(page, 'light 1440 refund dialog');
  await dialog.getByRole('combobox', { name: /^Reason/ }).click();
  await page.getByRole('option', { name: 'Ticket not delivered' }).click();
  await screenshot(page, 'reconciliation-14-refund-dialog-1440');
  await dialog.getByRole('button', { name: 'Request refund' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await row.getByText('Awaiting approval · UGX 6,000').waitFor();
  assert.equal(await row.getByRole('button', { name: 'Issue ticket' }).count(), 0);
  await page.waitForFunction(() => !document.querySelector('#notistack-snackbar'), undefined, { timeout: 20_000 });
  await audit(page, 'light 1440 refunded row');
  await screenshot(page, 'reconciliation-15-refund-requested-1440');

  // The refund the statement left out: no line, its refund and call shown, reviewed with a note.
  await card(page, /^Refund missing/).click();
  const missingRow = rowOf(page, missingRefundRef);
  await missingRow.waitFor();
  assert.equal(await missingRow.locator('[data-field="type"]').innerText(), 'Refund');
  assert.equal(await missingRow.locator('[data-field="refund"]').innerText(), 'Completed · UGX 3,000');
  await missingRow.getByRole('button', { name: 'Mark reviewed' }).click();
  const review = page.getByRole('dialog', { name: 'Mark reviewed' });
  await review.getByRole('textbox', { name: 'Note' }).fill('On MTN’s December statement; paid out on the 30th.');
  await review.getByRole('button', { name: 'Mark reviewed' }).click();
  await missingRow.getByText(`Reviewed · ${ADMIN.userName}`).waitFor();

  await setColourModeHere(page, 'Dark');
  await card(page, /^Unknown refund/).click();
  await rowOf(page, unknownRefundRef).waitFor();
  await page.waitForFunction(() => !document.querySelector('#notistack-snackbar'), undefined, { timeout: 20_000 });
  await audit(page, 'dark 1440 unknown refunds');
  await screenshot(page, 'reconciliation-16-unknown-refund-dark-1440');
  await setColourModeHere(page, 'Light');
  await page.context().close();

  const phone = await openScreen(412, 915);
  await card(phone, /^Refund missing/).click();
  await rowOf(phone, missingRefundRef).waitFor();
  await audit(phone, 'light 412 refund rows');
  await screenshot(phone, 'reconciliation-17-refund-missing-412');
  await phone.context().close();
  assert.deepEqual(problems, []);
});
