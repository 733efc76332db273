import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import moment from 'moment-timezone';
import type { Browser, Page } from 'playwright-core';
import { DEMO_SUPER_USER } from '../server/src/db/seed-data';
import { ADMIN, chooseServiceCode, launchBrowser, listRows, screenshot, signIn, startServer, type RunningServer } from './harness';

/**
 * The manager's views: a list's service code, day and page live in the URL, so a reload
 * keeps the view, a copied link opens it for a colleague, and Back and Forward walk through views.
 */

let server: RunningServer;
let browser: Browser;
let page: Page;

// Yesterday in the service zone is a whole day of demo calls: more than one page for a code.
const yesterday = moment().tz('Africa/Kampala').subtract(1, 'day');
const today = moment().tz('Africa/Kampala');
const CODE = '*217*2#';
const DAY = yesterday.format('YYYY-MM-DD');

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const query = (on: Page) => Object.fromEntries(new URL(on.url()).searchParams);

/** What a person sees of the view: the heading, the chosen code, the footer and the first row's caller. */
async function shownView(on: Page) {
  const footer = on.getByText(/^Showing \d+ out of \d+ entries$/);
  await footer.waitFor();
  // Settled: nothing loading, and the heading's count is the footer's (both from the latest answer).
  await on.waitForFunction(() => {
    const total = /\( (\d+) \)$/.exec(document.querySelector('h1')?.textContent?.trim() ?? '')?.[1];
    const footer = /out of (\d+) entries/.exec(document.body.innerText)?.[1];
    return !document.querySelector('main [aria-busy="true"]') && total !== undefined && total === footer;
  });
  return {
    heading: await on.getByRole('heading', { level: 1 }).innerText(),
    code: await on.getByRole('combobox', { name: 'Service code' }).evaluate((field) => (field instanceof HTMLInputElement ? field.value : field.textContent)),
    footer: await footer.innerText(),
    firstCaller: await listRows(on).first().locator('[data-field="phoneNumber"]').innerText(),
    firstNumber: await listRows(on).first().locator('[data-field="__number"]').innerText(),
  };
}

/** Waits for the view the URL gives to be on the screen. */
async function viewOf(on: Page, day: moment.Moment, pageNumber: number) {
  await on.getByRole('heading', { name: new RegExp(`^Transactions for ${day.format('DD MMMM YYYY')} \\( \\d+ \\)$`) }).waitFor();
  await listRows(on).first().locator('[data-field="__number"]').filter({ hasText: new RegExp(`^${(pageNumber - 1) * 50 + 1}$`) }).waitFor();
  return shownView(on);
}

test('a view survives reload, opens from a copied link for a colleague, and Back and Forward walk through views', async () => {
  await signIn(page, server.url, ADMIN.userName, ADMIN.password);
  await page.waitForURL(`${server.url}/transactions`);
  assert.deepEqual(query(page), {}, 'a plain visit keeps a plain URL');

  // Day, then code, then page 2: three views, three history entries.
  await page.getByRole('textbox', { name: 'Date' }).fill(yesterday.format('MM/DD/YYYY'));
  await page.waitForURL((url) => url.searchParams.get('date') === DAY);
  const dayView = await viewOf(page, yesterday, 1);
  await chooseServiceCode(page, CODE);
  await page.waitForURL((url) => url.searchParams.get('name') === CODE);
  const codeView = await viewOf(page, yesterday, 1);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.waitForURL((url) => url.searchParams.get('page') === '2');
  const view = await viewOf(page, yesterday, 2);
  assert.deepEqual(query(page), { name: CODE, date: DAY, page: '2' });
  assert.equal(view.code, CODE);
  await screenshot(page, 'views-01-page-2-1440-light');

  await page.reload();
  assert.deepEqual(await viewOf(page, yesterday, 2), view, 'a reload keeps the view');

  // A colleague (the super-user, who may read every code) opens the copied link.
  const link = page.url();
  const colleagueContext = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const colleague = await colleagueContext.newPage();
  await signIn(colleague, server.url, DEMO_SUPER_USER.userName, DEMO_SUPER_USER.password);
  await colleague.waitForURL(`${server.url}/transactions`);
  await colleague.goto(link);
  assert.deepEqual(await viewOf(colleague, yesterday, 2), view, 'the link opens the same view for a colleague');
  // The same link on a phone, in dark mode.
  await colleague.setViewportSize({ width: 412, height: 915 });
  await colleague.goto(`${server.url}/settings`);
  await colleague.getByRole('main').getByRole('button', { name: 'Dark', exact: true }).click();
  await colleague.goto(link);
  await colleague.getByRole('heading', { name: new RegExp(`^Transactions for ${yesterday.format('DD MMMM YYYY')}`) }).waitFor();
  await colleague.getByText(view.footer).waitFor();
  await listRows(colleague).first().waitFor();
  await screenshot(colleague, 'views-02-copied-link-412-dark');
  await colleagueContext.close();

  // Back walks back through the views, Forward again.
  await page.goBack();
  assert.deepEqual(await viewOf(page, yesterday, 1), codeView);
  assert.deepEqual(query(page), { name: CODE, date: DAY });
  await page.goBack();
  assert.deepEqual(await viewOf(page, yesterday, 1), dayView);
  assert.equal(query(page).date, DAY);
  await page.goBack();
  await page.getByRole('heading', { name: new RegExp(`^Transactions for ${today.format('DD MMMM YYYY')}`) }).waitFor();
  assert.deepEqual(query(page), {});
  await page.goForward();
  assert.deepEqual(await viewOf(page, yesterday, 1), dayView);
  await page.goForward();
  assert.deepEqual(await viewOf(page, yesterday, 1), codeView);
  await page.goForward();
  assert.deepEqual(await viewOf(page, yesterday, 2), view);
  assert.deepEqual(query(page), { name: CODE, date: DAY, page: '2' });
});

test('garbage in the URL falls back to the default view', async () => {
  await page.goto(`${server.url}/transactions?name=%3Cscript%3E&date=2024-02-30&page=99999999999`);
  await page.getByRole('heading', { name: new RegExp(`^Transactions for ${today.format('DD MMMM YYYY')} \\( \\d+ \\)$`) }).waitFor();
  const code = await page.getByRole('combobox', { name: 'Service code' }).evaluate((field) => (field instanceof HTMLInputElement ? field.value : field.textContent));
  assert.notEqual(code, '<script>');
  await page.getByRole('textbox', { name: 'Date' }).fill(yesterday.format('MM/DD/YYYY'));
  // The first change writes a clean view: the garbage is gone.
  await page.waitForURL((url) => url.searchParams.get('date') === DAY);
  assert.deepEqual(Object.keys(query(page)).sort(), ['date', 'name']);
  assert.notEqual(query(page).name, '<script>');
});
