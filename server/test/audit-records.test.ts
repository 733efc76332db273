import { sql } from 'drizzle-orm';
import { randomToken, sha256 } from '../src/auth/sessions';
import { passwordResets } from '../src/db/schema';
import { auditEntries, auditTableText } from './audit-fixtures';
import { categoryBody, createCategory, randomCode, type Headers } from './catalogue-fixtures';
import { buildTestWorld, TEST_PASSWORD, type TestWorld } from './helpers';

/**
 * Every staff write to a record leaves one audit entry in its transaction, with who, from where
 * and each field that changed: categories (a price per field), service codes, contents (their
 * activation too), users (a password only as changed) and SMS.
 */

jest.setTimeout(60_000);

let world: TestWorld;
let admin: { user: { id: string; userName: string }; headers: Headers };
let agent: { user: { id: string; userName: string }; headers: Headers };

beforeAll(async () => {
  world = await buildTestWorld();
  admin = await world.headersFor('admin');
  agent = await world.headersFor('agent');
});
afterAll(() => world.close());

const send = (method: 'POST' | 'PATCH', url: string, payload: object, headers = admin.headers) => world.app.inject({ method, url, headers, payload });
const entriesOf = (entityType: string, entityId: string) => auditEntries(world, admin.headers, { entityType, entityId });
const byAdmin = () => ({ _id: admin.user.id, userName: admin.user.userName, role: 'admin' });

describe('categories', () => {
  it('records the creation with every field, then one change per price that changed', async () => {
    const category = await createCategory(world, admin.headers, agent.user.id, { vip: 5000 });
    const [created] = await entriesOf('category', category._id);
    expect(created).toMatchObject({ action: 'category.create', actor: byAdmin(), ip: '127.0.0.1', entity: { type: 'category', id: category._id, label: `Category ${category.name}` }, serviceCode: null });
    expect(created.changes).toContainEqual({ field: 'price.vip', before: null, after: 5000 });
    expect(created.changes).toContainEqual({ field: 'agent', before: null, after: agent.user.userName });
    expect(created.changes.map((c) => c.field)).not.toContain('price.corporate');

    const response = await send('PATCH', `/v1/category/${category._id}`, { vip: 6000, ordinary: 1500 });
    expect(response.statusCode).toBe(200);
    const [updated] = await entriesOf('category', category._id);
    expect(updated).toMatchObject({ action: 'category.update', actor: byAdmin(), entity: { label: `Category ${category.name}` } });
    expect(updated.changes).toEqual([
      { field: 'price.ordinary', before: 1000, after: 1500 },
      { field: 'price.vip', before: 5000, after: 6000 },
    ]);

    // An edit that changes nothing records nothing.
    await send('PATCH', `/v1/category/${category._id}`, { vip: 6000 });
    expect(await entriesOf('category', category._id)).toHaveLength(2);
  });

  it('records nothing for a write that is refused or rolled back', async () => {
    const taken = await createCategory(world, admin.headers, agent.user.id);
    const before = (await auditEntries(world, admin.headers, { entityType: 'category' })).length;
    expect((await send('POST', '/v1/category', categoryBody(agent.user.id, { name: taken.name }))).statusCode).toBe(409);
    expect((await send('POST', '/v1/category', categoryBody(agent.user.id), agent.headers)).statusCode).toBe(403);
    expect(await auditEntries(world, admin.headers, { entityType: 'category' })).toHaveLength(before);
  });
});

describe('service codes', () => {
  it('records the registration and an edit, with the code as the entry\'s service code', async () => {
    const category = await createCategory(world, admin.headers, agent.user.id);
    const other = await createCategory(world, admin.headers, agent.user.id);
    const name = randomCode();
    const created = (await send('POST', '/v1/short-code', { name, description: 'Weekend', category: category._id })).json().results;
    const renamed = randomCode();
    expect((await send('PATCH', `/v1/short-code/${created._id}`, { name: renamed, category: other._id })).statusCode).toBe(200);
    const [update, create] = await entriesOf('service-code', created._id);
    expect(create).toMatchObject({ action: 'service-code.create', serviceCode: name, entity: { label: `Service code ${name}` } });
    expect(create.changes).toEqual([
      { field: 'name', before: null, after: name },
      { field: 'description', before: null, after: 'Weekend' },
      { field: 'category', before: null, after: category.name },
    ]);
    expect(update).toMatchObject({ action: 'service-code.update', serviceCode: renamed, entity: { label: `Service code ${renamed}` } });
    expect(update.changes).toEqual([
      { field: 'name', before: name, after: renamed },
      { field: 'category', before: category.name, after: other.name },
    ]);
  });
});

