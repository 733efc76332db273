import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { buildTestWorld, TEST_CALLBACK_SECRET, USSD_CALLBACK_URL, type TestWorld } from './helpers';
import { openMemoryDatabase } from './memory-database';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

jest.setTimeout(30_000);

/** The metrics' `# TYPE name type` lines, as Prometheus reads them. */
const typesOf = (text: string) => new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map(([, name, type]) => [name, type]));
const valueOf = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('GET /metrics', () => {
  let world: TestWorld;
  let code: string;
  let categoryId: string;
  beforeAll(async () => {
    world = await buildTestWorld();
    const catalogue = await createCatalogue(world, null);
    code = catalogue.code.name;
    categoryId = catalogue.category.id;
    await insertTransactions(world, code, [
      { paymentRef: 'metrics-paid', categoryId: catalogue.category.id, categoryLevel: 'vip', amount: 20000 },
      { paymentRef: 'metrics-refused', categoryId: catalogue.category.id, categoryLevel: 'vip', amount: 20000 },
      { paymentRef: 'metrics-waiting', categoryId: catalogue.category.id, categoryLevel: 'vip', amount: 20000 },
    ]);
  });
  afterAll(() => world.close());

  const scrape = async () => {
    const answer = await world.app.inject({ method: 'GET', url: '/metrics' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    return answer.body;
  };

  it('names each metric the operations runbook and the dashboard read, with its type, and Node’s own', async () => {
    await world.app.inject({ method: 'GET', url: '/healthz' });
    await world.app.inject({ method: 'POST', url: USSD_CALLBACK_URL, payload: 'sessionId=m1&serviceCode=*000%23&phoneNumber=256770000001&text=', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    const types = typesOf(await scrape());
    expect(Object.fromEntries(['http_request_duration_seconds', 'dialdesk_ussd_hop_duration_seconds', 'dialdesk_sales_total', 'dialdesk_payments_pending', 'dialdesk_payments_silent', 'dialdesk_database_up', 'dialdesk_live_clients', 'dialdesk_incidents_open', 'dialdesk_db_pool_connections', 'process_cpu_user_seconds_total', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds'].map((name) => [name, types.get(name)]))).toEqual({
      http_request_duration_seconds: 'histogram',
      dialdesk_ussd_hop_duration_seconds: 'histogram',
      dialdesk_sales_total: 'counter',
      dialdesk_payments_pending: 'gauge',
      dialdesk_payments_silent: 'gauge',
      dialdesk_database_up: 'gauge',
      dialdesk_live_clients: 'gauge',
      dialdesk_incidents_open: 'gauge',
      dialdesk_db_pool_connections: 'gauge',
      process_cpu_user_seconds_total: 'counter',
      nodejs_heap_size_used_bytes: 'gauge',
      nodejs_eventloop_lag_seconds: 'gauge',
    });
  });

  it('labels a request by its route pattern, method and status, never by the ids in its path', async () => {
    const { headers } = await world.headersFor('admin');
    const id = '00000000-0000-4000-8000-000000000001';
    await world.app.inject({ method: 'GET', url: `/v1/transactions/${id}/events`, headers });
    const text = await scrape();
    expect(text).not.toContain(id);
    expect(text).toMatch(/http_request_duration_seconds_count\{route="\/v1\/transactions\/:id\/events",method="GET",status="\d{3}"\} 1/);
    expect(text).toMatch(/http_request_duration_seconds_count\{route="\/healthz",method="GET",status="200"\} \d/);
    expect(valueOf(text, 'dialdesk_ussd_hop_duration_seconds_count')).toBeGreaterThanOrEqual(1);
  });

  it('counts sales per code and outcome as they settle, and the payments still awaited', async () => {
    const before = await scrape();
    expect(valueOf(before, 'dialdesk_payments_pending')).toBe(3);
    expect((await world.pay('metrics-paid', 'SUCCESSFUL')).statusCode).toBe(200);
    expect((await world.pay('metrics-refused', 'FAILED')).statusCode).toBe(200);
    // A repeated final word settles nothing more, so it counts nothing more.
    await world.pay('metrics-paid', 'SUCCESSFUL');
    const after = await scrape();
    expect(valueOf(after, `dialdesk_sales_total{service_code="${code}",status="SUCCESSFUL"}`)).toBe(1);
    expect(valueOf(after, `dialdesk_sales_total{service_code="${code}",status="FAILED"}`)).toBe(1);
    expect(valueOf(after, 'dialdesk_payments_pending')).toBe(1);
    expect(valueOf(after, 'dialdesk_live_clients')).toBe(0);
    expect(valueOf(after, 'dialdesk_database_up')).toBe(1);
  });

  it("counts the payments the provider-silence rule counts: pending past its minutes with no word from the provider", async () => {
    expect(valueOf(await scrape(), 'dialdesk_payments_silent')).toBe(0);
    const longAgo = new Date(Date.now() - 30 * 60_000);
    await insertTransactions(world, code, [
      { paymentRef: 'metrics-silent-1', categoryId, categoryLevel: 'vip', amount: 20000, createdAt: longAgo },
      { paymentRef: 'metrics-silent-2', categoryId, categoryLevel: 'vip', amount: 20000, createdAt: longAgo },
    ]);
    expect(valueOf(await scrape(), 'dialdesk_payments_silent')).toBe(2);
    // The provider's answer ends the silence of that payment.
    expect((await world.pay('metrics-silent-1', 'SUCCESSFUL')).statusCode).toBe(200);
    const after = await scrape();
    expect(valueOf(after, 'dialdesk_payments_silent')).toBe(1);
    expect(valueOf(after, 'dialdesk_payments_pending')).toBe(2);
  });

  it('answers callers on this machine only when no token is set', async () => {
    for (const here of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      expect([here, (await world.app.inject({ method: 'GET', url: '/metrics', remoteAddress: here })).statusCode]).toEqual([here, 200]);
    }
    const answer = await world.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.1.2.3' });
    expect(answer.statusCode).toBe(403);
    expect(answer.body).not.toContain('http_request_duration_seconds');
    // X-Forwarded-For is the caller's own word: it must not open the door.
    const forged = await world.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.1.2.3', headers: { 'x-forwarded-for': '127.0.0.1' } });
    expect(forged.statusCode).toBe(403);
  });
});

describe('METRICS_TOKEN', () => {
  it('is unset unless given, and refused at start when short enough to guess', () => {
    const env = { JWT_SECRET: 'x', PAYMENT_CALLBACK_SECRET: 'y', USSD_CALLBACK_TOKEN: 'z'.repeat(20), DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'metrics-config-')) };
    expect(loadConfig(env).metricsToken).toBeUndefined();
    expect(loadConfig({ ...env, METRICS_TOKEN: '' }).metricsToken).toBeUndefined();
    expect(loadConfig({ ...env, METRICS_TOKEN: 'scrape-token-0123456789' }).metricsToken).toBe('scrape-token-0123456789');
    expect(() => loadConfig({ ...env, METRICS_TOKEN: 'short' })).toThrow('METRICS_TOKEN must be at least 16 characters');
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let world: TestWorld;
  beforeAll(async () => {
    world = await buildTestWorld({ metricsToken: 'scrape-token-0123456789' });
  });
  afterAll(() => world.close());

  it('asks every caller, this machine too, for the Bearer token', async () => {
    const get = (authorization?: string) => world.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.1.2.3', headers: authorization ? { authorization } : {} });
    expect((await get()).statusCode).toBe(401);
    expect((await get('Bearer wrong')).statusCode).toBe(401);
    expect((await world.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const answer = await get('Bearer scrape-token-0123456789');
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toContain('# TYPE http_request_duration_seconds histogram');
  });
});

describe('GET /readyz and X-Request-Id', () => {
  let world: TestWorld;
  beforeAll(async () => {
    world = await buildTestWorld();
  });
  afterAll(() => world.close());

  it('is ready while the database holds every migration of this build, and not once one is missing', async () => {
    expect((await world.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    const newest = await world.db.execute(sql`select id, hash, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`);
    const [row] = (newest as unknown as { rows: { id: number; hash: string; created_at: string }[] }).rows;
    await world.db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${row.id}`);
    try {
      const answer = await world.app.inject({ method: 'GET', url: '/readyz' });
      expect(answer.statusCode).toBe(503);
      expect(answer.json()).toMatchObject({ status: false });
      // Liveness is another question: the process itself is fine.
      expect((await world.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await world.db.execute(sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${row.id}, ${row.hash}, ${row.created_at})`);
    }
    expect((await world.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
  });

  it('names every answer with a request id, keeping a caller’s plain one and replacing anything else', async () => {
    const plain = await world.app.inject({ method: 'GET', url: '/healthz' });
    expect(plain.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const failed = await world.app.inject({ method: 'GET', url: '/v1/no-such-route' });
    expect(failed.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    // Refused by the router itself, before any route or hook.
    const tooLong = await world.app.inject({ method: 'PATCH', url: `/v1/users/${'x'.repeat(3000)}`, payload: {} });
    expect(tooLong.statusCode).toBe(414);
    expect(tooLong.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await world.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'proxy-4f2a9c1e' } });
    expect(kept.headers['x-request-id']).toBe('proxy-4f2a9c1e');
    for (const forged of ['a b c d e f g h', 'x'.repeat(65), 'short', 'line\u2028break-0123']) {
      const answer = await world.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': forged } });
      expect(answer.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe('a database that has gone away', () => {
  it('is not ready, still answers a scrape, and each server error names the request id its log lines carry', async () => {
    const logged: { reqId?: string; msg?: string; level?: number }[] = [];
    const stream = new Writable({ write: (chunk, _encoding, done) => void (logged.push(JSON.parse(String(chunk))), done()) });
    const database = await openMemoryDatabase();
    const app = await buildApp({ db: database.db, jwtSecret: 'gone-' + Date.now(), callbackSecret: TEST_CALLBACK_SECRET, logger: { level: 'info', stream } });
    await app.ready();
    try {
      expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      // A client error keeps the envelope as it was: no request id in the body, only in the header.
      const missing = await app.inject({ method: 'GET', url: '/v1/no-such-route' });
      expect(missing.json()).toEqual({ status: false, message: expect.any(String), errors: [] });
      await database.close();

      const notReady = await app.inject({ method: 'GET', url: '/readyz', headers: { 'x-request-id': 'probe-from-lb-0002' } });
      expect(notReady.statusCode).toBe(503);
      expect(notReady.headers['x-request-id']).toBe('probe-from-lb-0002');
      expect(notReady.json()).toEqual({ status: false, message: 'The database does not answer', errors: [], requestId: 'probe-from-lb-0002' });

      // A scrape still answers, with Node's figures and the requests answered meanwhile; the database's own figures are not known.
      const metrics = await app.inject({ method: 'GET', url: '/metrics' });
      expect(metrics.statusCode).toBe(200);
      expect(valueOf(metrics.body, 'dialdesk_database_up')).toBe(0);
      expect(valueOf(metrics.body, 'dialdesk_payments_pending')).toBeNaN();
      expect(valueOf(metrics.body, 'dialdesk_payments_silent')).toBeNaN();
      expect(metrics.body).toMatch(/^http_request_duration_seconds_count\{route="\/readyz",method="GET",status="503"\} 1$/m);
      expect(metrics.body).toContain('# TYPE process_cpu_user_seconds_total counter');

      const failed = await app.inject({ method: 'GET', url: '/healthz' });
      expect(failed.statusCode).toBeGreaterThanOrEqual(500);
      const id = failed.headers['x-request-id'] as string;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(failed.json()).toEqual({ status: false, message: expect.any(String), errors: [], requestId: id });
      // Support finds the failure from the id the user quotes: its arrival, its error and its answer.
      const lines = logged.filter((line) => line.reqId === id);
      expect(lines.map((line) => line.msg)).toEqual(expect.arrayContaining(['incoming request', 'request completed']));
      expect(lines.some((line) => (line.level ?? 0) >= 40)).toBe(true);
    } finally {
      await app.close().catch(() => undefined);
    }
  });
});
