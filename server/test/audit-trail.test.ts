import { sql } from 'drizzle-orm';
import { canonicalJson, chainHash, GENESIS_HASH } from '../src/audit/audit-chain';
import { fieldChanges, recordAudit } from '../src/audit/record-audit';
import { buildTestWorld, type TestWorld } from './helpers';

/**
 * The trail itself: append-only in the database, hash-chained so verify finds an entry changed or
 * removed by SQL, chained correctly when many writers append at once, listed and filtered newest
 * first for admins and super-users only.
 */

jest.setTimeout(60_000);

let world: TestWorld;
let admin: { user: { id: string; userName: string }; headers: Record<string, string> };

beforeAll(async () => {
  world = await buildTestWorld();
  admin = await world.headersFor('admin');
});
afterAll(() => world.close());

const get = (url: string, headers = admin.headers) => world.app.inject({ method: 'GET', url, headers });
const verify = async () => (await get('/v1/audit/verify')).json().results as { ok: boolean; entries: number; firstBrokenId: string | null };
const who = { actor: { id: null, userName: null, role: null }, ip: null };
const system = (label: string, after: Record<string, unknown> = {}) =>
  ({ ...who, action: 'category.update', entity: { type: 'category', id: null, label }, after }) as const;

/** Runs SQL as the superuser with the append-only triggers off, as someone tampering with the database would. */
async function tamper(statement: ReturnType<typeof sql>) {
  await world.db.transaction(async (tx) => {
    await tx.execute(sql`set local session_replication_role = replica`);
    await tx.execute(statement);
  });
}

describe('canonical JSON and the chain', () => {
  it('sorts keys at every depth, drops undefined, and hashes the previous hash with the content', () => {
    expect(canonicalJson({ b: 1, a: [{ d: null, c: 'x' }], e: undefined, f: 1.5, g: Number.NaN })).toBe('{"a":[{"c":"x","d":null}],"b":1,"f":1.5,"g":null}');
    expect(canonicalJson({ 'é': 1, z: 2, Z: 3 })).toBe('{"Z":3,"z":2,"é":1}');
    const content = { id: 'x', at: '2026-05-01T10:15:00.000Z', actor: { id: null, userName: null, role: null }, ip: null, action: 'a', entity: { type: 'user', id: null, label: 'l' }, serviceCode: null, changes: [], reason: null };
    expect(chainHash(GENESIS_HASH, content)).toMatch(/^[0-9a-f]{64}$/);
    expect(chainHash(GENESIS_HASH, content)).not.toBe(chainHash(chainHash(GENESIS_HASH, content), content));
  });

  it('records one change per field that differs, nested fields dotted, secrets as changed only', () => {
    const before = { name: 'Tips', price: { vip: 5000, ordinary: 1000 }, password: 'hash-1', agent: null };
    const after = { name: 'Tips', price: { vip: 6000, ordinary: 1000 }, password: 'hash-2', agent: 'kato' };
    expect(fieldChanges(before, after)).toEqual([
      { field: 'price.vip', before: 5000, after: 6000 },
      { field: 'password', before: '[changed]', after: '[changed]' },
      { field: 'agent', before: null, after: 'kato' },
    ]);
    expect(fieldChanges(null, { resetToken: 't', apiSecret: 's', name: 'n' })).toEqual([
      { field: 'resetToken', before: null, after: '[changed]' },
      { field: 'apiSecret', before: null, after: '[changed]' },
      { field: 'name', before: null, after: 'n' },
    ]);
  });
});

describe('append-only', () => {
  it('refuses UPDATE, DELETE and TRUNCATE of the trail, and removing its head, in the database', async () => {
    await recordAudit(world.db, system('Category Append only'));
    for (const statement of [sql`update audit_log set reason = 'x'`, sql`delete from audit_log`, sql`truncate audit_log`, sql`delete from audit_head`, sql`truncate audit_head`]) {
      const error = await world.db.execute(statement).then(() => undefined, (e: { cause?: Error }) => e.cause?.message);
      expect(error).toMatch(/is refused: the audit trail is append-only/);
    }
    expect((await verify()).ok).toBe(true);
  });
});

