import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ADMIN, assertAccessible, go, launchBrowser, listRows, screenshot, setColourMode, signIn, startServer, USSD_TOKEN, viewportShot, type RunningServer } from './harness';

/**
 * A campaign made through the API, holding suspicious votes with a velocity of two a minute:
 * votes cast through the USSD door over HTTP flag and hold one heavy voter; its ranking shows the
 * counted votes, /campaigns/{key}/suspicious releases the held ones and the ranking moves.
 * Screenshots light and dark at 1440 and 412 px (campaign-screens-*), axe on each.
 */

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 412, height: 915 };
const KEY = `cup-${crypto.randomInt(100_000, 999_999)}`;
const NAME = 'Lakes Cup 2026';
const HEAVY = '256771234501';
/** Flagged and held too, left for the phone's screenshots to show Release and Reject. */
const ALSO_HEAVY = '256771234504';
const CALM = ['256771234502', '256771234503'];

let server: RunningServer;
let browser: Browser;
let token = '';

async function api(path: string, body: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  assert.ok(response.ok, `${path}: ${response.status} ${text}`);
  return (JSON.parse(text) as { results: unknown }).results;
}

/** One vote through the USSD door: round 1 (Winner), the team numbered `team`, confirm; the local provider pays it at once. */
async function vote(phoneNumber: string, serviceCode: string, team: number) {
  const sessionId = `campaign-screens-${crypto.randomUUID()}`;
  let reply = '';
  for (const text of ['', '1', `1*${team}`, `1*${team}*1`]) {
    const response = await fetch(`${server.url}/v1/ussd/callback?token=${USSD_TOKEN}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ sessionId, serviceCode, phoneNumber, networkCode: '64110', text }).toString(),
    });
    reply = await response.text();
  }
  assert.match(reply, /^END Approve the payment/);
}

/** Waits until the voter's ranked votes read `count` (the local provider settles votes a moment after the call). */
async function rankedVotes(phoneNumber: string, serviceCode: string, count: number) {
  for (let tries = 0; tries < 60; tries += 1) {
    const page = (await api(`/v1/campaigns/${KEY}/ranking?limit=50`, { serviceCode })) as { docs: { phoneNumber: string; count: number }[] };
    if (page.docs.find((row) => row.phoneNumber === phoneNumber)?.count === count) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  assert.fail(`${phoneNumber} never reached ${count} ranked votes`);
}

let serviceCode = '';

before(async () => {
  server = await startServer({ env: { PAYMENT_PROVIDER: 'local', PAYMENT_LOCAL_DELAY_MS: '0', PAYMENT_LOCAL_FAIL_RATE: '0' } });
  browser = await launchBrowser();
  const login = await fetch(`${server.url}/v1/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(ADMIN) });
  token = ((await login.json()) as { results: { accessToken: string } }).results.accessToken;
  // A code of its own under a demo category: a campaign's code is offered to voters once it is live.
  const categories = (await (await fetch(`${server.url}/v1/category?limit=1`, { headers: { Authorization: `Bearer ${token}` } })).json()) as { results: { docs: { _id: string }[] } };
  serviceCode = `*${crypto.randomInt(700, 799)}*${crypto.randomInt(1000, 9999)}#`;
  await api('/v1/short-code', { name: serviceCode, category: categories.results.docs[0]._id });
  await api('/v1/campaigns', {
    key: KEY,
    name: NAME,
    serviceCode,
    teams: ['Uganda', 'Kenya', 'Tanzania', 'Rwanda'],
    votePrice: 500,
    holdSuspicious: true,
    velocityPerMinute: 2,
    rounds: [
      { key: 'winner', label: 'Winner', kind: 'teams' },
      { key: 'final', label: 'Final', kind: 'games', games: [['Uganda', 'Kenya']] },
    ],
  });
  await api(`/v1/campaigns/${KEY}/publish`, {});
  // The heavy voter's third and fourth votes within the minute are flagged and held.
  for (let i = 0; i < 4; i += 1) await vote(HEAVY, serviceCode, 2);
  for (let i = 0; i < 3; i += 1) await vote(ALSO_HEAVY, serviceCode, 4);
  await vote(CALM[0], serviceCode, 1);
  await vote(CALM[1], serviceCode, 3);
  await rankedVotes(HEAVY, serviceCode, 2);
  await rankedVotes(CALM[1], serviceCode, 1);
  await rankedVotes(ALSO_HEAVY, serviceCode, 2);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function signedIn(viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await signIn(page, server.url, ADMIN.userName, ADMIN.password);
  await page.waitForURL(`${server.url}/transactions`);
  return { context, page };
}

const votesOf = (page: Page, phoneNumber: string) => listRows(page.getByRole('main')).filter({ hasText: phoneNumber }).first();

test('a held voter is flagged on the ranking, released from the suspicious list, and the ranking moves', async () => {
  const { context, page } = await signedIn(DESKTOP);
  const campaigns = page.getByRole('group', { name: 'Campaigns' });
  await campaigns.getByRole('link', { name: `${NAME} Ranking` }).click();
  await page.getByRole('heading', { level: 1, name: `${NAME} Overall Ranking` }).waitFor();
  const heavy = votesOf(page, HEAVY);
  await heavy.getByText('Velocity').waitFor();
  assert.match(await heavy.innerText(), /\b2\b/);
  for (const calm of CALM) await votesOf(page, calm).waitFor();
  await screenshot(page, 'campaign-screens-01-ranking-1440-light');
  await assertAccessible(page, 'the ranking at 1440 px');

  await page.getByRole('link', { name: 'Suspicious numbers' }).click();
  await page.getByRole('heading', { level: 1, name: `${NAME} Suspicious Numbers ( 2 )` }).waitFor();
  await page.getByRole('button', { name: `Release the held votes of ${HEAVY}` }).waitFor();
  await screenshot(page, 'campaign-screens-02-suspicious-1440-light');
  await assertAccessible(page, 'the suspicious numbers at 1440 px');

  await page.getByRole('button', { name: `Reject the held votes of ${HEAVY}` }).click();
  const reject = page.getByRole('dialog', { name: `Reject 2 held votes of +${HEAVY}` });
  await reject.getByRole('button', { name: 'Reject' }).click();
  await reject.getByText('Please say why the votes are rejected').waitFor();
  await viewportShot(page, 'campaign-screens-03-reject-1440-light');
  await assertAccessible(page, 'the reject dialog at 1440 px');
  await reject.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: `Release the held votes of ${HEAVY}` }).click();
  const release = page.getByRole('dialog', { name: `Release 2 held votes of +${HEAVY}?` });
  await release.getByRole('button', { name: 'Release' }).click();
  await page.getByText(`2 held votes of +${HEAVY} released`).waitFor();
  await page.getByRole('button', { name: `Release the held votes of ${HEAVY}` }).waitFor({ state: 'detached' });

  await campaigns.getByRole('link', { name: `${NAME} Ranking` }).click();
  await page.getByRole('heading', { level: 1, name: `${NAME} Overall Ranking` }).waitFor();
  await page.waitForFunction((phone) => [...document.querySelectorAll('main [role="row"]')].some((row) => row.textContent?.includes(phone) && row.querySelector('[data-field="count"]')?.textContent === '4'), HEAVY, { timeout: 15_000 });

  await page.getByRole('switch', { name: 'Flagged only' }).click();
  await page.getByText('Showing 2 out of 2 entries').waitFor();

  await setColourMode(page, 'Dark');
  await go(page, `/campaigns/${KEY}/ranking`);
  await votesOf(page, CALM[0]).waitFor();
  await screenshot(page, 'campaign-screens-04-ranking-1440-dark');
  await assertAccessible(page, 'the ranking at 1440 px, dark');
  await go(page, `/campaigns/${KEY}/suspicious`);
  await votesOf(page, HEAVY).waitFor();
  await screenshot(page, 'campaign-screens-05-suspicious-1440-dark');
  await assertAccessible(page, 'the suspicious numbers at 1440 px, dark');
  await go(page, `/campaigns/${KEY}/transactions`);
  await page.getByRole('heading', { level: 1, name: `${NAME} Transactions ( 9 )` }).waitFor();
  await screenshot(page, 'campaign-screens-06-transactions-1440-dark');
  await assertAccessible(page, 'the transactions at 1440 px, dark');
  await context.close();
});

test('the ranking and suspicious list on a 412 px phone, light and dark', async () => {
  const { context, page } = await signedIn(PHONE);
  for (const mode of ['Light', 'Dark'] as const) {
    await setColourMode(page, mode);
    await go(page, `/campaigns/${KEY}/ranking`);
    await votesOf(page, HEAVY).waitFor();
    await screenshot(page, `campaign-screens-07-ranking-412-${mode.toLowerCase()}`);
    await assertAccessible(page, `the ranking at 412 px, ${mode}`);
    await go(page, `/campaigns/${KEY}/suspicious`);
    await page.getByRole('button', { name: `Release the held votes of ${ALSO_HEAVY}` }).waitFor();
    await screenshot(page, `campaign-screens-08-suspicious-412-${mode.toLowerCase()}`);
    await assertAccessible(page, `the suspicious numbers at 412 px, ${mode}`);
  }
  await context.close();
});
