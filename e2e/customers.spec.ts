import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ADMIN, assertAccessible, go, launchBrowser, listRows, screenshot, setColourMode, signIn, startServer, type RunningServer } from './harness';

/**
 * The customer page, the top bar's search, ranges of days and the monthly report: a customer is
 * opened from a list's phone number and shows its figures and calls with a call's timeline one
 * click away; every new screen is checked with axe and shot at 1440 and 412 px, light and dark, in
 * e2e/output (customers-*).
 */

let server: RunningServer;
let browser: Browser;
let desk: Page;
let phone: Page;

async function signedIn(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await signIn(page, server.url, ADMIN.userName, ADMIN.password);
  await page.waitForURL(`${server.url}/transactions`);
  return page;
}

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  desk = await signedIn(await browser.newContext({ viewport: { width: 1440, height: 900 } }));
  phone = await signedIn(await browser.newContext({ viewport: { width: 412, height: 915 } }));
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** Waits for the customer page of `number` with its figures and at least one call. */
async function customerShown(page: Page, number: string) {
  await page.waitForURL(new RegExp(`/customers/${number}`));
  await page.getByRole('heading', { level: 1, name: new RegExp(`Customer ${number}`) }).waitFor();
  const figures = page.getByRole('group', { name: 'Customer figures' });
  await figures.getByRole('region', { name: 'Calls' }).waitFor();
  await listRows(page.getByRole('main')).first().waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => !document.querySelector('main [aria-busy="true"]'));
  const calls = await figures.getByRole('region', { name: 'Calls' }).locator('p').innerText();
  assert.ok(Number(calls.replace(/,/g, '')) >= 1, `the figures count the calls (${calls})`);
}

/** The call's Details drawer, its timeline loaded (demo calls may have no events: then it says so). */
async function timelineShown(page: Page) {
  const drawer = page.getByRole('region', { name: 'Call details' });
  await drawer.getByRole('heading', { name: 'Timeline' }).waitFor();
  await drawer.getByRole('list', { name: 'Timeline' }).or(drawer.getByText('No events recorded for this call yet.')).waitFor();
  return drawer;
}

/** Opens the customer of the first row's phone number on the list at `route`. */
async function openFromList(page: Page, route: string): Promise<string> {
  await go(page, route);
  const link = page.getByRole('main').getByRole('link', { name: /^256\d{9}$/ }).first();
  await link.waitFor({ timeout: 30_000 });
  const number = (await link.innerText()).trim();
  await link.click();
  await customerShown(page, number);
  return number;
}

async function bothModes(page: Page, route: string, name: string, where: string, check?: () => Promise<void>) {
  for (const mode of ['Light', 'Dark'] as const) {
    await setColourMode(page, mode);
    await go(page, route);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await listRows(page.getByRole('main')).first().waitFor({ timeout: 30_000 });
    await page.waitForFunction(() => !document.querySelector('main [aria-busy="true"]'));
    await check?.();
    await screenshot(page, `${name}-${mode.toLowerCase()}`);
    await assertAccessible(page, `${where}, ${mode.toLowerCase()}`);
  }
  await setColourMode(page, 'Light');
}

test("opens a customer from a list's phone number, with figures, calls and a call's timeline (1440)", async () => {
  const number = await openFromList(desk, '/transactions');
  await desk.getByRole('main').getByRole('button', { name: /^Details of the call from/ }).first().click();
  const drawer = await timelineShown(desk);
  await screenshot(desk, 'customers-1440-details');
  await desk.keyboard.press('Escape');
  await drawer.waitFor({ state: 'hidden' });
  await bothModes(desk, `/customers/${number}`, 'customers-1440', 'the customer page at 1440 px');
});

test("opens a customer from the Failed list's cards on a phone, nothing scrolling sideways (412)", async () => {
  const number = await openFromList(phone, '/failed');
  await bothModes(phone, `/customers/${number}`, 'customers-412', 'the customer page at 412 px');
});

test("the top bar's search takes a phone number to its customer, a payment reference to its call", async () => {
  const number = await openFromList(desk, '/transactions');
  await go(desk, '/dashboard');
  const field = desk.getByRole('textbox', { name: 'Find a caller or call: a number, payment reference or call id' });
  await field.fill(number);
  await field.press('Enter');
  await customerShown(desk, number);

  // A payment reference read off one of the customer's calls opens that call's Details.
  await desk.getByRole('main').getByRole('button', { name: /^Details of the call from/ }).first().click();
  const drawer = await timelineShown(desk);
  const reference = (await drawer.locator('dt', { hasText: 'Payment reference' }).locator('xpath=following-sibling::dd[1]').innerText()).trim();
  await desk.keyboard.press('Escape');
  await drawer.waitFor({ state: 'hidden' });
  if (reference) {
    await go(desk, '/dashboard');
    await field.fill(reference);
    await field.press('Enter');
    await desk.waitForURL(/\/customers\/\d+\?call=/);
    await timelineShown(desk);
    await desk.keyboard.press('Escape');
  }

  await go(phone, '/dashboard');
  await phone.getByRole('button', { name: 'Find a customer or call' }).click();
  const phoneField = phone.getByRole('textbox', { name: 'Find a caller or call: a number, payment reference or call id' });
  await phoneField.fill(number);
  await screenshot(phone, 'customers-412-top-bar-search');
  await phoneField.press('Enter');
  await customerShown(phone, number);
  await assertAccessible(phone, 'the customer page reached from the top bar at 412 px');
});

test('a list offers a range of days beside the day', async () => {
  await go(desk, '/transactions');
  await desk.getByRole('button', { name: 'Choose a range of days' }).click();
  await desk.getByRole('textbox', { name: 'From', exact: true }).waitFor();
  await desk.getByRole('textbox', { name: 'To', exact: true }).waitFor();
  await desk.getByRole('heading', { level: 1, name: /^Transactions from / }).waitFor();
  await listRows(desk.getByRole('main')).first().waitFor({ timeout: 30_000 });
  assert.match(desk.url(), /dateFrom=\d{4}-\d\d-\d\d&dateTo=\d{4}-\d\d-\d\d/);
  await assertAccessible(desk, 'the transactions list with a range');
  await desk.getByRole('button', { name: 'Show one day' }).click();
  await desk.getByRole('textbox', { name: 'Date' }).waitFor();
});

test('the monthly report shows each code with a chart, light and dark, 1440 and 412', async () => {
  const chartAndRows = (page: Page) => async () => {
    await page.getByRole('region', { name: 'Calls per service code' }).waitFor();
    assert.ok((await listRows(page.getByRole('main')).count()) >= 1);
  };
  await bothModes(desk, '/reports', 'customers-reports-1440', 'the monthly report at 1440 px', chartAndRows(desk));
  await bothModes(phone, '/reports', 'customers-reports-412', 'the monthly report at 412 px', chartAndRows(phone));
});