describe('GET /v1/audit/verify', () => {
  it('finds an entry changed by SQL, then one removed, then the newest ones removed', async () => {
    for (let i = 0; i < 3; i += 1) await recordAudit(world.db, system(`Category Tamper ${i}`, { price: { vip: 5000 + i } }));
    const before = await verify();
    expect(before).toEqual({ ok: true, entries: expect.any(Number), firstBrokenId: null });
    const rows = (await world.db.execute(sql`select id, seq, changes from audit_log order by seq desc limit 3`)) as unknown as { rows: { id: string; seq: number; changes: unknown }[] };
    const [newest, middle, oldest] = rows.rows;

    // A price rewritten in place: that very entry is the first broken one.
    await tamper(sql`update audit_log set changes = '[{"field":"price.vip","before":null,"after":1}]' where id = ${middle.id}`);
    expect(await verify()).toEqual({ ok: false, entries: before.entries, firstBrokenId: middle.id });
    await tamper(sql`update audit_log set changes = ${JSON.stringify(middle.changes)}::jsonb where id = ${middle.id}`);
    expect((await verify()).ok).toBe(true);

    // An entry removed: the one after it no longer chains.
    const [removed] = ((await world.db.execute(sql`select * from audit_log where id = ${oldest.id}`)) as unknown as { rows: Record<string, unknown>[] }).rows;
    await tamper(sql`delete from audit_log where id = ${oldest.id}`);
    expect(await verify()).toEqual({ ok: false, entries: before.entries - 1, firstBrokenId: expect.any(String) });
    await tamper(sql`insert into audit_log select * from jsonb_populate_record(null::audit_log, ${JSON.stringify(removed)}::jsonb)`);
    expect((await verify()).ok).toBe(true);

    // The newest entry removed: every hash left chains, but the head names one that is gone.
    await tamper(sql`delete from audit_log where id = ${newest.id}`);
    expect(await verify()).toEqual({ ok: false, entries: before.entries - 1, firstBrokenId: null });
  });
});

describe('concurrent writers', () => {
  it('chains 20 appends made at once, each in a transaction of its own, without a gap or a fork', async () => {
    const fresh = await buildTestWorld();
    try {
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          fresh.db.transaction(async (tx) => {
            await tx.execute(sql`select 1`);
            await recordAudit(tx, system(`Category Parallel ${i}`, { name: `Parallel ${i}` }));
          }),
        ),
      );
      const other = await fresh.secondInstance();
      if (other) {
        // A second API process on the same PostgreSQL appends at the same time as the first.
        await Promise.all(Array.from({ length: 20 }, (_, i) => recordAudit(i % 2 ? fresh.db : other.db, system(`Category Two processes ${i}`))));
        await other.close();
      }
      const { rows } = (await fresh.db.execute(sql`select count(*)::int as n, count(distinct seq)::int as seqs, max(seq)::int as top from audit_log`)) as unknown as { rows: { n: number; seqs: number; top: number }[] };
      const expected = other ? 40 : 20;
      expect(rows[0]).toEqual({ n: expected, seqs: expected, top: expected });
      const headers = (await fresh.headersFor('super-user')).headers;
      // The super-user's own sign-in is an entry too.
      expect((await fresh.app.inject({ method: 'GET', url: '/v1/audit/verify', headers })).json().results).toEqual({ ok: true, entries: expected + 1, firstBrokenId: null });
    } finally {
      await fresh.close();
    }
  });
});

