import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import moment from 'moment-timezone';
import type { Browser, Page } from 'playwright-core';
import { DEMO_AGENT_PASSWORD } from '../server/src/db/seed-data';
import { assertAccessible, go, launchBrowser, signIn, startServer, viewportShot, type RunningServer } from './harness';

/**
 * An agent sees all its codes, and its view follows it: kato (9 of the demo's 25 codes) chooses
 * among its own codes with their figures, and the code and day it chose stay with it from
 * Transactions to Failed to the Dashboard, named in the top bar.
 */

let server: RunningServer;
let browser: Browser;
let page: Page;

const yesterday = moment().tz('Africa/Kampala').subtract(1, 'day');
const DAY_HEADING = yesterday.format('DD MMMM YYYY');

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** A sidebar click, as a person moves between screens (the link carries the chosen view). */
async function openFromMenu(on: Page, label: string, heading: RegExp) {
  await on.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: label, exact: true }).click();
  await on.getByRole('heading', { name: heading }).waitFor();
}

const codeField = (on: Page) => on.getByRole('combobox', { name: 'Service code' });
const optionCodes = async (on: Page) => (await on.getByRole('option').allInnerTexts()).map((text) => text.split('\n')[0]);
const natural = (codes: string[]) => [...codes].sort((a, b) => Number(/(\d+)#$/.exec(a)?.[1]) - Number(/(\d+)#$/.exec(b)?.[1]));

test('kato switches among its own codes, and the code and day follow it across Transactions, Failed and the Dashboard', async () => {
  await signIn(page, server.url, 'kato', DEMO_AGENT_PASSWORD);
  await page.getByRole('navigation', { name: 'Main menu' }).waitFor();
  await go(page, '/transactions');
  const field = codeField(page);
  assert.equal(await field.inputValue(), '*217*1#', "kato's default view is its first code");
  assert.equal(await field.isEnabled(), true);

  await field.click();
  await page.getByRole('option', { name: /^\*217\*5#/ }).waitFor();
  const codes = (await optionCodes(page)).slice(1);
  assert.equal(codes.length, 9, `kato's codes: ${codes.join(', ')}`);
  assert.deepEqual(codes, natural(codes), 'natural order');
  assert.ok(!codes.includes('*217*2#'), "another agent's code is not offered");
  assert.match(await page.getByRole('option', { name: /^\*217\*5#/ }).innerText(), /calls? today[\s\S]*failed/);
  await viewportShot(page, 'agent-codes-switcher-1440');
  await page.getByRole('option', { name: /^\*217\*5#/ }).click();
  await page.getByRole('textbox', { name: 'Date' }).fill(yesterday.format('MM/DD/YYYY'));
  await page.getByRole('heading', { name: new RegExp(`^Transactions for ${DAY_HEADING} \\( \\d+ \\)$`) }).waitFor();
  await page.getByText('Service code: *217*5#').waitFor();
  await assertAccessible(page, "an agent's transactions");

  await openFromMenu(page, 'Failed transactions', new RegExp(`^Failed transactions for ${DAY_HEADING}`));
  assert.equal(await codeField(page).inputValue(), '*217*5#', 'Failed keeps the code');
  await assertAccessible(page, "an agent's failed transactions");

  await openFromMenu(page, 'Dashboard', new RegExp(`^Overview for ${DAY_HEADING}$`));
  assert.equal(await codeField(page).inputValue(), '*217*5#', 'the Dashboard keeps the code');
  await page.getByText('Service code: *217*5#').waitFor();
  await assertAccessible(page, "an agent's dashboard");
  await viewportShot(page, 'agent-codes-dashboard-1440');

  await openFromMenu(page, 'Transactions', new RegExp(`^Transactions for ${DAY_HEADING}`));
  assert.equal(await codeField(page).inputValue(), '*217*5#', 'back on Transactions, still the code');
  await page.setViewportSize({ width: 412, height: 915 });
  await assertAccessible(page, "an agent's transactions on a phone");
  await codeField(page).click();
  await page.getByRole('option', { name: /^\*217\*7#/ }).waitFor();
  await viewportShot(page, 'agent-codes-switcher-412');
  await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 1440, height: 900 });
});

test('a link opens one of its codes; a link to another agent’s code opens its default view', async () => {
  await page.goto(`${server.url}/transactions?name=${encodeURIComponent('*217*7#')}`);
  await page.getByRole('heading', { name: /^Transactions for / }).waitFor();
  await page.waitForFunction(() => (document.querySelector('input[role="combobox"]') as HTMLInputElement | null)?.value === '*217*7#');

  await page.goto(`${server.url}/transactions?name=${encodeURIComponent('*217*2#')}`);
  await page.getByRole('heading', { name: /^Transactions for .* \( \d+ \)$/ }).waitFor();
  assert.equal(await codeField(page).inputValue(), '*217*1#');
  assert.equal(await page.getByText('Unexpected error').count(), 0);
});
