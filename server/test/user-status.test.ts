import { auditEntries } from './audit-fixtures';
import { buildTestWorld, eventually, TEST_PASSWORD, type TestWorld } from './helpers';

/**
 * An admin disables an account (not their own) with `{ disabled }` alone: it cannot sign in, its
 * sessions end (in this process at once, in another within the session check's time), and the
 * trail records who did it; enabling lets it sign in again.
 */

jest.setTimeout(60_000);

const CHECK_MS = 1000;
let world: TestWorld;
let admin: Awaited<ReturnType<TestWorld['headersFor']>>;

beforeAll(async () => {
  world = await buildTestWorld({ sessionCheckMs: CHECK_MS });
  admin = await world.headersFor('admin');
}, 60_000);
afterAll(() => world.close());

const patch = (id: string, payload: unknown, headers = admin.headers) => world.app.inject({ method: 'PATCH', url: `/v1/users/${id}`, headers, payload: payload as object });
const profileOf = (accessToken: string) => world.app.inject({ method: 'GET', url: '/v1/auth/profile', headers: { authorization: `Bearer ${accessToken}` } });
const login = (userName: string) => world.app.inject({ method: 'POST', url: '/v1/auth/login', payload: { userName, password: TEST_PASSWORD } });

describe('PATCH /v1/users/{id} { disabled }', () => {
  it('disables an agent: its sign-in is 401, its session and refresh token end; enabling lets it in again', async () => {
    const agent = await world.createUser('agent');
    const session = await world.login(agent.userName);

    const disabled = await patch(agent.id, { disabled: true });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.json()).toMatchObject({ status: true, results: { _id: agent.id, disabled: true } });
    expect((await profileOf(session.accessToken)).statusCode).toBe(401);
    expect((await world.app.inject({ method: 'POST', url: '/v1/auth/refresh-token', payload: { token: session.refreshToken } })).statusCode).toBe(401);
    const refused = await login(agent.userName);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toMatchObject({ status: false, message: 'This account is disabled; ask an admin to enable it' });

    // A repeat changes nothing and records nothing.
    expect((await patch(agent.id, { disabled: true })).statusCode).toBe(200);
    const enabled = await patch(agent.id, { disabled: false });
    expect(enabled.json()).toMatchObject({ results: { disabled: false } });
    expect((await login(agent.userName)).statusCode).toBe(200);

    const entries = await auditEntries(world, admin.headers, { entityType: 'user', entityId: agent.id });
    expect(entries.map((e) => e.action)).toEqual(['user.enable', 'user.disable']);
    expect(entries[1]).toMatchObject({ actor: { _id: admin.user.id, role: 'admin' }, entity: { label: `User ${agent.userName}` }, changes: [{ field: 'disabled', before: false, after: true }] });
    expect(entries[0].changes).toEqual([{ field: 'disabled', before: true, after: false }]);
    const failed = await auditEntries(world, admin.headers, { action: 'session.sign-in-failed', actor: agent.userName });
    expect(failed[0]).toMatchObject({ reason: 'The account is disabled' });
  });

  it("ends the account's session in another API process within the session check's time", async () => {
    const other = await world.anotherProcess({ sessionCheckMs: CHECK_MS });
    const agent = await world.createUser('agent');
    const { accessToken } = await world.login(agent.userName);
    const headers = { authorization: `Bearer ${accessToken}` };
    expect((await other.inject({ method: 'GET', url: '/v1/auth/profile', headers })).statusCode).toBe(200);
    const at = Date.now();
    expect((await patch(agent.id, { disabled: true })).statusCode).toBe(200);
    await eventually(async () => (await other.inject({ method: 'GET', url: '/v1/auth/profile', headers })).statusCode === 401);
    expect(Date.now() - at).toBeLessThan(CHECK_MS + 2500);
  });

  it('lets a manager disable another manager, never their own account', async () => {
    const otherAdmin = await world.headersFor('admin');
    const own = await patch(admin.user.id, { disabled: true });
    expect(own.statusCode).toBe(403);
    expect(own.json().errors).toEqual([{ field: 'disabled', message: 'You cannot disable your own account' }]);
    expect((await profileOf(admin.headers.authorization.slice(7))).statusCode).toBe(200);

    const superUser = await world.headersFor('super-user');
    expect((await patch(otherAdmin.user.id, { disabled: true }, superUser.headers)).statusCode).toBe(200);
    expect((await world.app.inject({ method: 'GET', url: '/v1/users?page=1', headers: otherAdmin.headers })).statusCode).toBe(401);
  });

  it('answers bad requests with a field error, an unknown account 404, an agent 403', async () => {
    const agent = await world.headersFor('agent');
    const notFlag = await patch(agent.user.id, { disabled: 'maybe' });
    expect(notFlag.statusCode).toBe(400);
    expect(notFlag.json().errors).toEqual([{ field: 'disabled', message: expect.any(String) }]);
    expect(notFlag.body).not.toContain('maybe');
    const mixed = await patch(agent.user.id, { disabled: true, userName: 'renamed' });
    expect(mixed.statusCode).toBe(400);
    expect(mixed.json().errors).toEqual([{ field: 'disabled', message: 'Disable or enable an account in a request of its own' }]);
    expect((await patch(agent.user.id, { disabled: { not: 'a flag' } })).statusCode).toBe(400);
    expect((await patch('00000000-0000-4000-8000-000000000000', { disabled: true })).statusCode).toBe(404);
    expect((await patch(admin.user.id, { disabled: true }, agent.headers)).statusCode).toBe(403);
    expect((await profileOf(agent.headers.authorization.slice(7))).statusCode).toBe(200);
  });
});

describe('GET /v1/users', () => {
  it('carries each account’s status, last sign-in and two-factor state', async () => {
    const fresh = await world.createUser('agent');
    const signedIn = await world.createUser('agent');
    const before = Date.now();
    await world.login(signedIn.userName);
    const rows = (await world.app.inject({ method: 'GET', url: '/v1/users?page=1&limit=100', headers: admin.headers })).json().results.docs as Record<string, unknown>[];
    const row = (id: string) => rows.find((r) => r._id === id);
    expect(row(fresh.id)).toMatchObject({ disabled: false, lastSignInAt: null, twoFactorEnabled: false });
    expect(new Date(row(signedIn.id)?.lastSignInAt as string).getTime()).toBeGreaterThanOrEqual(before - 1000);
  });
});
