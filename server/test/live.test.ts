import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { contents, transactions } from '../src/db/schema';
import { AFCON, createCampaigns } from './campaign-fixtures';
import { buildTestWorld, eventually, sleep, type TestWorld } from './helpers';
import { follow, listening, type Follower } from './live-fixtures';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

/**
 * GET /v1/live: every change of a call reaches the streams that may read it, scoped as
 * the lists are, from the real paths that make them (USSD, the payment callback, resolve).
 */

jest.setTimeout(60_000);

let world: TestWorld;
let baseUrl: string;
const headers: Record<'admin' | 'agent' | 'otherAgent' | 'afcon', Record<string, string>> = { admin: {}, agent: {}, otherAgent: {}, afcon: {} };
let code: string;
let otherCode: string;
const followers: Follower[] = [];

beforeAll(async () => {
  world = await buildTestWorld({ live: { batchMs: 20, flushMs: 20, heartbeatMs: 300 } });
  await createCampaigns(world);
  const agent = await world.headersFor('agent');
  const otherAgent = await world.headersFor('agent');
  headers.admin = (await world.headersFor('admin')).headers;
  headers.agent = agent.headers;
  headers.otherAgent = otherAgent.headers;
  headers.afcon = (await world.headersFor('agent', { isAfcon: true })).headers;
  const catalogue = await createCatalogue(world, agent.user.id, { ordinary: 1000, vip: 5000 });
  code = catalogue.code.name;
  otherCode = (await createCatalogue(world, otherAgent.user.id)).code.name;
  await world.db.insert(contents).values({ categoryId: catalogue.category.id, categoryLevel: 'vip', message: 'VIP ticket 88', active: true });
  baseUrl = await listening(world.app);
});
afterEach(async () => {
  await Promise.all(followers.splice(0).map((follower) => follower.close()));
});
afterAll(() => world.close());

const open = async (who: keyof typeof headers, path?: string) => {
  const follower = await follow(baseUrl, headers[who], path);
  followers.push(follower);
  return follower;
};

/** A customer buying a VIP ticket on `code` to the confirmation: the pending call's id and payment reference. */
async function buy(serviceCode = code) {
  const sessionId = `live-${crypto.randomUUID()}`;
  // A number of its own each time: a number confirms at most 5 payments a minute.
  const phoneNumber = `2567720${String(crypto.randomInt(100_000)).padStart(5, '0')}`;
  for (const text of ['', '1', '1*1']) await world.hop({ sessionId, serviceCode, phoneNumber, text });
  const [call] = await world.db.select().from(transactions).where(eq(transactions.sessionId, sessionId));
  return { id: call.id, reference: call.paymentRef! };
}

