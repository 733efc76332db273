import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import moment from 'moment-timezone';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { CATEGORY_LEVELS, categoryLevelLabel } from '../src/domain/category-levels';
import { COMPACT_ROW_HEIGHT, DRAWN_ROW_SELECTOR } from '../src/components/paged-view';
import { ADMIN, go, launchBrowser, listRows, OUTPUT, screenshot, settled, setColourMode, signIn, startServer, type RunningServer } from './harness';

/**
 * The dense desk. Half again as many rows at 1440×900 in
 * Compact, a call's card about 120 px on a phone, the search's Copy column on one line, votes
 * showing their pick first, the categories' Name, Agent, Created_at and Edit in view with every
 * price one click away, and every chart label whole. Screenshots of each screen at 1440 and 412
 * px, light and dark, in e2e/output (dense-*).
 */

let server: RunningServer;
let browser: Browser;
let desk: Page;
let phone: Page;

// Yesterday in the service zone is a whole day of demo calls.
const yesterday = moment().tz('Africa/Kampala').subtract(1, 'day');
const DAY_HEADING = yesterday.format('DD MMMM YYYY');
const TIME_ALONE = /^\d\d:\d\d [ap]m$/;
// A reply after midnight names its day, short: '27 Nov 12:13 am'.
const TIME_OR_NEXT_DAY = /^(\d\d [A-Z][a-z]{2} )?\d\d:\d\d [ap]m$/;

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

/** Types yesterday into the list's date field and waits for its rows. */
async function showYesterday(page: Page) {
  await page.getByRole('textbox', { name: 'Date' }).fill(yesterday.format('MM/DD/YYYY'));
  await page.waitForFunction((day) => document.body.innerText.includes(day) && !document.querySelector('main [aria-busy="true"]'), DAY_HEADING, { timeout: 30_000 });
  await listRows(page).first().waitFor();
}

async function chooseAllCodes(page: Page) {
  const field = page.getByRole('combobox', { name: 'Service code' });
  const everyCode = page.getByRole('option', { name: 'All service codes' });
  // Opened again if the list closes before its options show: on a slow machine a late load redraws the
  // switcher, and one CI run waited 30 s on a list that had closed.
  for (let attempt = 1; ; attempt += 1) {
    await field.click();
    try {
      await everyCode.waitFor({ timeout: 10_000 });
      break;
    } catch (error) {
      if (attempt >= 4) throw error;
      await page.keyboard.press('Escape');
    }
  }
  // By keyboard, as a person may: the options are drawn again whenever today's figures come back
  // (opening the list asks for them), and a click aimed at a redrawn option waited on it for 30 s in CI.
  await field.press('Home');
  await field.press('Enter');
  await page.waitForFunction(() => (document.querySelector('input[role="combobox"]') as HTMLInputElement | null)?.value === 'All service codes');
}

/** The list's rows wholly inside the window, the page scrolled to its top. */
async function wholeRowsOnScreen(page: Page): Promise<number> {
  return page.evaluate((selector) => {
    window.scrollTo(0, 0);
    return [...document.querySelectorAll(selector)].filter((row) => {
      const box = row.getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight;
    }).length;
  }, DRAWN_ROW_SELECTOR);
}

/** The heights of the list's rows (grid rows or cards), in px. */
const rowHeights = (page: Page) => page.evaluate((selector) => [...document.querySelectorAll(selector)].map((row) => Math.round(row.getBoundingClientRect().height)), DRAWN_ROW_SELECTOR);

const cellTexts = (page: Page, field: string) => listRows(page).locator(`[data-field="${field}"]`).allInnerTexts();

/**
 * Screenshots of the screen as it is (light) and in dark mode, then the screen again in light:
 * `open` brings back what a new visit of the route resets (the day, the search).
 */
async function shootBothModes(page: Page, route: string, name: string, open: (page: Page) => Promise<void>) {
  await screenshot(page, `${name}-light`);
  for (const mode of ['Dark', 'Light'] as const) {
    await setColourMode(page, mode);
    await go(page, route);
    await open(page);
    if (mode === 'Dark') await screenshot(page, `${name}-dark`);
  }
}

