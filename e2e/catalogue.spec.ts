import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { REQUIRED_PRICE_LEVELS, categoryLevelLabel } from '../src/domain/category-levels';
import { DEMO_AGENTS } from '../server/src/db/seed-data';
import { ADMIN, launchBrowser, screenshot, signIn, startServer, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;
let page: Page;

const suffix = Date.now().toString(36);
const categoryName = `E2E category ${suffix}`;
const code = `*${400 + (Date.now() % 500)}*${Date.now() % 10_000}#`;
const ticket = `E2E ticket ${suffix}: show this SMS at the gate`;
const smsText = `E2E hello ${suffix}`;

/** A field by its exact label, with or without the required asterisk. */
const field = (label: string) => page.getByLabel(new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\s*\\*)?$`));

async function choose(select: RegExp, option: string) {
  await page.getByRole('combobox', { name: select }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function openTab(path: string, tab: string) {
  await page.goto(`${server.url}${path}`);
  await page.getByRole('tab', { name: tab }).click();
}

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await signIn(page, server.url, ADMIN.userName, ADMIN.password);
  await page.waitForURL(`${server.url}/transactions`);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

test('an admin creates a category with prices and sees it in the list', async () => {
  await page.goto(`${server.url}/categories/new`);
  await field('Category name').fill(categoryName);
  await choose(/Agent/, DEMO_AGENTS[0]);
  for (const [i, level] of REQUIRED_PRICE_LEVELS.entries()) await field(categoryLevelLabel(level)).fill(String(1500 * (i + 1)));
  await screenshot(page, 'catalogue-01-category-form');
  await page.getByRole('button', { name: 'Create category' }).click();
  await page.getByText('Successfully created the category').waitFor();
  await page.getByRole('tab', { name: 'All' }).click();
  await page.getByRole('row').filter({ hasText: categoryName }).getByText('22,500').waitFor();
  await screenshot(page, 'catalogue-02-categories');
});

test('the admin registers a service code for it', async () => {
  await openTab('/service/code', 'Register service codes');
  await field('Code').fill(code);
  await choose(/^Category/, categoryName);
  await page.getByRole('button', { name: 'Register' }).click();
  await page.getByText('Successfully registered a service code').waitFor();
  await page.getByRole('tab', { name: 'All' }).click();
  await page.getByRole('row').filter({ hasText: code }).getByText(categoryName).waitFor();
  await screenshot(page, 'catalogue-03-service-codes');
});

test('the admin creates and activates a content', async () => {
  await openTab('/contents', 'Create new content');
  await choose(/^Category(\s*\*)?$/, categoryName);
  await choose(/Category level/, 'VIP');
  await field('Message').fill(ticket);
  await page.getByText(`${ticket.length}/160`).waitFor();
  await page.getByRole('checkbox', { name: 'Activate' }).check();
  await screenshot(page, 'catalogue-04-content-form');
  await page.getByRole('button', { name: 'Create content' }).click();
  await page.getByText('Successfully created a ticket').waitFor();
  await page.getByRole('tab', { name: 'All' }).click();
  await page.getByRole('row').filter({ hasText: ticket }).getByText('active', { exact: true }).waitFor();
  await screenshot(page, 'catalogue-05-contents');
});

test('the admin sends an SMS and sees it in the history', async () => {
  await page.goto(`${server.url}/sms`);
  await choose(/Category level/, 'VIP');
  await field('Phone number').fill('256750461234');
  await field('Message').fill(smsText);
  await page.getByText('1 SMS').waitFor();
  await page.getByRole('button', { name: 'Send' }).click();
  await page.getByText('Successfully sent the message!').waitFor();
  await page.getByRole('row').filter({ hasText: smsText }).getByText('sent', { exact: true }).waitFor();
  await screenshot(page, 'catalogue-06-sms');
});
