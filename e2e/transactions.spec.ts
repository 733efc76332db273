import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import moment from 'moment-timezone';
import type { Browser, Page } from 'playwright-core';
import { DEMO_AGENT_PASSWORD, DEMO_AGENTS } from '../server/src/db/seed-data';
import { ADMIN, launchBrowser, screenshot, signIn, startServer, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;
let page: Page;

// Yesterday in the service zone is a whole day of demo calls.
const yesterday = moment().tz('Africa/Kampala').subtract(1, 'day');

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Types the day into the date field, as MM/DD/YYYY. */
async function typeDay(day: moment.Moment) {
  await page.getByRole('textbox', { name: 'Date' }).fill(day.format('MM/DD/YYYY'));
  await page.getByRole('heading', { name: new RegExp(`for ${day.format('DD MMMM YYYY')}`) }).waitFor();
}

/** Opens the calendar (loaded on first opening) on today's month and picks the day, an earlier one. */
async function pickDay(day: moment.Moment, screenshotName: string) {
  await page.getByRole('button', { name: 'Choose date' }).click();
  const calendar = page.getByRole('dialog', { name: 'Date' });
  await calendar.waitFor();
  const today = moment().tz('Africa/Kampala');
  for (let months = today.diff(day.clone().startOf('month'), 'months'); months > 0; months -= 1) {
    await calendar.getByRole('button', { name: 'Previous month' }).click();
  }
  await calendar.getByText(day.format('MMMM YYYY')).waitFor();
  await screenshot(page, screenshotName);
  await calendar.getByRole('gridcell', { name: String(day.date()), exact: true }).click();
  await calendar.waitFor({ state: 'hidden' });
  await page.getByRole('heading', { name: new RegExp(`for ${day.format('DD MMMM YYYY')}`) }).waitFor();
}

test('a support agent resolves failed calls row by row', async () => {
  await signIn(page, server.url, DEMO_AGENTS[0], DEMO_AGENT_PASSWORD);
  await page.waitForURL(`${server.url}/transactions`);
  await page.getByRole('navigation').getByRole('link', { name: /failed/i }).first().click();
  await page.waitForURL(`${server.url}/failed`);
  await page.getByText(/Clients with failed transactions are engaged/).waitFor();
  await typeDay(yesterday);
  const toResolve = page.getByRole('row').filter({ has: page.getByRole('button', { name: 'Resolve', exact: true }) });
  await toResolve.first().waitFor();
  await screenshot(page, 'transactions-01-failed-before');
  for (let i = 0; i < 3; i += 1) {
    const before = await toResolve.count();
    const row = toResolve.first();
    const phone = (await row.locator('[data-field="phoneNumber"]').innerText()).trim();
    await row.getByRole('button', { name: 'Resolve', exact: true }).click();
    await page.getByText('Resolved', { exact: true }).first().waitFor();
    const resolvedRow = page.getByRole('row').filter({ hasText: phone }).first();
    await resolvedRow.getByRole('button', { name: 'Resolved' }).waitFor();
    assert.equal(await resolvedRow.locator('[data-field="isResolved"]').innerText(), 'Yes');
    assert.equal(await toResolve.count(), before - 1);
  }
  await screenshot(page, 'transactions-02-failed-resolved');
});

test('a manager switches service codes and dates', async () => {
  await page.getByRole('button', { name: /logout/i }).first().click();
  await page.waitForURL(`${server.url}/`);
  await signIn(page, server.url, ADMIN.userName, ADMIN.password);
  await page.waitForURL(`${server.url}/transactions`);
  await page.getByRole('combobox', { name: 'Service code' }).click();
  await page.getByRole('option', { name: '*217*2#' }).click();
  await page.getByText('*217*2#', { exact: true }).nth(1).waitFor();
  await pickDay(yesterday, 'transactions-03-calendar-open');
  const heading = await page.getByRole('heading', { name: /Transactions for/ }).innerText();
  assert.match(heading, new RegExp(`Transactions for ${yesterday.format('DD MMMM YYYY')} \\( [1-9]\\d* \\)`));
  await page.getByText(/Showing 50 out of/).waitFor();
  await screenshot(page, 'transactions-04-manager-code-and-day');
  await page.getByRole('navigation').getByRole('link', { name: 'Dashboard', exact: true }).first().click();
  // The menu's link carries the code and day chosen.
  await page.waitForURL((url) => url.pathname === '/dashboard');
  const carried = new URL(page.url()).searchParams;
  assert.equal(carried.get('name'), '*217*2#');
  assert.equal(carried.get('date'), yesterday.format('YYYY-MM-DD'));
  await page.getByRole('region', { name: 'Calls per hour' }).waitFor();
  await screenshot(page, 'transactions-05-dashboard');
});