test('item 5: at 1440×900, Compact, settings shown, Transactions and Failed show 20 whole rows of one-line cells, times alone', async () => {
  // The shell's settings panel is shown (its default), and Compact chosen in it.
  await desk.getByRole('button', { name: 'Compact', exact: true }).click();

  const openTransactions = async (page: Page) => showYesterday(page);
  await go(desk, '/transactions');
  await openTransactions(desk);
  const heading = await desk.getByRole('heading', { level: 1 }).innerText();
  assert.match(heading, new RegExp(`^Transactions for ${DAY_HEADING} \\( \\d+ \\)$`));
  // The heading names the day; the rows give the time alone.
  for (const field of ['createdAt', 'callbackTime']) {
    const texts = (await cellTexts(desk, field)).filter((t) => t !== 'N/A');
    const form = field === 'callbackTime' ? TIME_OR_NEXT_DAY : TIME_ALONE;
    assert.ok(texts.length > 20 && texts.every((t) => form.test(t)), `${field}: ${texts.filter((t) => !form.test(t)).slice(0, 3).join(', ')}`);
  }
  const transactionRows = await wholeRowsOnScreen(desk);
  assert.ok(transactionRows >= 20, `Transactions shows ${transactionRows} whole rows at 1440×900`);
  assert.deepEqual([...new Set(await rowHeights(desk))], [COMPACT_ROW_HEIGHT], 'every row is one line of 28 px');
  await shootBothModes(desk, '/transactions', 'dense-1440-transactions', openTransactions);

  const openFailed = async (page: Page) => {
    await chooseAllCodes(page);
    await showYesterday(page);
  };
  await go(desk, '/failed');
  await openFailed(desk);
  const failedRows = await wholeRowsOnScreen(desk);
  assert.ok(failedRows >= 20, `Failed shows ${failedRows} whole rows at 1440×900`);
  assert.deepEqual([...new Set(await rowHeights(desk))], [COMPACT_ROW_HEIGHT], 'every failed row is one line of 28 px');
  assert.ok((await cellTexts(desk, 'createdAt')).every((t) => TIME_ALONE.test(t)));
  await shootBothModes(desk, '/failed', 'dense-1440-failed', openFailed);
});

test("item 5: on a 412 px phone a call's card is at most 140 px and Failed's first card is on the first screen", async () => {
  for (const route of ['/transactions', '/failed', '/world/cup/failed']) {
    await go(phone, route);
    await showYesterday(phone);
    const heights = await rowHeights(phone);
    assert.ok(heights.length > 0 && Math.max(...heights.slice(0, 6)) <= 140, `${route}: cards ${heights.slice(0, 6).join(', ')} px`);
    const first = await listRows(phone).first().boundingBox();
    assert.ok(first && first.y + first.height <= 915, `${route}: the first card ends at ${first && first.y + first.height} px`);
    await shootBothModes(phone, route, `dense-412${route.replace(/\//g, '-')}`, showYesterday);
  }
});

/** The top voter of the World Cup's overall ranking: many votes, and a few ticket calls too. */
async function topVoter(page: Page): Promise<string> {
  await go(page, '/world/cup/most/general');
  const first = listRows(page).filter({ has: page.getByRole('button', { name: /^View more of / }) }).first();
  await first.waitFor();
  return (await first.locator('[data-field="phoneNumber"]').innerText()).trim();
}

