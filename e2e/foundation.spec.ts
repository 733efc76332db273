import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, launchBrowser, screenshot, signIn, startServer, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;
let page: Page;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const agent = { userName: `agent${Date.now().toString().slice(-6)}`, password: 'agent-pass-1', renamed: '' };
agent.renamed = `${agent.userName}x`;

test('the admin signs in and sees the shell', async () => {
  await page.goto(`${server.url}/`);
  await screenshot(page, '01-sign-in');
  await signIn(page, server.url, ADMIN.userName, ADMIN.password);
  await page.waitForURL(`${server.url}/transactions`);
  await page.getByText(`Username: ${ADMIN.userName}`).waitFor();
  const nav = page.getByRole('navigation');
  for (const entry of ['Transactions', 'Users', 'Category', 'Service code', 'Content', 'Sms']) {
    await nav.getByRole('link', { name: entry, exact: true }).first().waitFor();
  }
  await screenshot(page, '02-shell-transactions');
});

test('the admin creates an agent and edits it', async () => {
  await page.getByRole('navigation').getByRole('link', { name: 'Users', exact: true }).first().click();
  await page.waitForURL(`${server.url}/users`);
  await page.getByRole('tab', { name: /create new account/i }).click();
  await page.getByLabel(/username/i).fill(agent.userName);
  await page.getByLabel(/^password/i).fill(agent.password);
  await screenshot(page, '03-users-create');
  await page.getByRole('button', { name: /create/i }).click();
  await page.getByText('Successfully created a new user').waitFor();

  await page.getByRole('tab', { name: /all/i }).click();
  const row = page.getByRole('row', { name: new RegExp(agent.userName) });
  await row.getByRole('button', { name: /edit/i }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByText('Update user login information').waitFor();
  await dialog.getByLabel(/username/i).fill(agent.renamed);
  await screenshot(page, '04-users-edit');
  await dialog.getByRole('button', { name: /update|save/i }).click();
  await page.getByText('Successfully updated a user').waitFor();
  await page.getByRole('row', { name: new RegExp(agent.renamed) }).waitFor();
  await screenshot(page, '05-users-list');
});

test('the admin signs out and the agent sees the agent menu', async () => {
  await page.getByRole('button', { name: /logout/i }).first().click();
  await page.getByText('Logged out').waitFor();
  await page.waitForURL(`${server.url}/`);
  await signIn(page, server.url, agent.renamed, agent.password);
  await page.waitForURL(`${server.url}/transactions`);
  const nav = page.getByRole('navigation');
  await nav.getByRole('link', { name: 'Transactions', exact: true }).first().waitFor();
  assert.equal(await nav.getByRole('link', { name: 'Users', exact: true }).count(), 0);
  assert.equal(await nav.getByRole('link', { name: 'Service code', exact: true }).count(), 0);
  await screenshot(page, '06-agent-shell');
});

test('a narrow window collapses the sidebar into a drawer', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await page.getByRole('heading', { name: /Transactions for/ }).waitFor();
  await screenshot(page, '07-mobile');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByText(`Hi, ${agent.renamed}`).waitFor();
  await screenshot(page, '08-mobile-drawer');
});
