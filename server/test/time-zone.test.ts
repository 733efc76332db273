import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { serviceTimeZone, todayInServiceZone } from '../../src/domain/format';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { serviceSettingsRepository } from '../src/repositories/service-settings-repository';
import { buildTestWorld, TEST_PASSWORD, type TestWorld } from './helpers';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

jest.setTimeout(30_000);

// TZ_NAME=Asia/Tokyo (UTC+9, no summer time): 2024-03-10 there runs from 2024-03-09T15:00Z to 2024-03-10T15:00Z.
const ZONE = 'Asia/Tokyo';
const DAY = '2024-03-10';

let world: TestWorld;
let admin: Record<string, string>;
let code: string;
const webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'dialdesk-web-'));

beforeAll(async () => {
  fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><html><head><meta name="service-time-zone" content="Africa/Kampala" /></head><body></body></html>');
  world = await buildTestWorld({ timeZone: ZONE, webRoot });
  admin = (await world.headersFor('admin')).headers;
  code = (await createCatalogue(world, null)).code.name;
  await insertTransactions(world, code, [
    { createdAt: new Date('2024-03-09T14:59:00Z'), isComplete: true, amount: 1000, categoryLevel: 'vip' }, // 23:59 on the 9th in Tokyo
    { createdAt: new Date('2024-03-09T15:30:00Z'), isComplete: true, amount: 1000, categoryLevel: 'vip' }, // 00:30 on the 10th (18:30 on the 9th in Kampala)
    { createdAt: new Date('2024-03-10T14:59:00Z'), isDeleted: true, amount: 1000, categoryLevel: 'vip' }, // 23:59 on the 10th
    { createdAt: new Date('2024-03-10T15:00:00Z'), isComplete: true, amount: 1000, categoryLevel: 'vip' }, // 00:00 on the 11th
  ]);
});
afterAll(async () => {
  await world.close();
  fs.rmSync(webRoot, { recursive: true, force: true });
});

describe('the service time zone (TZ_NAME)', () => {
  it('is read from TZ_NAME, and an unknown zone is refused at start', () => {
    expect(loadConfig({ TZ_NAME: ZONE, JWT_SECRET: 'x', PAYMENT_CALLBACK_SECRET: 'x' }).timeZone).toBe(ZONE);
    expect(loadConfig({ JWT_SECRET: 'x', PAYMENT_CALLBACK_SECRET: 'x' }).timeZone).toBe('Africa/Kampala');
    expect(() => loadConfig({ TZ_NAME: 'Mars/Olympus', JWT_SECRET: 'x', PAYMENT_CALLBACK_SECRET: 'x' })).toThrow(/TZ_NAME/);
    expect(serviceTimeZone()).toBe(ZONE);
  });

  it("lists a day's calls by that zone's day, and today by that zone's date", async () => {
    const response = await world.app.inject({ method: 'POST', url: '/v1/transactions?page=1&limit=10', headers: admin, payload: { name: code, date: DAY } });
    expect(response.statusCode).toBe(200);
    const { results } = response.json();
    expect(results.docs.map((doc: { createdAt: string }) => doc.createdAt)).toEqual(['2024-03-10T14:59:00.000Z', '2024-03-09T15:30:00.000Z']);
    expect(results.total).toBe(2);
    const today = await world.app.inject({ method: 'POST', url: '/v1/transactions', headers: admin, payload: { name: code } });
    expect(today.json().message).toBe(`Transactions for ${todayInServiceZone(new Date(), ZONE)}`);
  });

  it("counts the dashboard's day and hours in that zone", async () => {
    const response = await world.app.inject({ method: 'GET', url: `/v1/dashboard/summary?name=${encodeURIComponent(code)}&date=${DAY}`, headers: admin });
    const summary = response.json().results;
    expect(summary).toMatchObject({ date: DAY, total: 2, processed: 1, failed: 1, revenue: 1000 });
    expect(summary.perHour[0]).toMatchObject({ hour: 0, total: 1, processed: 1 });
    expect(summary.perHour[23]).toMatchObject({ hour: 23, total: 1, failed: 1 });
  });

  it('recounts the days when the server starts with another zone', async () => {
    const kampala = await buildApp({ db: world.db, jwtSecret: 'another-secret', timeZone: 'Africa/Kampala' });
    try {
      expect(await serviceSettingsRepository(world.db).timeZone()).toBe('Africa/Kampala');
      const user = await world.createUser('admin');
      const login = await kampala.inject({ method: 'POST', url: '/v1/auth/login', payload: { userName: user.userName, password: TEST_PASSWORD } });
      const headers = { authorization: `Bearer ${login.json().results.accessToken}` };
      const summary = (await kampala.inject({ method: 'GET', url: `/v1/dashboard/summary?name=${encodeURIComponent(code)}&date=${DAY}`, headers })).json().results;
      // In Kampala (UTC+3) the 10th runs from 2024-03-09T21:00Z: the last two calls, at 17:59 and 18:00.
      expect(summary).toMatchObject({ total: 2, processed: 1, failed: 1 });
      expect(summary.perHour[17]).toMatchObject({ total: 1, failed: 1 });
      expect(summary.perHour[18]).toMatchObject({ total: 1, processed: 1 });
    } finally {
      await kampala.close();
      await buildApp({ db: world.db, jwtSecret: 'another-secret', timeZone: ZONE }).then((app) => app.close());
    }
    expect(await serviceSettingsRepository(world.db).timeZone()).toBe(ZONE);
  });

  it('tells the SPA the zone in the index.html it serves', async () => {
    for (const url of ['/', '/index.html', '/transactions']) {
      const page = await world.app.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(`<meta name="service-time-zone" content="${ZONE}" />`);
      expect(page.body).not.toContain('Africa/Kampala');
    }
  });
});