async function search(page: Page, route: string, phoneNumber: string) {
  await go(page, route);
  // Typed again if the form is drawn anew before Search is clicked: one slow CI run emptied the field
  // that way and then waited 30 s on a Search button disabled for want of a number.
  for (let attempt = 1; ; attempt += 1) {
    await page.getByRole('textbox', { name: 'Phone number' }).fill(phoneNumber);
    try {
      await page.getByRole('button', { name: 'Search', exact: true }).click({ timeout: 10_000 });
      break;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
  await listRows(page).first().waitFor();
}

test("item 6: the search's Copy column keeps 'Ticket' whole on one line, and its rows stay short", async () => {
  const voter = await topVoter(desk);
  for (const width of [1440, 1280]) {
    await desk.setViewportSize({ width, height: 900 });
    await search(desk, '/search', voter);
    // The second width searches again over the first one's rows, which the new answer redraws: the
    // buttons are read once the eleventh is there, not while the grid is between the two.
    const copyButtons = listRows(desk).locator('[data-field="copy"] button');
    await copyButtons.nth(10).waitFor();
    const buttons = await copyButtons.evaluateAll((elements) =>
      elements.map((button) => ({ text: (button as HTMLElement).innerText, height: button.getBoundingClientRect().height, lines: Math.round(button.getBoundingClientRect().height / parseFloat(getComputedStyle(button).lineHeight)) })),
    );
    assert.ok(buttons.length > 10);
    for (const button of buttons) {
      assert.match(button.text, /^(TICKET|COPIED)$/i);
      assert.ok(button.lines <= 1, `${width} px: '${button.text}' takes ${button.lines} lines (${button.height} px)`);
    }
    // Before, 'TICKE/T' made every row 57 px; now a row is one line, or two where a vote's pick and
    // campaign do not fit beside each other. How many do depends on the teams the seeded top voter
    // picked (the demo votes are random): a fixed share of one-line rows failed a CI run at 78%.
    const heights = await rowHeights(desk);
    assert.ok(Math.max(...heights) <= 42, `${width} px: rows of ${Math.max(...heights)} px`);
    if (width === 1440) {
      const tallRows = await listRows(desk).evaluateAll(
        (rows, compact) =>
          rows
            .filter((row) => Math.round(row.getBoundingClientRect().height) > compact)
            .map((row) => {
              const vote = row.querySelector('.vote-text');
              const pick = row.querySelector('.vote-pick');
              return { text: (row as HTMLElement).innerText.replace(/\s+/g, ' '), voteWrapped: !!vote && !!pick && vote.getBoundingClientRect().height > pick.getBoundingClientRect().height * 1.5 };
            }),
        COMPACT_ROW_HEIGHT,
      );
      for (const row of tallRows) assert.ok(row.voteWrapped, `1440 px: a row taller than one line without a wrapped vote: ${row.text}`);
    }
  }
  await desk.setViewportSize({ width: 1440, height: 900 });
});

/** The vote cells of a list's rows: the pick, what is beside it, and the cell's text from its start. */
async function voteCells(scope: Page | Locator, field: string) {
  return listRows(scope)
    .locator(`[data-field="${field}"]`)
    .evaluateAll((cells) =>
      cells
        .filter((cell) => cell.querySelector('.vote-pick'))
        .map((cell) => ({ text: (cell as HTMLElement).innerText.replace(/\s+/g, ' ').trim(), pick: cell.querySelector('.vote-pick')?.textContent ?? '', context: cell.querySelector('.vote-context')?.textContent ?? '' })),
    );
}

test('item 7: votes show the pick first, the game muted beside it; the search names the campaign; the drawer has all three', async () => {
  const openList = async (page: Page) => showYesterday(page);
  for (const route of ['/world/cup/transactions', '/world/cup/failed']) {
    await go(desk, route);
    await openList(desk);
    const votes = await voteCells(desk, 'teamName');
    const games = votes.filter((vote) => vote.context);
    assert.ok(games.length > 0, `${route}: no game vote with its pick`);
    for (const vote of votes) assert.ok(vote.text.startsWith(vote.pick), `${route}: '${vote.text}' does not start with the pick '${vote.pick}'`);
    for (const vote of games) assert.ok(vote.context.endsWith(` vs ${vote.pick}`), `${route}: '${vote.pick}' is not the picked side of '${vote.context}'`);
    if (route.endsWith('failed')) await shootBothModes(desk, route, 'dense-1440-world-cup-failed', openList);
  }

  // The call's details: Team is the pick, then its game and campaign.
  const gameRow = listRows(desk).filter({ has: desk.locator('.vote-context') }).first();
  const pick = await gameRow.locator('.vote-pick').innerText();
  const game = await gameRow.locator('.vote-context').innerText();
  await gameRow.getByRole('button', { name: /^Details of the call from / }).click();
  const details = desk.getByRole('region', { name: 'Call details' });
  await details.waitFor();
  const facts = await details.locator('dt').evaluateAll((terms) => Object.fromEntries(terms.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent])));
  assert.equal(facts.Team, pick);
  assert.equal(facts.Game, game);
  assert.match(facts.Campaign ?? '', /^World Cup 2022 · (General|Week \d|Final)$/);
  await screenshot(desk, 'dense-1440-vote-details-light');
  await desk.getByRole('button', { name: 'Close details' }).click();

  // The general search: the vote's pick and its campaign where a ticket call has its category.
  const voter = await topVoter(desk);
  const openSearch = async (page: Page) => search(page, '/search', voter);
  await openSearch(desk);
  const searched = await voteCells(desk, 'category');
  assert.ok(searched.length > 0, 'no vote in the search shows its pick');
  for (const vote of searched) assert.ok(['World Cup 2022', 'AFCON 2024'].includes(vote.context) && vote.text === `${vote.pick} ${vote.context}`, `search: '${vote.text}'`);
  assert.ok(await desk.getByRole('columnheader', { name: 'Category or Team' }).isVisible());
  await shootBothModes(desk, '/search', 'dense-1440-search', openSearch);
  await openSearch(phone);
  assert.ok((await voteCells(phone, 'category')).length > 0, 'the phone cards show the pick too');
  await shootBothModes(phone, '/search', 'dense-412-search', openSearch);

  const openCampaignSearch = async (page: Page) => search(page, '/world/cup/search', voter);
  await openCampaignSearch(desk);
  const campaignVotes = await voteCells(desk, 'teamName');
  assert.ok(campaignVotes.length > 0 && campaignVotes.every((vote) => vote.text.startsWith(vote.pick)));
  await shootBothModes(desk, '/world/cup/search', 'dense-1440-world-cup-search', openCampaignSearch);
});

