import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { users } from '../src/db/schema';
import { AFCON, createCampaigns } from './campaign-fixtures';
import { buildTestWorld, eventually, sleep, TEST_PASSWORD, type TestWorld } from './helpers';
import { follow, listening, type Follower } from './live-fixtures';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

/**
 * A live stream lives no longer than its session: ended within the session check's time when the
 * session ends (logout, a new password), its holder is disabled or its role or Afcon switch changes, through this
 * API process or another on the same database (a second instance on PostgreSQL, another app with a
 * session cache of its own on PGlite). And a session, a user, a process hold a few streams at most.
 */

jest.setTimeout(90_000);

/** The session check's time here: a stream must end within it (and the time to read), as a request is refused. */
const CHECK_MS = 1000;
const STREAMS = { perSession: 3, perUser: 4, max: 8 };

let world: TestWorld;
/** Where the changes are made: another process on the same database. */
let elsewhere: FastifyInstance;
let closeElsewhere: () => Promise<void>;
let baseUrl: string;
const followers: Follower[] = [];

beforeAll(async () => {
  const options = { sessionCheckMs: CHECK_MS, live: { batchMs: 20, flushMs: 20, heartbeatMs: 300, streams: STREAMS } };
  world = await buildTestWorld(options);
  await createCampaigns(world);
  const second = await world.secondInstance(options);
  if (second) {
    elsewhere = second.app;
    closeElsewhere = second.close;
  } else {
    elsewhere = await world.anotherProcess(options);
    closeElsewhere = async () => {};
  }
  baseUrl = await listening(world.app);
});
afterEach(async () => {
  await Promise.all(followers.splice(0).map((follower) => follower.close()));
});
afterAll(async () => {
  await closeElsewhere?.();
  await world?.close();
});

/** An agent owning a code, signed in: its token, refresh token and Authorization header. */
async function signedInAgent() {
  const user = await world.createUser('agent');
  const catalogue = await createCatalogue(world, user.id);
  const { accessToken, refreshToken } = await world.login(user.userName);
  return { user, code: catalogue.code.name, accessToken, refreshToken, headers: { authorization: `Bearer ${accessToken}` } };
}

const open = async (headers: Record<string, string>) => {
  const follower = await follow(baseUrl, headers);
  followers.push(follower);
  if (follower.response.statusCode === 200) await eventually(() => follower.comments.includes('connected'));
  return follower;
};

/** Waits for the stream's end, at most the session check's time and a little more (timers run late on a loaded machine). */
async function endsWithinTheCheck(follower: Follower, since: number) {
  await eventually(() => follower.ended);
  expect(Date.now() - since).toBeLessThan(CHECK_MS + 2500);
}

const heardCall = async (follower: Follower, id: string) => {
  await sleep(150);
  return follower.events.some((event) => event.event === 'transaction' && event.data._id === id);
};

describe('a live stream and its session', () => {
  it('ends when the session is logged out through another API process, and the token opens no other', async () => {
    const agent = await signedInAgent();
    const stream = await open(agent.headers);
    const [before] = await insertTransactions(world, agent.code, [{}]);
    world.app.live.feed.callsChanged(before.id);
    await stream.waitFor((event) => event.data._id === before.id);

    const loggedOut = Date.now();
    expect((await elsewhere.inject({ method: 'POST', url: '/v1/auth/logout', payload: { token: agent.refreshToken } })).statusCode).toBe(200);
    await endsWithinTheCheck(stream, loggedOut);
    const [after] = await insertTransactions(world, agent.code, [{}]);
    world.app.live.feed.callsChanged(after.id);
    expect(await heardCall(stream, after.id)).toBe(false);
    expect((await open(agent.headers)).response.statusCode).toBe(401);
  });

  it('ends at once when the session is logged out through this process', async () => {
    const agent = await signedInAgent();
    const stream = await open(agent.headers);
    const loggedOut = Date.now();
    expect((await world.app.inject({ method: 'POST', url: '/v1/auth/logout', payload: { token: agent.refreshToken } })).statusCode).toBe(200);
    await eventually(() => stream.ended);
    expect(Date.now() - loggedOut).toBeLessThan(CHECK_MS);
  });

  it("ends when the user's password is changed in another session, or set by a manager; the session that changed it goes on", async () => {
    const agent = await signedInAgent();
    const other = await world.login(agent.user.userName);
    const [ending, changing] = [await open(agent.headers), await open({ authorization: `Bearer ${other.accessToken}` })];
    const changed = Date.now();
    const profile = await elsewhere.inject({
      method: 'PATCH',
      url: '/v1/users/update/profile',
      headers: { authorization: `Bearer ${other.accessToken}` },
      payload: { userName: agent.user.userName, myPassword: TEST_PASSWORD, password: 'a-new-password-1' },
    });
    expect(profile.statusCode).toBe(200);
    await endsWithinTheCheck(ending, changed);
    await sleep(CHECK_MS + 300);
    expect(changing.ended).toBe(false);

    const { headers: admin } = await world.headersFor('admin');
    const set = Date.now();
    const reset = await elsewhere.inject({ method: 'PATCH', url: `/v1/users/${agent.user.id}`, headers: admin, payload: { userName: agent.user.userName, password: 'a-newer-password-2' } });
    expect(reset.statusCode).toBe(200);
    await endsWithinTheCheck(changing, set);
  });

  it('ends when an admin disables its holder through another API process, and the token opens no other', async () => {
    const agent = await signedInAgent();
    const stream = await open(agent.headers);
    const { headers: admin } = await world.headersFor('admin');
    const disabled = Date.now();
    expect((await elsewhere.inject({ method: 'PATCH', url: `/v1/users/${agent.user.id}`, headers: admin, payload: { disabled: true } })).statusCode).toBe(200);
    await endsWithinTheCheck(stream, disabled);
    expect((await open(agent.headers)).response.statusCode).toBe(401);
  });

  it("ends an agent's stream when it is switched to Afcon-only; connected again, it hears AFCON's calls and no longer its codes'", async () => {
    const agent = await signedInAgent();
    const stream = await open(agent.headers);
    const { headers: admin } = await world.headersFor('admin');
    const switched = Date.now();
    const patch = await elsewhere.inject({ method: 'PATCH', url: `/v1/users/${agent.user.id}`, headers: admin, payload: { userName: agent.user.userName, isAfcon: true } });
    expect(patch.statusCode).toBe(200);
    await endsWithinTheCheck(stream, switched);

    // The same token, connected again at once, is scoped as its holder is now.
    const again = await open(agent.headers);
    expect(again.response.statusCode).toBe(200);
    const [own] = await insertTransactions(world, agent.code, [{}]);
    const [vote] = await insertTransactions(world, AFCON.code, [{ campaignKey: AFCON.key, round: 'general', teamName: 'Nigeria' }]);
    world.app.live.feed.callsChanged([own.id, vote.id]);
    await again.waitFor((event) => event.data._id === vote.id);
    expect(await heardCall(again, own.id)).toBe(false);
  });

  it("ends when its holder's role changes in the database, and keeps a stream whose session is unchanged", async () => {
    const [changed, unchanged] = [await signedInAgent(), await signedInAgent()];
    const [ending, going] = [await open(changed.headers), await open(unchanged.headers)];
    const at = Date.now();
    await world.db.update(users).set({ role: 'customer-care' }).where(eq(users.id, changed.user.id));
    await endsWithinTheCheck(ending, at);
    await sleep(CHECK_MS + 300);
    expect(going.ended).toBe(false);
  });
});

