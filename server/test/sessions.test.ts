import { eq, sql } from 'drizzle-orm';
import { SESSION_CHECK_MAX_MS } from '../src/auth/session-check';
import { sessions, users } from '../src/db/schema';
import { buildTestWorld, type TestWorld } from './helpers';

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

/** Another API process whose session check reads a clock the test moves on (`pass`), rather than waits for. */
async function processOnClock() {
  let time = Date.now();
  const app = await world.anotherProcess({ now: () => time });
  return { app, pass: (ms: number) => (time += ms) };
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
    const other = await processOnClock();
    expect(await profileStatus(other.app, accessToken)).toBe(200);
    expect((await world.app.inject({ method: 'POST', url: '/v1/auth/logout', payload: { token: refreshToken } })).statusCode).toBe(200);
    expect(await profileStatus(world.app, accessToken)).toBe(401);
    other.pass(SESSION_CHECK_MAX_MS);
    expect(await profileStatus(other.app, accessToken)).toBe(401);
  });

  it(`keeps a session's state at most ${SESSION_CHECK_MAX_MS} ms by default: a revocation made elsewhere holds within 5 s`, async () => {
    expect(SESSION_CHECK_MAX_MS).toBeLessThanOrEqual(5000);
    const agent = await world.createUser('agent');
    const { accessToken } = await world.login(agent.userName);
    const other = await processOnClock();
    expect(await profileStatus(other.app, accessToken)).toBe(200);
    // As another API process would, straight in the database: this one answers from memory until its time is up…
    await world.db.update(sessions).set({ revokedAt: sql`now()` }).where(eq(sessions.userId, agent.id));
    other.pass(SESSION_CHECK_MAX_MS - 1);
    expect(await profileStatus(other.app, accessToken)).toBe(200);
    // …and refuses the token once it is.
    other.pass(1);
    expect(await profileStatus(other.app, accessToken)).toBe(401);
  });

  it('ends the target sessions when an admin sets a password, in every process', async () => {
    const agent = await world.createUser('agent');
    const { accessToken } = await world.login(agent.userName);
    const other = await processOnClock();
    expect(await profileStatus(other.app, accessToken)).toBe(200);
    const patch = await world.app.inject({ method: 'PATCH', url: `/v1/users/${agent.id}`, headers: admin, payload: { userName: agent.userName, password: 'set-by-the-admin' } });
    expect(patch.statusCode).toBe(200);
    expect(await profileStatus(world.app, accessToken)).toBe(401);
    other.pass(SESSION_CHECK_MAX_MS);
    expect(await profileStatus(other.app, accessToken)).toBe(401);
  });

  it('reads the Afcon switch and the name with the session: a change holds within the check time', async () => {
    const agent = await world.createUser('agent');
    const { accessToken } = await world.login(agent.userName);
    const other = await processOnClock();
    const users$ = (app: TestWorld['app']) => app.inject({ method: 'GET', url: '/v1/transactions/to/give/attention', headers: bearer(accessToken) });
    expect((await users$(other.app)).statusCode).toBe(200);
    const patch = await world.app.inject({ method: 'PATCH', url: `/v1/users/${agent.id}`, headers: admin, payload: { userName: `${agent.userName}-afcon`, isAfcon: true } });
    expect(patch.statusCode).toBe(200);
    expect((await users$(world.app)).statusCode).toBe(403);
    other.pass(SESSION_CHECK_MAX_MS);
    expect((await users$(other.app)).statusCode).toBe(403);
    const profile = await other.app.inject({ method: 'GET', url: '/v1/auth/profile', headers: bearer(accessToken) });
    expect(profile.json().results).toMatchObject({ userName: `${agent.userName}-afcon`, isAfcon: true });
  });

  it('refuses the token of a session whose user was deleted', async () => {
    const agent = await world.createUser('agent');
    const { accessToken } = await world.login(agent.userName);
    await world.db.delete(users).where(eq(users.id, agent.id));
    expect(await profileStatus(await world.anotherProcess(), accessToken)).toBe(401);
  });
});
