import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { generateSync } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, assertAccessible, go, launchBrowser, setColourMode, signIn, startServer, viewportShot, type RunningServer } from './harness';

/**
 * Two-factor sign-in as a person meets it: enrol on the profile by scanning the QR code (the
 * secret read from the otpauth URL it carries), keep the recovery codes, sign out, sign in with a
 * code; on a phone, sign in with a recovery code. Screens looked at light and dark, 1440 and 412 px.
 */

let server: RunningServer;
let browser: Browser;
let secret = '';
let recoveryCodes: string[] = [];

before(async () => {
  server = await startServer({ env: { SEED_DEMO: '0' } });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** The code of the next 30 s step: the one enrolment used is taken, and the server accepts a step either side. */
const nextCode = () => generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });

async function secondStep(page: Page) {
  await signIn(page, server.url, ADMIN.userName, ADMIN.password);
  await page.getByRole('form', { name: 'Two-factor sign-in' }).waitFor();
}

test('an admin enrols on the profile by scanning the QR code, then signs in with a code', async () => {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await signIn(page, server.url, ADMIN.userName, ADMIN.password);
  await page.waitForURL(`${server.url}/transactions`);
  await go(page, '/account');

  const setup = page.waitForResponse((response) => response.url().endsWith('/v1/auth/2fa/setup'));
  await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  const otpauthUrl = new URL((await (await setup).json()).results.otpauthUrl);
  assert.equal(otpauthUrl.protocol, 'otpauth:');
  secret = otpauthUrl.searchParams.get('secret') ?? '';
  assert.match(secret, /^[A-Z2-7]{16,}$/);
  await page.getByRole('img', { name: 'QR code to scan with an authenticator app' }).waitFor();
  assert.equal((await page.getByTestId('two-factor-secret').textContent())?.replace(/\s/g, ''), secret);
  await viewportShot(page, 'two-factor-enrol-1440-light');
  await assertAccessible(page, 'two-factor enrolment');

  const form = page.getByRole('form', { name: 'Turn on two-factor sign-in' });
  await form.getByLabel('Code').fill(generateSync({ secret }));
  await form.getByRole('button', { name: 'Turn on' }).click();
  const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await codes.first().waitFor();
  recoveryCodes = await codes.allTextContents();
  assert.equal(recoveryCodes.length, 10);
  await viewportShot(page, 'two-factor-recovery-codes-1440-light');
  await assertAccessible(page, 'two-factor recovery codes');
  await page.getByRole('button', { name: 'I have saved them' }).click();
  await page.getByRole('form', { name: 'Two-factor sign-in is on' }).waitFor();

  await setColourMode(page, 'Dark');
  await go(page, '/account');
  await page.getByRole('form', { name: 'Two-factor sign-in is on' }).waitFor();
  await viewportShot(page, 'two-factor-on-1440-dark');
  await assertAccessible(page, 'two-factor on, dark');

  await page.getByRole('button', { name: 'Logout' }).click();
  await secondStep(page);
  await viewportShot(page, 'two-factor-sign-in-1440');
  await assertAccessible(page, 'two-factor sign-in step');
  const step = page.getByRole('form', { name: 'Two-factor sign-in' });
  await step.getByLabel('Code').fill('000000');
  await step.getByRole('button', { name: 'Verify' }).click();
  await step.getByText('Incorrect code').waitFor();
  await step.getByLabel('Code').fill(nextCode());
  await step.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL(`${server.url}/transactions`);
  await context.close();
});

test('on a phone, the second step takes a recovery code once', async () => {
  assert.equal(recoveryCodes.length, 10, 'enrolled by the test before');
  const context = await browser.newContext({ viewport: { width: 412, height: 915 }, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await secondStep(page);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await viewportShot(page, 'two-factor-recovery-412-light');
  await assertAccessible(page, 'two-factor recovery step on a phone');
  const step = page.getByRole('form', { name: 'Two-factor sign-in' });
  await step.getByLabel('Recovery code').fill(recoveryCodes[0]);
  await step.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL(`${server.url}/transactions`);
  await go(page, '/account');
  await page.getByRole('form', { name: 'Two-factor sign-in is on' }).waitFor();
  await viewportShot(page, 'two-factor-on-412-light');
  await assertAccessible(page, 'two-factor on, phone');
  await context.close();
});

test('the Users screen shows status, last sign-in and 2FA, and disables an account after asking', async () => {
  for (const [width, height, mode] of [[1440, 900, 'Light'], [412, 915, 'Dark']] as const) {
    const context = await browser.newContext({ viewport: { width, height }, ...(width < 600 ? { isMobile: true, hasTouch: true } : {}) });
    const page = await context.newPage();
    await secondStep(page);
    await page.getByRole('button', { name: 'Use a recovery code' }).click();
    const step = page.getByRole('form', { name: 'Two-factor sign-in' });
    await step.getByLabel('Recovery code').fill(recoveryCodes[width < 600 ? 2 : 1]);
    await step.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL(`${server.url}/transactions`);
    await setColourMode(page, mode);
    if (width > 600) {
      await go(page, '/users');
      await page.getByRole('tab', { name: 'Create new account' }).click();
      const form = page.getByRole('form', { name: 'Create new account' });
      await form.getByLabel('Username').fill('care-desk');
      await form.getByLabel('Password').fill('care-password-1');
      await form.getByRole('combobox', { name: 'Role' }).click();
      await page.getByRole('option', { name: 'Customer care' }).click();
      await form.getByRole('button', { name: 'Create account' }).click();
      await page.getByText('Successfully created a new user').waitFor();
      await page.getByRole('tab', { name: 'All' }).click();
      await page.getByRole('button', { name: 'Disable care-desk' }).click();
      await viewportShot(page, 'users-disable-confirm-1440-light');
      await page.getByRole('dialog', { name: 'Disable care-desk?' }).getByRole('button', { name: 'Disable account' }).click();
      await page.getByRole('button', { name: 'Enable care-desk' }).waitFor();
    } else {
      await go(page, '/users');
    }
    await page.getByRole('main').getByText('care-desk', { exact: true }).first().waitFor();
    await viewportShot(page, `users-${width}-${mode.toLowerCase()}`);
    await assertAccessible(page, `users at ${width} px, ${mode}`);
    await context.close();
  }
});

test('a role that requires two-factor is taken to its profile and reaches nothing else until it is on', async () => {
  const gated = await startServer({ env: { SEED_DEMO: '0', REQUIRE_2FA_ROLES: 'admin,super-user' } });
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await signIn(page, gated.url, ADMIN.userName, ADMIN.password);
    await page.waitForURL(`${gated.url}/account`);
    await page.getByText('Your role signs in with two-factor: set it up to use Dialdesk.').waitFor();
    await page.getByTestId('route-overlay').waitFor({ state: 'hidden' });
    assert.equal(await page.getByText(/Offline/).count(), 0);
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    assert.deepEqual(await menu.getByRole('link').allTextContents(), ['Profile']);
    await viewportShot(page, 'two-factor-required-1440-light');
    await assertAccessible(page, 'two-factor required');

    const setup = page.waitForResponse((response) => response.url().endsWith('/v1/auth/2fa/setup'));
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    const own = new URL((await (await setup).json()).results.otpauthUrl).searchParams.get('secret') ?? '';
    const form = page.getByRole('form', { name: 'Turn on two-factor sign-in' });
    await form.getByLabel('Code').fill(generateSync({ secret: own }));
    await form.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await go(page, '/users');
    await page.getByRole('grid', { name: 'Users' }).waitFor();
    await context.close();
  } finally {
    await gated.stop();
  }
});