test('item 9: at 1440 px the categories show Name, Agent, Created_at and Edit in view, every price one click away', async () => {
  const open = async (page: Page) => {
    await listRows(page).first().waitFor();
  };
  await go(desk, '/category');
  await open(desk);
  const grid = desk.getByRole('grid', { name: 'Categories' });
  const gridBox = await grid.boundingBox();
  assert.ok(gridBox);
  for (const name of ['Name', 'Agent', 'Created_at', 'Edit']) {
    const header = await grid.getByRole('columnheader', { name, exact: true }).boundingBox();
    assert.ok(header && header.x >= gridBox.x && header.x + header.width <= gridBox.x + gridBox.width + 1, `'${name}' is out of view`);
  }
  await shootBothModes(desk, '/category', 'dense-1440-categories', open);

  const first = listRows(desk).first();
  const name = (await first.locator('[data-field="name"]').innerText()).trim();
  await first.getByRole('button', { name: `All prices of ${name}` }).click();
  const prices = desk.getByRole('dialog', { name: `Prices of ${name}` });
  await prices.waitFor();
  assert.deepEqual(await prices.locator('dt').allInnerTexts(), CATEGORY_LEVELS.map(categoryLevelLabel));
  assert.ok((await prices.locator('dd').allInnerTexts()).every((price) => /^(\d{1,3}(,\d{3})*|—)$/.test(price)));
  await settled(desk);
  await desk.screenshot({ path: path.join(OUTPUT, 'dense-1440-category-prices-light.png') });
  const axe = await new AxeBuilder({ page: desk }).include('[role="dialog"]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  assert.deepEqual(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id), []);
  await desk.keyboard.press('Escape');
  await prices.waitFor({ state: 'hidden' });

  await go(phone, '/category');
  await open(phone);
  await shootBothModes(phone, '/category', 'dense-412-categories', open);
});

/** The labels of a chart's band axis (the y axis of lying bars), each with whether it shows whole inside its chart. */
async function bandLabels(chart: Locator) {
  return chart.locator('.MuiChartsAxis-directionY .MuiChartsAxis-tickLabel').evaluateAll((labels) =>
    labels.map((label) => {
      const svg = label.closest('svg')!.getBoundingClientRect();
      const box = label.getBoundingClientRect();
      return { text: label.textContent ?? '', inside: box.left >= svg.left - 0.5 && box.right <= svg.right + 0.5 && box.top >= svg.top - 0.5 && box.bottom <= svg.bottom + 0.5 };
    }),
  );
}

test('item 10: every bar of the revenue by level and of the team results is labelled, whole', async () => {
  const openDashboard = async (page: Page) => {
    await page.getByRole('textbox', { name: 'Date' }).fill(yesterday.format('MM/DD/YYYY'));
    await page.getByRole('heading', { name: `Overview for ${DAY_HEADING}` }).waitFor();
    await page.getByRole('region', { name: 'Revenue by category level' }).locator('.MuiBarChart-element').first().waitFor();
  };
  const levelLabels = new Set(CATEGORY_LEVELS.map(categoryLevelLabel));
  for (const page of [desk, phone]) {
    await go(page, '/dashboard');
    await openDashboard(page);
    const revenue = page.getByRole('region', { name: 'Revenue by category level' });
    await settled(page); // the bars have grown in
    const labels = await bandLabels(revenue);
    const bars = await revenue.locator('.MuiBarChart-element').count();
    assert.ok(bars >= 10, `${bars} levels earned yesterday`);
    assert.equal(labels.length, bars, `${labels.length} labels for ${bars} bars`);
    for (const label of labels) assert.ok(levelLabels.has(label.text) && label.inside, `level label '${label.text}' cut or out of the chart`);
    await shootBothModes(page, '/dashboard', `dense-${page === desk ? 1440 : 412}-dashboard`, openDashboard);
  }

  const openRanking = async (page: Page) => {
    await page.getByRole('region', { name: 'Team results' }).locator('.MuiBarChart-element').first().waitFor();
  };
  for (const page of [desk, phone]) {
    await go(page, '/afcon/2024/ranking');
    await openRanking(page);
    const results = page.getByRole('region', { name: 'Team results' });
    const teams = await results.locator('table th[scope="row"]').allTextContents();
    assert.ok(teams.includes('Equatorial Guinea'));
    const labels = await bandLabels(results);
    assert.deepEqual(labels.map((l) => l.text), teams, 'one whole label per team, most voted first');
    for (const label of labels) assert.ok(label.inside, `team label '${label.text}' out of the chart`);
    await shootBothModes(page, '/afcon/2024/ranking', `dense-${page === desk ? 1440 : 412}-afcon-ranking`, openRanking);
  }
});