describe('contents', () => {
  it('records creation, activation, and the content of the same slot that stepped down', async () => {
    const category = await createCategory(world, admin.headers, agent.user.id);
    const ticket = (name: string, active: boolean) => ({ name, category: category._id, categoryLevel: 'vip', message: `Your ${name} ticket`, active });
    const first = (await send('POST', '/v1/ticket', ticket('First', true), agent.headers)).json().results;
    const second = (await send('POST', '/v1/ticket', ticket('Second', false), agent.headers)).json().results;
    expect((await send('PATCH', `/v1/ticket/${second._id}`, { active: true }, agent.headers)).statusCode).toBe(200);

    const [activated, created] = await entriesOf('content', second._id);
    expect(created).toMatchObject({ action: 'content.create', actor: { _id: agent.user.id, role: 'agent' }, entity: { label: 'Content Second' } });
    expect(created.changes).toContainEqual({ field: 'categoryLevel', before: null, after: 'vip' });
    expect(activated).toMatchObject({ action: 'content.update', changes: [{ field: 'active', before: false, after: true }] });
    const [steppedDown] = await entriesOf('content', first._id);
    expect(steppedDown).toMatchObject({ action: 'content.update', actor: { _id: agent.user.id }, changes: [{ field: 'active', before: true, after: false }], reason: 'Content Second was activated in its place' });
  });
});

describe('users', () => {
  it('records an account created and edited by an admin; its password only as changed', async () => {
    const userName = `audited-${Date.now()}`;
    const created = (await send('POST', '/v1/auth/create/other', { userName, password: 'first-password', role: 'agent' })).json().results;
    expect((await send('PATCH', `/v1/users/${created._id}`, { userName, isAfcon: true, password: 'second-password' })).statusCode).toBe(200);
    const [update, create] = await entriesOf('user', created._id);
    expect(create).toMatchObject({ action: 'user.create', actor: byAdmin(), entity: { type: 'user', label: `User ${userName}` } });
    expect(create.changes).toEqual([
      { field: 'userName', before: null, after: userName },
      { field: 'role', before: null, after: 'agent' },
      { field: 'isAfcon', before: null, after: false },
      { field: 'password', before: null, after: '[changed]' },
      { field: 'disabled', before: null, after: false },
      { field: 'twoFactorEnabled', before: null, after: false },
    ]);
    expect(update).toMatchObject({ action: 'user.update', changes: [{ field: 'isAfcon', before: false, after: true }, { field: 'password', before: '[changed]', after: '[changed]' }] });
    const table = await auditTableText(world);
    expect(table).not.toMatch(/first-password|second-password|\$argon2/);
  });

  it('records a profile edit, a password change by its owner and a reset by link, never the password', async () => {
    const me = await world.headersFor('agent', { email: 'before@example.com' });
    const profile = (payload: object) => send('PATCH', '/v1/users/update/profile', { userName: me.user.userName, myPassword: TEST_PASSWORD, ...payload }, me.headers);
    expect((await profile({ email: 'after@example.com' })).statusCode).toBe(200);
    expect((await profile({ password: 'my-new-password' })).statusCode).toBe(200);

    const token = randomToken();
    await world.db.insert(passwordResets).values({ userId: me.user.id, tokenHash: sha256(token), expiresAt: new Date(Date.now() + 60_000) });
    const reset = await world.app.inject({ method: 'POST', url: `/v1/auth/reset-forgot-password/${encodeURIComponent(token)}`, payload: { password: 'reset-password-1', confirmPassword: 'reset-password-1' } });
    expect(reset.statusCode).toBe(200);

    const [byLink, changed, edited] = await entriesOf('user', me.user.id);
    const self = { _id: me.user.id, userName: me.user.userName, role: 'agent' };
    expect(edited).toMatchObject({ action: 'user.update', actor: self, changes: [{ field: 'email', before: 'before@example.com', after: 'after@example.com' }] });
    expect(changed).toMatchObject({ action: 'user.password-change', actor: self, changes: [{ field: 'password', before: '[changed]', after: '[changed]' }] });
    expect(byLink).toMatchObject({ action: 'user.password-reset', actor: self, ip: '127.0.0.1', changes: [{ field: 'password', before: '[changed]', after: '[changed]' }] });
    expect(await auditTableText(world)).not.toMatch(/my-new-password|reset-password-1|\$argon2/);
  });
});

describe('SMS', () => {
  it('records a message sent by staff, with its number and text', async () => {
    const response = await send('POST', '/v1/sms', { phoneNumber: '+256772000111', message: 'Your match starts at 4', categoryLevel: 'vip' }, agent.headers);
    expect(response.statusCode).toBe(201);
    const [entry] = await entriesOf('sms', response.json().results._id);
    expect(entry).toMatchObject({
      action: 'sms.send',
      actor: { _id: agent.user.id },
      entity: { type: 'sms', label: 'SMS to 256772000111' },
      changes: [
        { field: 'phoneNumber', before: null, after: '256772000111' },
        { field: 'categoryLevel', before: null, after: 'vip' },
        { field: 'message', before: null, after: 'Your match starts at 4' },
      ],
    });
  });
});

describe('the chain after all of it', () => {
  it('verifies', async () => {
    const verified = (await world.app.inject({ method: 'GET', url: '/v1/audit/verify', headers: admin.headers })).json().results;
    const { rows } = (await world.db.execute(sql`select count(*)::int as n from audit_log`)) as unknown as { rows: { n: number }[] };
    expect(verified).toEqual({ ok: true, entries: rows[0].n, firstBrokenId: null });
  });
});
