import { eq, sql } from 'drizzle-orm';
import { SESSION_CHECK_MAX_MS } from '../src/auth/session-check';
import { sessions, users } from '../src/db/schema';
import { buildTestWorld, sleep, type TestWorld } from './helpers';

/**
 * DESIGN §4: access tokens carry a session id checked on each request, cached at most 5 s per
 * process, so logout, a password change, a reset or a role change holds everywhere within 5 s.
 */

jest.setTimeout(30_000);

let world: TestWorld;
let admin: Record<string, string>;
beforeAll(async () => {
  world = await buildTestWorld();
  admin = (await world.headersFor('admin')).headers;
}, 60_000);
afterAll(() => world.close());

const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });
const profileStatus = async (app: TestWorld['app'], accessToken: string) => (await app.inject({ method: 'GET', url: '/v1/auth/profile', headers: bearer(accessToken) })).statusCode;

/** Milliseconds until `app` answers the token 401, checking every 25 ms for at most `withinMs`. */
async function msUntilRefused(app: TestWorld['app'], accessToken: string, withinMs: number) {
  const started = Date.now();
  while ((await profileStatus(app, accessToken)) !== 401) {
    if (Date.now() - started > withinMs) throw new Error(`still accepted after ${withinMs} ms`);
    await sleep(25);
  }
  return Date.now() - started;
}

describe('session ids in access tokens', () => {
  it('signs the session id into the access token and refuses a token without one', async () => {
    const agent = await world.createUser('agent');
    const { accessToken } = await world.login(agent.userName);
    const claims = JSON.parse(Buffer.from(accessToken.split('.')[1], 'base64url').toString()) as { sid?: string };
    const [session] = await world.db.select().from(sessions).where(eq(sessions.userId, agent.id));
    expect(claims.sid).toBe(session.id);
    // Signed with the right key but from before sessions had ids.
    const old = world.app.jwt.sign({ sub: agent.id, userName: agent.userName, role: 'agent', isAfcon: false } as never);
    expect(await profileStatus(world.app, old)).toBe(401);
  });

  it('refuses a logged-out session at once here and within the check time in another process', async () => {
    const agent = await world.createUser('agent');
    const { accessToken, refreshToken } = await world.login(agent.userName);
    const other = await world.anotherProcess({ sessionCheckMs: 300 });
    expect(await profileStatus(other, accessToken)).toBe(200);
    expect((await world.app.inject({ method: 'POST', url: '/v1/auth/logout', payload: { token: refreshToken } })).statusCode).toBe(200);
    expect(await profileStatus(world.app, accessToken)).toBe(401);
    expect(await msUntilRefused(other, accessToken, 2000)).toBeLessThan(2000);
  });

  it(`keeps a session's state at most ${SESSION_CHECK_MAX_MS} ms by default: a revocation made elsewhere holds within 5 s`, async () => {
    expect(SESSION_CHECK_MAX_MS).toBeLessThanOrEqual(5000);
    const agent = await world.createUser('agent');
    const { accessToken } = await world.login(agent.userName);
    expect(await profileStatus(world.app, accessToken)).toBe(200);
    // As another API process would, straight in the database: this one answers from memory for now…
    await world.db.update(sessions).set({ revokedAt: sql`now()` }).where(eq(sessions.userId, agent.id));
    const revokedAt = Date.now();
    expect(await profileStatus(world.app, accessToken)).toBe(200);
    // …and a request made 5 s after the revocation is refused.
    await sleep(5000 - (Date.now() - revokedAt));
    expect(await profileStatus(world.app, accessToken)).toBe(401);
  });

  it('ends the target sessions when an admin sets a password, in every process', async () => {
    const agent = await world.createUser('agent');
    const { accessToken } = await world.login(agent.userName);
    const other = await world.anotherProcess({ sessionCheckMs: 300 });
    expect(await profileStatus(other, accessToken)).toBe(200);
    const patch = await world.app.inject({ method: 'PATCH', url: `/v1/users/${agent.id}`, headers: admin, payload: { userName: agent.userName, password: 'set-by-the-admin' } });
    expect(patch.statusCode).toBe(200);
    expect(await profileStatus(world.app, accessToken)).toBe(401);
    await msUntilRefused(other, accessToken, 2000);
  });

  it('reads the Afcon switch and the name with the session: a change holds within the check time', async () => {
    const agent = await world.createUser('agent');
    const { accessToken } = await world.login(agent.userName);
    const other = await world.anotherProcess({ sessionCheckMs: 300 });
    const users$ = (app: TestWorld['app']) => app.inject({ method: 'GET', url: '/v1/transactions/to/give/attention', headers: bearer(accessToken) });
    expect((await users$(other)).statusCode).toBe(200);
    const patch = await world.app.inject({ method: 'PATCH', url: `/v1/users/${agent.id}`, headers: admin, payload: { userName: `${agent.userName}-afcon`, isAfcon: true } });
    expect(patch.statusCode).toBe(200);
    expect((await users$(world.app)).statusCode).toBe(403);
    await sleep(350);
    expect((await users$(other)).statusCode).toBe(403);
    const profile = await other.inject({ method: 'GET', url: '/v1/auth/profile', headers: bearer(accessToken) });
    expect(profile.json().results).toMatchObject({ userName: `${agent.userName}-afcon`, isAfcon: true });
  });

  it('refuses the token of a session whose user was deleted', async () => {
    const agent = await world.createUser('agent');
    const { accessToken } = await world.login(agent.userName);
    await world.db.delete(users).where(eq(users.id, agent.id));
    expect(await profileStatus(await world.anotherProcess(), accessToken)).toBe(401);
  });
});
