import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, assertAccessible, go, launchBrowser, listRows, screenshot, setColourMode, signIn, startServer, USSD_TOKEN, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;

before(async () => {
  // Payments settle by themselves, a moment after the voter confirms.
  server = await startServer({ env: { PAYMENT_PROVIDER: 'local', PAYMENT_LOCAL_DELAY_MS: '200', PAYMENT_LOCAL_FAIL_RATE: '0', SMS_PROVIDER: 'local' } });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const KEY = 'e2e-league-2027';
const NAME = 'E2E League 2027';
const CODE = '*399*27#';

async function api<T>(path: string, init: { method?: string; body?: unknown; token?: string }): Promise<T> {
  const response = await fetch(`${server.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { ...(init.body ? { 'Content-Type': 'application/json' } : {}), ...(init.token ? { Authorization: `Bearer ${init.token}` } : {}) },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  const json = (await response.json()) as { results: T; message: string };
  assert.ok(response.ok, `${path} answered ${response.status}: ${json.message}`);
  return json.results;
}

/** A service code of its own for the campaign, on a demo category. */
let adminToken = '';

async function registerCode(): Promise<void> {
  const { accessToken } = await api<{ accessToken: string }>('/v1/auth/login', { method: 'POST', body: ADMIN });
  adminToken = accessToken;
  const categories = await api<{ docs: { _id: string }[] }>('/v1/category?page=1', { token: accessToken });
  await api('/v1/short-code', { method: 'POST', body: { name: CODE, category: categories.docs[0]._id }, token: accessToken });
}

/** A voter dials the code and walks the menu: each hop's reply, the last one the payment request. */
async function dial(phoneNumber: string, answers: string[]): Promise<string[]> {
  const sessionId = `campaign-admin-${phoneNumber}-${answers.join('')}`;
  const replies: string[] = [];
  for (let hop = 0; hop <= answers.length; hop += 1) {
    const response = await fetch(`${server.url}/v1/ussd/callback?token=${USSD_TOKEN}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ sessionId, serviceCode: CODE, phoneNumber, networkCode: '64110', text: answers.slice(0, hop).join('*') }).toString(),
    });
    assert.ok(response.ok, `USSD hop ${hop} answered ${response.status}`);
    replies.push(await response.text());
  }
  return replies;
}

/** A full-page capture from the top, nothing focused: scrolled, it would draw the fixed bars over the middle of the page. */
async function pageShot(page: Page, name: string) {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
  await screenshot(page, name);
}

const rowOfCampaign = (page: Page) => listRows(page).filter({ hasText: KEY });