describe('GET /v1/audit', () => {
  it('lists newest first in pages, filtered by actor (id or name), action, record, service code and time', async () => {
    const at = { actor: { id: admin.user.id, userName: admin.user.userName, role: 'admin' }, ip: '203.0.113.7' };
    await recordAudit(world.db, { ...at, action: 'service-code.update', entity: { type: 'service-code', id: 'code-1', label: 'Service code *217*4#' }, serviceCode: '*217*4#', before: { name: 'a' }, after: { name: 'b' } });
    await recordAudit(world.db, { ...at, action: 'service-code.update', entity: { type: 'service-code', id: 'code-1', label: 'Service code *217*4#' }, serviceCode: '*217*4#', before: { name: 'b' }, after: { name: 'c' }, reason: 'Renamed' });
    const page = (await get('/v1/audit?entityType=service-code&entityId=code-1&limit=1')).json().results;
    expect(page).toMatchObject({ total: 2, page: 1, limit: 1, pages: 2, next: 2 });
    expect(page.docs).toEqual([
      {
        _id: expect.any(String),
        at: expect.any(String),
        actor: { _id: admin.user.id, userName: admin.user.userName, role: 'admin' },
        ip: '203.0.113.7',
        action: 'service-code.update',
        entity: { type: 'service-code', id: 'code-1', label: 'Service code *217*4#' },
        serviceCode: '*217*4#',
        changes: [{ field: 'name', before: 'b', after: 'c' }],
        reason: 'Renamed',
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    ]);
    const total = async (query: string) => (await get(`/v1/audit?${query}`)).json().results.total as number;
    expect(await total(`actor=${admin.user.id}&serviceCode=${encodeURIComponent('*217*4#')}`)).toBe(2);
    expect(await total(`actor=${admin.user.userName.toUpperCase()}&action=service-code.update`)).toBe(2);
    expect(await total('actor=nobody-at-all')).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect(await total(`entityId=code-1&from=${encodeURIComponent(new Date(Date.now() - 60_000).toISOString())}&to=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).toBe(2);
    expect(await total(`entityId=code-1&to=2000-01-01`)).toBe(0);
    expect(await total(`entityId=code-1&from=2999-01-01`)).toBe(0);
    // A day is the service zone's (Kampala, UTC+3): yesterday and tomorrow in UTC bracket it.
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    expect(await total(`entityId=code-1&from=${day(-1)}&to=${day(1)}`)).toBe(2);
    expect(today).toMatch(/^\d{4}-/);
  });

  it('answers a bad filter with a 400 naming the field, and anyone but admins and super-users with 403', async () => {
    for (const [query, field] of [['action=category.delete', 'action'], ['entityType=planet', 'entityType'], ['from=yesterday', 'from'], ['to=2026-02-30', 'to'], ['from=2026-05-01T10:00:00', 'from'], ['actor=a&actor=b', 'actor']]) {
      const response = await get(`/v1/audit?${query}`);
      expect([query, response.statusCode, response.json().errors[0]?.field]).toEqual([query, 400, field]);
    }
    const agent = (await world.headersFor('agent')).headers;
    for (const url of ['/v1/audit', '/v1/audit/export', '/v1/audit/verify']) {
      expect((await get(url, agent)).statusCode).toBe(403);
      expect((await get(url, {})).statusCode).toBe(401);
    }
  });

  it('exports the filter as CSV, newest first, and records the export with its filter and rows', async () => {
    const csv = await get('/v1/audit/export?entityId=code-1');
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('At,Actor,Actor id,Role,Address,Action,Entity type,Entity id,Entity,Service code,Changes,Reason,Hash');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(',Name b → c,Renamed,');
    const [entry] = (await get('/v1/audit?action=export.audit')).json().results.docs;
    expect(entry).toMatchObject({
      actor: { userName: admin.user.userName },
      entity: { type: 'export', id: null, label: 'Export audit-trail.csv' },
      changes: [
        { field: 'filter.entityId', before: null, after: 'code-1' },
        { field: 'rows', before: null, after: 2 },
      ],
    });
  });
});