describe('how many live streams', () => {
  const statuses = (opened: Follower[]) => opened.map((follower) => follower.response.statusCode).sort();

  it('a session holds a few, asked for at once or one by one; past them 429, and one closed makes room', async () => {
    const agent = await signedInAgent();
    const opened = await Promise.all(Array.from({ length: 12 }, () => open(agent.headers)));
    expect(statuses(opened)).toEqual([...Array(STREAMS.perSession).fill(200), ...Array(12 - STREAMS.perSession).fill(429)]);
    const refused = opened.find((follower) => follower.response.statusCode === 429)!;
    await eventually(() => refused.ended);
    const open200 = opened.filter((follower) => follower.response.statusCode === 200);
    expect(world.app.live.stream.size).toBe(STREAMS.perSession);

    await open200[0].close();
    await eventually(() => world.app.live.stream.size === STREAMS.perSession - 1);
    expect((await open(agent.headers)).response.statusCode).toBe(200);
    expect((await open(agent.headers)).response.statusCode).toBe(429);
  });

  it("a user holds a few over all its sessions, and the process a few in all; others' streams still hear at once", async () => {
    const agent = await signedInAgent();
    const second = await world.login(agent.user.userName);
    const first = await Promise.all(Array.from({ length: STREAMS.perSession }, () => open(agent.headers)));
    const more = await Promise.all(Array.from({ length: STREAMS.perSession }, () => open({ authorization: `Bearer ${second.accessToken}` })));
    expect(statuses([...first, ...more])).toEqual([...Array(STREAMS.perUser).fill(200), ...Array(2 * STREAMS.perSession - STREAMS.perUser).fill(429)]);
    const answer = await world.app.inject({ method: 'GET', url: '/v1/live', headers: { authorization: `Bearer ${second.accessToken}` } });
    expect(answer.statusCode).toBe(429);
    expect(answer.json()).toMatchObject({ status: false, message: expect.stringContaining('This user') });

    const admin = (await world.headersFor('admin')).headers;
    const watching = await open(admin);
    const [sale] = await insertTransactions(world, agent.code, [{}]);
    const said = Date.now();
    world.app.live.feed.callsChanged(sale.id);
    await watching.waitFor((event) => event.data._id === sale.id);
    expect(Date.now() - said).toBeLessThan(1000);

    // The process's own limit, whoever asks.
    const before = world.app.live.stream.size;
    const others = await Promise.all(Array.from({ length: STREAMS.max }, async () => open((await world.headersFor('agent')).headers)));
    expect(world.app.live.stream.size).toBe(STREAMS.max);
    expect(others.filter((follower) => follower.response.statusCode === 200)).toHaveLength(STREAMS.max - before);
    const full = await world.app.inject({ method: 'GET', url: '/v1/live', headers: admin });
    expect(full.statusCode).toBe(429);
    expect(full.json().message).toContain('This server');
  });
});