/** Picks `option` in the MUI select `name` within `scope`. */
async function choose(page: Page, scope: ReturnType<Page['getByRole']>, name: string, option: string) {
  await scope.getByRole('combobox', { name }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('an admin creates a campaign with a games round, publishes it, and its votes over USSD show in the list', async () => {
  await registerCode();
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await signIn(page, server.url, ADMIN.userName, ADMIN.password);
  await page.waitForURL(`${server.url}/transactions`);
  await setColourMode(page, 'Light');
  await go(page, '/campaigns');
  await page.getByRole('heading', { name: 'Campaigns', level: 1 }).waitFor();
  await listRows(page).filter({ hasText: 'world-cup-2022' }).waitFor();

  await page.getByRole('tab', { name: 'Create a campaign' }).click();
  const form = page.getByRole('form', { name: 'Create a campaign' });
  await form.getByLabel('Key', { exact: true }).fill(KEY);
  await form.getByLabel('Name', { exact: true }).fill(NAME);
  await choose(page, form, 'Service code', CODE);
  const teams = form.getByRole('combobox', { name: 'Teams' });
  for (const team of ['Uganda', 'Kenya', 'Tanzania', 'Rwanda']) {
    await teams.fill(team);
    await teams.press('Enter');
  }
  await form.getByLabel('Votes per round cap', { exact: true }).fill('5');
  await form.getByRole('button', { name: 'Add round' }).click();
  const final = form.getByRole('group', { name: /^Round 2/ });
  await final.getByLabel('Round key', { exact: true }).fill('final');
  await final.getByLabel('Round label', { exact: true }).fill('Final');
  await choose(page, final, 'Kind', 'Pick the winner of a game');
  for (const [g, [a, b]] of [['Uganda', 'Kenya'], ['Tanzania', 'Rwanda']].entries()) {
    await final.getByRole('button', { name: 'Add game' }).click();
    await choose(page, final, `Game ${g + 1} team`, a);
    await choose(page, final, `Game ${g + 1} against`, b);
  }
  const preview = page.getByRole('region', { name: 'USSD preview' });
  await preview.getByText('1. Uganda vs Kenya').waitFor();
  assert.match(await preview.getByRole('figure', { name: 'Screen Rounds' }).innerText(), /E2E League 2027: choose a round\n1\. General\n2\. Final/);
  await assertAccessible(page, 'the campaign form');
  await pageShot(page, 'campaign-admin-01-form-1440-light');

  await form.getByRole('button', { name: 'Create' }).click();
  await rowOfCampaign(page).getByText('Draft').waitFor();
  await rowOfCampaign(page).getByRole('button', { name: `Publish ${NAME}` }).click();
  await page.getByRole('dialog', { name: `Publish ${NAME}?` }).getByRole('button', { name: 'Publish' }).click();
  await rowOfCampaign(page).getByText('Live').waitFor();

  // A voter meets the rounds, then the round's teams, or its own games.
  const teamVote = await dial('256770000101', ['1', '1', '1']);
  assert.match(teamVote[0], /^CON E2E League 2027: choose a round\n1\. General\n2\. Final/);
  assert.match(teamVote[1], /^CON General: pick your team\n1\. Uganda\n2\. Kenya/);
  assert.match(teamVote[3], /^END Approve the payment/);
  const gameVote = await dial('256770000102', ['2', '1', '2', '1']);
  assert.match(gameVote[1], /^CON Final: choose a game\n1\. Uganda vs Kenya\n2\. Tanzania vs Rwanda/);
  assert.match(gameVote[2], /^CON Who wins Uganda vs Kenya\?/);
  assert.match(gameVote[4], /^END Approve the payment/);

  // Both payments settle (the provider's callback a moment later); the list, opened again, counts them.
  const deadline = Date.now() + 30_000;
  for (;;) {
    const campaigns = await api<{ key: string; totalVotes: number }[]>('/v1/campaigns', { token: adminToken });
    const counted = campaigns.find((campaign) => campaign.key === KEY)?.totalVotes;
    if (counted === 2) break;
    assert.ok(Date.now() < deadline, `the campaign counts ${counted} votes`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await page.reload();
  await rowOfCampaign(page).locator('[data-field="totalVotes"]').filter({ hasText: /^2$/ }).waitFor();
  assert.notEqual((await rowOfCampaign(page).locator('[data-field="revenue"]').innerText()).trim(), '0');
  await assertAccessible(page, 'the campaigns list');
  await pageShot(page, 'campaign-admin-02-list-1440-light');

  // Edited with votes: the structure is locked, names and times are not.
  await rowOfCampaign(page).getByRole('button', { name: `Edit ${NAME}` }).click();
  const edit = page.getByRole('form', { name: `Edit ${NAME}` });
  await edit.getByText('Locked: the campaign has votes').first().waitFor();
  assert.ok(await edit.getByRole('combobox', { name: 'Teams' }).isDisabled());

  await setColourMode(page, 'Dark');
  await go(page, '/campaigns');
  await rowOfCampaign(page).waitFor();
  await assertAccessible(page, 'the campaigns list, dark');
  await pageShot(page, 'campaign-admin-03-list-1440-dark');
  await rowOfCampaign(page).getByRole('button', { name: `Edit ${NAME}` }).click();
  await page.getByRole('region', { name: 'USSD preview' }).getByText('1. Uganda vs Kenya').waitFor();
  await assertAccessible(page, 'the campaign edit form, dark');
  await pageShot(page, 'campaign-admin-04-edit-1440-dark');

  await page.setViewportSize({ width: 412, height: 915 });
  await page.getByRole('region', { name: 'USSD preview' }).waitFor();
  await assertAccessible(page, 'the campaign edit form at 412 px, dark');
  await pageShot(page, 'campaign-admin-05-edit-412-dark');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await rowOfCampaign(page).waitFor();
  await pageShot(page, 'campaign-admin-06-list-412-dark');

  await setColourMode(page, 'Light');
  await go(page, '/campaigns');
  await rowOfCampaign(page).waitFor();
  await assertAccessible(page, 'the campaigns list at 412 px');
  await pageShot(page, 'campaign-admin-07-list-412-light');
  await page.getByRole('tab', { name: 'Create a campaign' }).click();
  await page.getByRole('region', { name: 'USSD preview' }).waitFor();
  await pageShot(page, 'campaign-admin-08-form-412-light');
  await context.close();
});
