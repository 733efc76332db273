import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import net from 'node:net';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import path from 'node:path';
import { signedCallback } from '../server/src/ingestion/callback-signature';
import { ADMIN, chooseServiceCode, launchBrowser, listRows, OUTPUT, screenshot, signIn, startServer, USSD_TOKEN, type RunningServer } from './harness';

/**
 * Lists that move: the built server with the local payment provider refusing every payment 1.5 s
 * after it is asked. A manager keeps Failed open for today; sales made over the USSD callback fail
 * and their rows appear without a click. On Transactions, a sale the test pays at once (the signed
 * callback, before the provider's refusal) appears too, though the stream first hears of it paid. Scrolled down, new calls wait in an
 * 'n new calls' chip (screenshots light and dark, 1440 and 412 px, in e2e/output live-updates-*).
 * The browser reaches the server through a TCP relay of the test, so 'the server stops' is the relay
 * dropping every connection and refusing new ones: the top bar then says offline, and stops
 * saying it once the relay is back.
 */

const CODE = '*217*1#';
/** The server's payment-callback key: the test plays the provider with it. */
const CALLBACK_SECRET = 'e2e-payment-callback-secret';
const SERVER_PORT = Number(process.env.E2E_PORT ?? 4710);
const RELAY_PORT = SERVER_PORT + 1;

let server: RunningServer;
let relay: Relay;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let baseUrl: string;

/** A TCP relay to the server that can drop and refuse connections, as a stopped server does. */
interface Relay {
  up(): Promise<void>;
  down(): Promise<void>;
}

function tcpRelay(listenPort: number, targetPort: number): Relay {
  const sockets = new Set<net.Socket>();
  let listener: net.Server | undefined;
  return {
    up: () =>
      new Promise((resolve) => {
        listener = net.createServer((client) => {
          const upstream = net.connect(targetPort, '127.0.0.1');
          const drop = () => {
            client.destroy();
            upstream.destroy();
            sockets.delete(client);
            sockets.delete(upstream);
          };
          for (const socket of [client, upstream]) {
            sockets.add(socket);
            socket.on('error', drop).on('close', drop);
          }
          client.pipe(upstream).pipe(client);
        });
        listener.listen(listenPort, '127.0.0.1', () => resolve());
      }),
    down: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        sockets.clear();
        if (listener) listener.close(() => resolve());
        else resolve();
      }),
  };
}

before(async () => {
  server = await startServer({
    port: SERVER_PORT,
    env: { PAYMENT_PROVIDER: 'local', PAYMENT_LOCAL_DELAY_MS: '1500', PAYMENT_LOCAL_FAIL_RATE: '1', SMS_PROVIDER: 'local', PAYMENT_CALLBACK_SECRET: CALLBACK_SECRET },
  });
  relay = tcpRelay(RELAY_PORT, SERVER_PORT);
  await relay.up();
  baseUrl = `http://127.0.0.1:${RELAY_PORT}`;
  browser = await launchBrowser();
  context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
});

after(async () => {
  await browser?.close();
  await relay?.down();
  await server?.stop();
});

/** A Ugandan number no other sale of this run uses (a number confirms at most 5 payments a minute). */
const uniquePhone = () => `2567${String(crypto.randomInt(10_000_000, 99_999_999))}`;

/** A customer dials CODE and buys its first offer to the confirmation; unless paid first, the local provider then refuses the payment. */
async function failingSale(phoneNumber = uniquePhone()): Promise<string> {
  const sessionId = `live-updates-${crypto.randomUUID()}`;
  const answers: string[] = [];
  for (let hop = 0; hop < 8; hop += 1) {
    const response = await fetch(`${server.url}/v1/ussd/callback?token=${USSD_TOKEN}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ sessionId, serviceCode: CODE, phoneNumber, networkCode: '64110', text: answers.join('*') }).toString(),
    });
    const reply = await response.text();
    assert.equal(response.status, 200, reply);
    if (reply.startsWith('END ')) {
      assert.match(reply, /Approve the payment/, `the sale ended: ${reply}`);
      return phoneNumber;
    }
    answers.push(/\n1\. Confirm\n2\. Cancel/.test(reply) ? '1' : (/^(\d+)\. /m.exec(reply)?.[1] ?? '1'));
  }
  throw new Error('the sale did not reach the confirmation');
}

/** The admin's access token over the API, signed in once beforehand (a sign-in takes a while). */
let adminToken: string | undefined;
async function signInOverTheApi() {
  const login = await fetch(`${server.url}/v1/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(ADMIN) });
  adminToken = ((await login.json()) as { results: { accessToken: string } }).results.accessToken;
}

/** The payment reference of a number's latest call, as the admin reads it over the API. */
async function paymentRefOf(phoneNumber: string): Promise<string> {
  const found = await fetch(`${server.url}/v1/transactions/search?limit=1`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ phoneNumber }),
  });
  const ref = ((await found.json()) as { results: { docs: { paymentRef?: string }[] } }).results.docs[0]?.paymentRef;
  assert.ok(ref, `no call of ${phoneNumber}`);
  return ref;
}

/**
 * A sale paid right after its confirmation, as the provider's signed callback says SUCCESSFUL
 * (well before the local provider would refuse it): made and paid within one write of the stream
 * as a rule, which then first hears of it already processed.
 */
