import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { DRAWN_ROW_SELECTOR } from '../src/components/paged-view';
import { DEFAULT_SERVICE_TIME_ZONE } from '../src/domain/format';
import { freePort } from '../scripts/free-port';

export const ROOT = path.resolve(__dirname, '..');
export const OUTPUT = path.join(ROOT, 'e2e', 'output');
export const ADMIN = { userName: 'admin', password: 'e2e-admin-password' } as const;
/** The USSD callback token of every server the browser tests start (what `npm run simulate` reads from USSD_CALLBACK_TOKEN). */
export const USSD_TOKEN = 'e2e-ussd-callback-token';

/** A list's rows, as the DataGrid draws them on a wide screen and as cards on a phone (PagedGrid). */
export const listRows = (scope: Page | Locator) => scope.locator(DRAWN_ROW_SELECTOR);

export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

export interface RunningServer {
  url: string;
  stop(): Promise<void>;
}

export interface ServerOptions {
  /** More environment (providers, rates…), over the defaults below. */
  env?: Record<string, string>;
  /** A fixed port (a worktree's range); a free one otherwise. */
  port?: number;
}

const MAIN = path.join(ROOT, 'dist/server/server/src/main.js');

/** Starts the built app (`npm run serve`) on a fresh embedded database with demo data. */
export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  if (!fs.existsSync(MAIN) || !fs.existsSync(path.join(ROOT, 'dist/web/index.html'))) {
    throw new Error('The app is not built: run `npm run build` first');
  }
  // options.port, else E2E_PORT, pins the port (engineers sharing a machine each keep to their own range).
  const port = options.port ?? (process.env.E2E_PORT ? Number(process.env.E2E_PORT) : await freePort());
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dialdesk-e2e-'));
  const env: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    ADMIN_USERNAME: ADMIN.userName,
    ADMIN_PASSWORD: ADMIN.password,
    SEED_DEMO: '1',
    // The demo's accounts sign in with their password alone, as a newcomer's `npm start` does.
    REQUIRE_2FA_ROLES: '',
    USSD_CALLBACK_TOKEN: USSD_TOKEN,
    LOG_LEVEL: 'warn',
    ...options.env,
  };
  // Seeding the demo data costs a server ~20 s of CPU: it is done once (demoData) and copied.
  if (env.SEED_DEMO === '1' && env.DATA_DIR === dataDir) fs.cpSync(await demoData(env), dataDir, { recursive: true });
  const server = await runServer(env);
  return {
    url: server.url,
    async stop() {
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Runs dist's main.js with the environment until /healthz answers. */
async function runServer(env: Record<string, string | undefined>): Promise<RunningServer> {
  const child: ChildProcess = spawn(process.execPath, [MAIN], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout?.on('data', (chunk) => (log += chunk));
  child.stderr?.on('data', (chunk) => (log += chunk));
  const url = `http://127.0.0.1:${env.PORT}`;
  // Seeding the demo data takes a minute or more on a busy machine.
  const deadline = Date.now() + 240_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start in time:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/** The settings the seeded data depends on: the admin, the service's zone (its days) and the build. */
function demoDataKey(env: Record<string, string | undefined>): string {
  const zone = env.TZ_NAME || DEFAULT_SERVICE_TIME_ZONE;
  // The demo's 'today' is the service's day when it was seeded: another day seeds again.
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
  const build = fs.statSync(MAIN).mtimeMs;
  return crypto
    .createHash('sha256')
    .update(JSON.stringify([env.ADMIN_USERNAME, env.ADMIN_PASSWORD, zone, today, build]))
    .digest('hex')
    .slice(0, 16);
}

const DEMO_DATA_ROOT = path.join(ROOT, 'dist', 'e2e-demo-data');
/** Files main.js makes in DATA_DIR when their settings are unset: each server makes its own. */
const PER_SERVER_SECRETS = ['jwt-secret', 'payment-callback-secret', 'ussd-callback-token'];

/**
 * A data directory with the demo seeded, made once per build and service day by whichever spec asks
 * first: spec files run as processes of their own, so a lock directory makes the others wait for it.
 * A server started on a copy finds its first admin and the demo there and seeds nothing.
 */
async function demoData(env: Record<string, string | undefined>): Promise<string> {
  const key = demoDataKey(env);
  const ready = path.join(DEMO_DATA_ROOT, key);
  const lock = `${ready}.lock`;
  fs.mkdirSync(DEMO_DATA_ROOT, { recursive: true });
  const deadline = Date.now() + 300_000;
  while (!fs.existsSync(ready)) {
    if (Date.now() > deadline) throw new Error(`the demo data at ${ready} was not made in time`);
    try {
      fs.mkdirSync(lock);
    } catch {
      // Another spec is seeding: wait for it, unless it died holding the lock.
      if (!lockHolderAlive(lock)) fs.rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    try {
      fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
      await seedDemoData(env, ready);
    } finally {
      fs.rmSync(lock, { recursive: true, force: true });
    }
  }
  return ready;
}

function lockHolderAlive(lock: string): boolean {
  try {
    process.kill(Number(fs.readFileSync(path.join(lock, 'pid'), 'utf8')), 0);
    return true;
  } catch (error) {
    // No pid file yet: the holder has only just taken the lock.
    return (error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function seedDemoData(env: Record<string, string | undefined>, ready: string): Promise<void> {
  const building = `${ready}.building`;
  fs.rmSync(building, { recursive: true, force: true });
  // Only the settings the data depends on; no incident rule runs, so a copy starts as a fresh seed does.
  const seeding = await runServer({
    ...process.env,
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    DATA_DIR: building,
    DATABASE_URL: '',
    ADMIN_USERNAME: env.ADMIN_USERNAME,
    ADMIN_PASSWORD: env.ADMIN_PASSWORD,
    TZ_NAME: env.TZ_NAME,
    SEED_DEMO: '1',
    USSD_CALLBACK_TOKEN: USSD_TOKEN,
    INCIDENT_CHECK_SECONDS: '0',
    LOG_LEVEL: 'warn',
  });
  await seeding.stop();
  for (const name of PER_SERVER_SECRETS) fs.rmSync(path.join(building, name), { force: true });
  // Earlier builds' and days' copies are of no more use.
  for (const entry of fs.readdirSync(DEMO_DATA_ROOT)) {
    if (!entry.includes('.')) fs.rmSync(path.join(DEMO_DATA_ROOT, entry), { recursive: true, force: true });
  }
  fs.renameSync(building, ready);
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_FLAGS,
    headless: true,
  });
}

/**
 * Waits until nothing on the page moves: every CSS transition and finite animation has ended (a toast
 * or a drawer sliding in, a popover growing, a colour fading) and the charts' shapes, which their
 * library moves frame by frame, are the same two frames running. At least two frames, so a
 * transition that a click has only just asked for has begun.
 */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(() => delete (window as unknown as { lastShapes?: string }).lastShapes);
  await page.waitForFunction(
    () => {
      const moving = document.getAnimations().some((animation) => animation.playState === 'running' && animation.effect?.getTiming().iterations !== Infinity);
      const shapes = [...document.querySelectorAll('svg path, svg rect')]
        .map((shape) => `${shape.getAttribute('d')}${shape.getAttribute('height')}${shape.getAttribute('transform')}`)
        .join('|');
      const held = window as unknown as { lastShapes?: string };
      const still = held.lastShapes === shapes;
      held.lastShapes = shapes;
      return still && !moving;
    },
    undefined,
    { polling: 'raf', timeout: 10_000 },
  ).catch(() => undefined); // a screen that never holds still (a live chart) is taken as it is
}

/** Saves a full-page screenshot under e2e/output (a CI artifact). */
export async function screenshot(page: Page, name: string) {
  fs.mkdirSync(OUTPUT, { recursive: true });
  // The route overlay (SPEC §9, 1 s) and the charts' entry animations would otherwise be caught mid-way.
  // The overlay's second is a timer on the page's main thread, which a loaded run (three spec files'
  // browsers on two cores) can keep busy for seconds after a full load: one such run passed 5 s.
  await page.getByTestId('route-overlay').waitFor({ state: 'hidden', timeout: 15_000 });
  await settled(page);
  // A full-page capture does not scroll, so what lies below the screen and is drawn only near it
  // (the phone cards' content-visibility: auto) would show blank; a person scrolling sees it drawn.
  const drawAll = await page.addStyleTag({ content: '* { content-visibility: visible !important; }' });
  await page.screenshot({ path: path.join(OUTPUT, `${name}.png`), fullPage: true });
  await drawAll.evaluate((style) => (style as HTMLStyleElement).remove());
}

/**
 * A client-side route change, as a link click makes it (no reload). The router keeps the screen
 * being left on show while the next one's code loads (a React transition), so the next screen's own
 * heading is waited for, or a step may act on the old screen (a slow CI run typed a number into the
 * search being left, /search for /world/cup/search); then the route overlay's end.
 */
export async function go(page: Page, route: string): Promise<void> {
  const moved = await page.evaluate((to) => {
    const from = window.location.pathname;
    (window as unknown as { leftHeading: Element | null }).leftHeading = document.querySelector('main h1');
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
    return window.location.pathname !== from;
  }, route);
  if (moved) {
    await page
      .waitForFunction(() => {
        const heading = document.querySelector('main h1');
        return heading !== null && heading !== (window as unknown as { leftHeading: Element | null }).leftHeading;
      }, undefined, { timeout: 15_000 })
      .catch(() => undefined);
  }
  await page.getByTestId('route-overlay').waitFor({ state: 'hidden', timeout: 10_000 }).catch(() => undefined);
}

/** Light or dark, chosen on /settings as a person would (a phone has no settings panel). */
export async function setColourMode(page: Page, mode: 'Light' | 'Dark'): Promise<void> {
  await go(page, '/settings');
  await page.getByRole('main').getByRole('button', { name: mode, exact: true }).click();
}

/**
 * Chooses a code in the service-code switcher, unless it is shown already. An option reads 'code, category,
 * today's figures' (its text), so it is found by its name's start: '*217*1#' never picks '*217*10#'.
 */
export async function chooseServiceCode(page: Page, code: string): Promise<void> {
  const field = page.getByRole('combobox', { name: 'Service code' });
  await field.waitFor();
  if ((await field.inputValue()) === code) return;
  await field.click();
  const start = code.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await page.getByRole('option', { name: new RegExp(`^${start}`) }).click();
  await page.waitForFunction((chosen) => (document.querySelector('input[role="combobox"]') as HTMLInputElement | null)?.value === chosen, code);
}

export async function signIn(page: Page, baseUrl: string, userName: string, password: string) {
  await page.goto(`${baseUrl}/`);
  await page.getByLabel(/username/i).fill(userName);
  await page.getByLabel(/^password/i).fill(password);
  await page.getByRole('button', { name: /sign in/i }).click();
}

/**
 * Fails on any serious or critical axe violation (WCAG 2.1 A and AA) on the page as it is, and on a
 * page that scrolls sideways (a narrow phone's most common breakage).
 */
export async function assertAccessible(page: Page, where: string) {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const serious = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  assert.deepEqual(
    serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`),
    [],
    `axe on ${where}`,
  );
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `${where} scrolls sideways by ${overflow} px`);
}

/** What the screen shows, not the whole page: a dialog or a list over a long page (a full-page capture of a scrolled phone page misplaces the fixed bars). */
export async function viewportShot(page: Page, name: string) {
  fs.mkdirSync(OUTPUT, { recursive: true });
  await settled(page);
  await page.screenshot({ path: path.join(OUTPUT, `${name}.png`) });
}