describe('GET /v1/live', () => {
  it('is a stream of server-sent events for a signed-in caller only; the token is never read from the address', async () => {
    expect((await world.app.inject({ method: 'GET', url: '/v1/live' })).statusCode).toBe(401);
    const token = headers.admin.authorization.slice('Bearer '.length);
    expect((await world.app.inject({ method: 'GET', url: `/v1/live?token=${token}&access_token=${token}` })).statusCode).toBe(401);
    expect((await world.app.inject({ method: 'HEAD', url: '/v1/live', headers: headers.admin })).statusCode).toBe(404);

    const admin = await open('admin');
    expect(admin.response.statusCode).toBe(200);
    expect(admin.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(admin.response.headers['cache-control']).toBe('no-store');
    await eventually(() => admin.comments.includes('ping'));
  });

  it('sends every change of a call: created pending, settled, resolved with its reason', async () => {
    const [admin, agent] = [await open('admin'), await open('agent')];
    const failing = await buy();
    await admin.waitFor((event) => event.data._id === failing.id);
    expect((await world.pay(failing.reference, 'FAILED')).statusCode).toBe(200);
    await admin.waitFor((event) => event.data._id === failing.id && event.data.status === 'failed');
    const resolved = await world.app.inject({ method: 'POST', url: `/v1/transactions/to/give/attention/${failing.id}`, headers: headers.agent, payload: { isResolved: true, reason: 'refunded' } });
    expect(resolved.statusCode).toBe(200);
    await admin.waitFor((event) => event.data._id === failing.id && event.data.isResolved === true);

    const paid = await buy();
    await world.pay(paid.reference, 'SUCCESSFUL');
    await admin.waitFor((event) => event.data._id === paid.id && event.data.status === 'processed');

    const [{ phoneNumber, createdAt }] = await world.db.select().from(transactions).where(eq(transactions.id, failing.id));
    const call = { name: code, phoneNumber, createdAt: createdAt.toISOString() };
    for (const follower of [admin, agent]) {
      await follower.waitFor((event) => event.data._id === paid.id && event.data.status === 'processed');
      expect(follower.callEvents(failing.id)).toEqual([
        { _id: failing.id, ...call, status: 'pending', isResolved: false },
        { _id: failing.id, ...call, status: 'failed', isResolved: false },
        { _id: failing.id, ...call, status: 'failed', isResolved: true },
      ]);
      // Sent in its state when the batch is read: its creation may already read processed.
      expect(follower.callEvents(paid.id).at(-1)).toMatchObject({ status: 'processed', isResolved: false });
    }
    // Each event has an id, increasing.
    const ids = admin.events.map((event) => event.id!.split('.').map(Number));
    expect(ids.every(([batch, n], i) => i === 0 || batch > ids[i - 1][0] || (batch === ids[i - 1][0] && n > ids[i - 1][1]))).toBe(true);
  });

  it("scopes each stream as the lists are: an agent hears its own codes' calls, the Afcon-only account AFCON's", async () => {
    const [admin, agent, otherAgent, afcon] = [await open('admin'), await open('agent'), await open('otherAgent'), await open('afcon')];
    const [own] = await insertTransactions(world, code, [{ isDeleted: true }]);
    const [others] = await insertTransactions(world, otherCode, [{ isDeleted: true }]);
    const [vote] = await insertTransactions(world, AFCON.code, [{ isDeleted: true, campaignKey: AFCON.key, round: 'general', teamName: 'Nigeria' }]);
    world.app.live.feed.callsChanged([own.id, others.id, vote.id]);
    await admin.waitFor((event) => event.data._id === vote.id);
    await Promise.all([agent, otherAgent, afcon].map((follower) => follower.waitFor((event) => event.event === 'transaction')));
    // A later change each may read, so that anything out of scope would have arrived before it.
    const resolve = (url: string, id: string, who: keyof typeof headers) =>
      world.app.inject({ method: 'POST', url: `${url}/${id}`, headers: headers[who], payload: { isResolved: true } });
    expect((await resolve('/v1/transactions/to/give/attention', own.id, 'admin')).statusCode).toBe(200);
    expect((await resolve('/v1/afcon/2024/analysis/to/give/attention', vote.id, 'afcon')).statusCode).toBe(200);
    await agent.waitFor((event) => event.data._id === own.id && event.data.isResolved === true);
    await afcon.waitFor((event) => event.data._id === vote.id && event.data.isResolved === true);
    await admin.waitFor((event) => event.data._id === vote.id && event.data.isResolved === true);

    // Only this test's calls count: a call of an earlier test may still change (its SMS settling) while these streams are open.
    const mine = new Set<unknown>([own.id, others.id, vote.id]);
    const heard = (follower: Follower) =>
      [...new Set(follower.events.filter((event) => event.event === 'transaction' && mine.has(event.data._id)).map((event) => event.data._id))].sort();
    expect(heard(admin)).toEqual([own.id, others.id, vote.id].sort());
    expect(heard(agent)).toEqual([own.id]);
    expect(heard(otherAgent)).toEqual([others.id]);
    expect(heard(afcon)).toEqual([vote.id]);
  });

  it('narrows a stream to the codes its screen shows (?serviceCode=), never past its scope; incidents are not narrowed', async () => {
    const only = (...codes: string[]) => `/v1/live?${codes.map((name) => `serviceCode=${encodeURIComponent(name)}`).join('&')}`;
    const [admin, adminOnOther, adminOnBoth, agentAskingOther] = [
      await open('admin', only(code)),
      await open('admin', only(otherCode)),
      await open('admin', only(code, otherCode)),
      await open('agent', only(otherCode)),
    ];
    const [own] = await insertTransactions(world, code, [{ isDeleted: true }]);
    const [others] = await insertTransactions(world, otherCode, [{ isDeleted: true }]);
    world.app.live.feed.callsChanged([own.id, others.id]);
    const incident = { _id: crypto.randomUUID(), serviceCode: code, kind: 'failure-rate' as const, state: 'open' as const, acknowledgedBy: null, acknowledgedAt: null, note: null };
    world.app.live.feed.incidentChanged(incident);
    await admin.waitFor((event) => event.data._id === incident._id);
    await adminOnOther.waitFor((event) => event.data._id === incident._id);
    await adminOnBoth.waitFor((event) => event.data._id === others.id);
    await sleep(50);

    // Only this test's calls count: a call of an earlier test may still change (its SMS settling) while these streams are open.
    const mine = new Set<unknown>([own.id, others.id]);
    const heard = (follower: Follower) =>
      [...new Set(follower.events.filter((event) => event.event === 'transaction' && mine.has(event.data._id)).map((event) => event.data._id))].sort();
    expect(heard(admin)).toEqual([own.id]);
    expect(heard(adminOnOther)).toEqual([others.id]);
    expect(heard(adminOnBoth)).toEqual([own.id, others.id].sort());
    // An agent asking for a code it cannot read hears none of it.
    expect(heard(agentAskingOther)).toEqual([]);

    for (const bad of ['/v1/live?serviceCode=', '/v1/live?serviceCode=%00', `/v1/live?serviceCode=${'1'.repeat(60)}`, `/v1/live?serviceCode=abc`]) {
      const answer = await world.app.inject({ method: 'GET', url: bad, headers: headers.admin });
      expect(answer.statusCode).toBe(400);
      expect(answer.body).not.toContain('%00');
    }
  });

  it("sends incidents to the streams that read their code; the service-wide ones to managers only", async () => {
    const [admin, agent, otherAgent] = [await open('admin'), await open('agent'), await open('otherAgent')];
    const own = { _id: crypto.randomUUID(), serviceCode: code, kind: 'failure-rate' as const, state: 'open' as const, acknowledgedBy: null, acknowledgedAt: null, note: null };
    const serviceWide = { _id: crypto.randomUUID(), serviceCode: null, kind: 'provider-silence' as const, state: 'open' as const, acknowledgedBy: null, acknowledgedAt: null, note: null };
    world.app.live.feed.incidentChanged(own);
    world.app.live.feed.incidentChanged(serviceWide);
    await admin.waitFor((event) => event.data._id === serviceWide._id);
    await agent.waitFor((event) => event.data._id === own._id);
    const [mine] = await insertTransactions(world, otherCode, [{}]);
    world.app.live.feed.callsChanged(mine.id);
    await otherAgent.waitFor((event) => event.data._id === mine.id);
    await sleep(50);

    const incidents = (follower: Follower) => follower.events.filter((event) => event.event === 'incident').map((event) => event.data);
    expect(incidents(admin)).toEqual([own, serviceWide]);
    expect(incidents(agent)).toEqual([own]);
    expect(incidents(otherAgent)).toEqual([]);
  });

  it('ends the streams when the server closes, so it never waits on them', async () => {
    const other = await buildTestWorld();
    const { headers: admin } = await other.headersFor('admin');
    const follower = await follow(await listening(other.app), admin);
    await eventually(() => follower.comments.includes('connected'));
    const closed = Date.now();
    await other.close();
    await eventually(() => follower.ended);
    expect(Date.now() - closed).toBeLessThan(5_000);
  });
});