async function paidSale(): Promise<string> {
  const phoneNumber = await failingSale();
  const { payload, headers } = signedCallback({ reference: await paymentRefOf(phoneNumber), status: 'SUCCESSFUL' }, CALLBACK_SECRET);
  const paid = await fetch(`${server.url}/v1/payments/callback`, { method: 'POST', headers, body: payload });
  assert.equal(paid.status, 200, await paid.text());
  return phoneNumber;
}

const rowOf = (phoneNumber: string) => listRows(page).filter({ hasText: phoneNumber });
const liveState = () => page.locator('[data-live]').first().getAttribute('data-live');

async function go(path: string) {
  await page.goto(`${baseUrl}${path}`);
  await page.getByTestId('route-overlay').waitFor({ state: 'hidden', timeout: 15_000 });
}

async function openFailed() {
  await go('/failed');
  await chooseServiceCode(page, CODE);
  await listRows(page).first().waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => document.querySelector('[data-live]')?.getAttribute('data-live') === 'open', undefined, { timeout: 30_000 });
}

async function setColourMode(mode: 'Light' | 'Dark') {
  await go('/settings');
  await page.getByRole('main').getByRole('button', { name: mode, exact: true }).click();
}

/** What the reader sees (the window, scrolled), the chip under the top bar. */
async function viewShot(name: string) {
  await page.waitForFunction(() => !document.querySelector('#notistack-snackbar'), undefined, { timeout: 20_000 });
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(OUTPUT, `${name}.png`) });
}

/** Failed scrolled down, a sale failing meanwhile: the chip counts it and the rows stay put. */
async function chipShown(): Promise<string> {
  await openFailed();
  await page.evaluate(() => window.scrollTo(0, 400));
  await page.waitForFunction(() => window.scrollY > 100);
  const phone = await failingSale();
  await page.getByRole('button', { name: '1 new call' }).waitFor({ timeout: 20_000 });
  assert.equal(await rowOf(phone).count(), 0, 'the new call was put in under the scrolled reader');
  return phone;
}

test('a sale failing while Failed is open appears without a click; scrolled down, it waits in a chip', async () => {
  await signIn(page, baseUrl, ADMIN.userName, ADMIN.password);
  await page.waitForURL(`${baseUrl}/transactions`);
  // Enough failed calls today for the list to scroll, made before Failed is opened.
  await Promise.all(Array.from({ length: 40 }, () => failingSale()));
  await openFailed();
  // The first connection opens quietly: no offline chip on the way.
  assert.equal(await page.getByText('Offline').count(), 0);

  const phone = await failingSale();
  await rowOf(phone).waitFor({ timeout: 20_000 });
  assert.equal(await page.getByRole('button', { name: /new calls?$/ }).count(), 0, 'a reader at the top of page 1 gets no chip');

  const waiting = await chipShown();
  await viewShot('live-updates-chip-1440-light');
  await page.getByRole('button', { name: '1 new call' }).click();
  await rowOf(waiting).waitFor({ timeout: 20_000 });
  assert.ok((await page.evaluate(() => window.scrollY)) < 10, 'the chip goes to the top');
  assert.equal(await page.getByRole('button', { name: /new calls?$/ }).count(), 0);

  await setColourMode('Dark');
  await chipShown();
  await viewShot('live-updates-chip-1440-dark');

  await page.setViewportSize({ width: 412, height: 915 });
  await chipShown();
  await viewShot('live-updates-chip-412-dark');
  await setColourMode('Light');
  await chipShown();
  await viewShot('live-updates-chip-412-light');
});

test('sales paid at once while Transactions is open appear within 10 s, without a click', async () => {
  await page.setViewportSize({ width: 1440, height: 900 });
  if (!page.url().startsWith(baseUrl)) {
    await signIn(page, baseUrl, ADMIN.userName, ADMIN.password);
    await page.waitForURL(`${baseUrl}/transactions`);
  }
  await signInOverTheApi();
  await go('/transactions');
  await chooseServiceCode(page, CODE);
  await listRows(page).first().waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => document.querySelector('[data-live]')?.getAttribute('data-live') === 'open', undefined, { timeout: 30_000 });
  for (let sale = 0; sale < 3; sale += 1) {
    const phone = await paidSale();
    await rowOf(phone).waitFor({ timeout: 10_000 });
    assert.match(await rowOf(phone).innerText(), /processed/);
  }
});

test('the top bar says offline while the server is gone, and stops once it is back', async () => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openFailed();
  const offline = page.getByRole('status').filter({ hasText: 'Offline — reconnecting' });
  assert.equal(await offline.count(), 0);

  await relay.down();
  await offline.waitFor({ timeout: 20_000 });
  assert.equal(await liveState(), 'offline');
  await screenshot(page, 'live-updates-offline-1440-light');

  // Calls made while the console was cut off are read in when it reconnects.
  const missed = await failingSale();
  await relay.up();
  await offline.waitFor({ state: 'detached', timeout: 40_000 });
  assert.equal(await liveState(), 'open');
  await rowOf(missed).waitFor({ timeout: 20_000 });
});
