import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { DEMO_AFCON_USER } from '../server/src/db/seed-data';
import path from 'node:path';
import { ADMIN, launchBrowser, listRows, OUTPUT, screenshot, settled, signIn, startServer, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const WORLD_CUP_RANKINGS = [
  { label: 'World Cup Overall', title: 'World Cup Overall Ranking', path: '/world/cup/most/general' },
  { label: 'World Cup Week 2', title: 'World Cup Week 2 Ranking', path: '/world/cup/week/2/ranking' },
  { label: 'World Cup Week 3', title: 'World Cup Week 3 Ranking', path: '/world/cup/week/3/ranking' },
  { label: 'World Cup Week 4', title: 'World Cup Week 4 Ranking', path: '/world/cup/week/4/ranking' },
  { label: 'World Cup Final Winner', title: 'World Cup Final Winner Ranking', path: '/world/cup/final/winner' },
];

/** An open dialog as the person sees it: the viewport, not the full page behind it. */
async function dialogScreenshot(page: Page, name: string) {
  await settled(page);
  await page.screenshot({ path: path.join(OUTPUT, `${name}.png`) });
}

/** The ranking's first data row (a grid row, or a card on a phone), once the ranking has loaded. */
async function firstRanked(page: Page) {
  const row = listRows(page).filter({ has: page.getByRole('button', { name: /^View more of / }) }).first();
  await row.waitFor();
  return row;
}

test('the Afcon-only account lands on Afcon transactions, opens the ranking and a voter', async () => {
  for (const [width, height, suffix] of [[1280, 800, ''], [390, 844, '-mobile']] as const) {
    const page = await browser.newPage({ viewport: { width, height } });
    await signIn(page, server.url, DEMO_AFCON_USER.userName, DEMO_AFCON_USER.password);
    await page.waitForURL(`${server.url}/afcon/2024/transactions`);
    if (width < 600) await page.getByRole('button', { name: 'Open menu' }).click();
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    await nav.getByRole('link', { name: 'Ranking' }).waitFor();
    assert.deepEqual(await nav.getByRole('link').allTextContents(), ['Afcon Transactions', 'Failed Transactions', 'Trans Search', 'Ranking', 'Incidents']);
    await nav.getByRole('link', { name: 'Ranking' }).click();
    await page.waitForURL(`${server.url}/afcon/2024/ranking`);
    const row = await firstRanked(page);
    await page.getByRole('region', { name: 'Team results' }).locator('svg').first().waitFor();
    await screenshot(page, `campaigns-01-afcon-ranking${suffix}`);
    await row.getByRole('button', { name: /^View more of / }).click();
    const dialog = page.getByRole('dialog', { name: 'Team selection by user' });
    await dialog.getByText(/^\+256/).waitFor();
    await dialog.getByText('General prediction').first().waitFor();
    await dialogScreenshot(page, `campaigns-02-afcon-view-more${suffix}`);
    await page.close();
  }
});

test('an admin walks the five World Cup rankings from the sidebar and sees the team chart', async () => {
  for (const [width, height, suffix] of [[1280, 800, ''], [390, 844, '-mobile']] as const) {
    const page = await browser.newPage({ viewport: { width, height } });
    await signIn(page, server.url, ADMIN.userName, ADMIN.password);
    await page.waitForURL(`${server.url}/transactions`);
    for (const [i, ranking] of WORLD_CUP_RANKINGS.entries()) {
      if (width < 600) await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('group', { name: 'Campaigns' }).getByRole('link', { name: ranking.label, exact: true }).click();
      await page.waitForURL(`${server.url}${ranking.path}`);
      await page.getByRole('heading', { name: ranking.title, level: 1 }).waitFor();
      await firstRanked(page);
      const results = page.getByRole('region', { name: 'Team results' });
      await results.locator('svg').first().waitFor();
      const total = Number((await results.getByRole('group', { name: 'Total votes' }).locator('p').nth(1).textContent())?.replace(/,/g, ''));
      const voters = Number((await results.getByRole('group', { name: 'Distinct voters' }).locator('p').nth(1).textContent())?.replace(/,/g, ''));
      assert.ok(total >= voters && voters > 0, `${ranking.label}: ${total} votes from ${voters} voters`);
      if (i === 0 || i === 4) await screenshot(page, `campaigns-0${3 + i / 4}-${ranking.path.split('/').pop()}${suffix}`);
    }
    const row = await firstRanked(page);
    await row.getByRole('button', { name: /^View more of / }).click();
    const dialog = page.getByRole('dialog', { name: 'Team selection by user' });
    await dialog.getByText(/ vs /).first().waitFor();
    await dialogScreenshot(page, `campaigns-05-final-view-more${suffix}`);
    await page.close();
  }
});

const CAMPAIGN_LISTS = [
  { path: '/world/cup/transactions', title: 'World Cup Transactions' },
  { path: '/world/cup/failed', title: 'World Cup Failed Transactions' },
  { path: '/world/cup/search', title: 'World Cup Trans Search' },
  { path: '/afcon/2024/transactions', title: 'Afcon Transactions' },
  { path: '/afcon/2024/failed', title: 'Afcon Failed Transactions' },
  { path: '/afcon/2024/search', title: 'Afcon Trans Search' },
];

/** The day before the date field's MM/DD/YYYY, in the same form: the demo votes of a whole day. */
function dayBefore(shown: string): string {
  const [month, day, year] = shown.split('/').map(Number);
  const before = new Date(Date.UTC(year, month - 1, day - 1));
  return `${String(before.getUTCMonth() + 1).padStart(2, '0')}/${String(before.getUTCDate()).padStart(2, '0')}/${before.getUTCFullYear()}`;
}

/** Shows the day before and waits for its list: its load toast, then no list still drawing. */
async function showDayBefore(page: Page) {
  const date = page.getByRole('textbox', { name: 'Date' });
  const before = dayBefore(await date.inputValue());
  await date.fill(before);
  await date.press('Tab');
  const [month, day, year] = before.split('/').map(Number);
  const long = new Date(Date.UTC(year, month - 1, day)).toLocaleDateString('en-GB', { day: '2-digit', month: 'long', year: 'numeric', timeZone: 'UTC' });
  await page.locator('#notistack-snackbar').getByText(`Transactions for ${long}`).first().waitFor();
  await page.waitForFunction(() => !document.querySelector('main [aria-busy="true"]'));
}

const firstRow = (page: Page) => listRows(page).first();

test('the Afcon-only account sees its transactions with the green code and the day total', async () => {
  for (const [width, height, suffix] of [[1280, 800, ''], [390, 844, '-mobile']] as const) {
    const page = await browser.newPage({ viewport: { width, height } });
    await signIn(page, server.url, DEMO_AFCON_USER.userName, DEMO_AFCON_USER.password);
    await page.waitForURL(`${server.url}/afcon/2024/transactions`);
    await page.getByRole('heading', { name: 'Afcon Transactions', level: 1 }).waitFor();
    await showDayBefore(page);
    await page.getByText(/^Transactions for .+ \( [1-9]\d* \)$/).waitFor();
    assert.equal(await page.getByRole('textbox', { name: 'Service code' }).inputValue(), '*284*24#');
    await firstRow(page).waitFor();
    await screenshot(page, `campaigns-06-afcon-transactions${suffix}`);
    await page.close();
  }
});

test('an admin opens the six campaign lists, resolves a failed World Cup vote and searches a voter', async () => {
  for (const [width, height, suffix] of [[1280, 800, ''], [390, 844, '-mobile']] as const) {
    const page = await browser.newPage({ viewport: { width, height } });
    await signIn(page, server.url, ADMIN.userName, ADMIN.password);
    await page.waitForURL(`${server.url}/transactions`);
    let voter = '';
    for (const [i, list] of CAMPAIGN_LISTS.entries()) {
      await page.goto(`${server.url}${list.path}`);
      await page.getByRole('heading', { name: list.title, level: 1 }).waitFor();
      if (list.path.endsWith('/search')) {
        await page.getByRole('textbox', { name: 'Phone number' }).fill(voter);
        await page.getByRole('button', { name: 'Search' }).click();
      } else {
        await showDayBefore(page);
      }
      const row = firstRow(page);
      await row.waitFor();
      if (list.path.endsWith('/transactions')) voter = (await row.locator('[data-field="phoneNumber"]').textContent()) ?? '';
      if (list.path === '/world/cup/failed') {
        const resolve = listRows(page).getByRole('button', { name: 'Resolve', exact: true }).first();
        const resolvedBefore = await listRows(page).getByRole('button', { name: 'Resolved', exact: true }).count();
        await resolve.click();
        await page.locator('#notistack-snackbar').getByText('Resolved', { exact: true }).waitFor();
        assert.equal(await listRows(page).getByRole('button', { name: 'Resolved', exact: true }).count(), resolvedBefore + 1);
      }
      if (list.path.endsWith('/search')) await row.getByRole('button', { name: 'Ticket' }).waitFor();
      await screenshot(page, `campaigns-${String(7 + i).padStart(2, '0')}-${list.path.split('/').slice(1, 3).join('-')}-${list.path.split('/').pop()}${suffix}`);
    }
    await page.close();
  }
});
