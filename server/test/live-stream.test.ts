import crypto from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { LiveTransaction } from '../../src/domain/live';
import { inProcessChangeFeed, notificationPayloads, readNotification } from '../src/live/change-feed';
import type { SessionHolder } from '../src/auth/session-check';
import { liveStream, type LiveScope, type LiveSession } from '../src/live/live-stream';
import { eventually, sleep } from './helpers';

/**
 * The live stream's clients: changes coalesced into a few writes, each client its scope,
 * slow clients dropped rather than buffered, streams ended with their token. Real streams stand in
 * for the HTTP responses; the calls' states come from a map standing in for the database.
 */

const silentLog = { info: () => {}, warn: () => {}, error: () => {} };
const call = (name: string, status: LiveTransaction['status'] = 'pending'): LiveTransaction => ({
  _id: crypto.randomUUID(), name, phoneNumber: '256770000001', status, isResolved: false, createdAt: new Date().toISOString(),
});

interface WorldOptions {
  flushMs?: number;
  writesPerSecond?: number;
  heartbeatMs?: number;
  maxBufferedBytes?: number;
  scopeRefreshMs?: number;
  sessionCheckMs?: number;
  streams?: { maxPerSession?: number; maxPerUser?: number; maxStreams?: number };
}

function world(options: WorldOptions = {}) {
  const feed = inProcessChangeFeed({ batchMs: 5 });
  const states = new Map<string, LiveTransaction>();
  const reads: string[][] = [];
  /** The live sessions and their holders, as the database would answer; every read of them noted. */
  const sessions = new Map<string, SessionHolder>();
  const sessionReads: string[][] = [];
  const stream = liveStream({
    feed,
    readCalls: async (ids) => {
      reads.push(ids);
      return ids.flatMap((id) => (states.has(id) ? [states.get(id)!] : []));
    },
    log: silentLog,
    flushMs: options.flushMs ?? 50,
    writesPerSecond: options.writesPerSecond,
    heartbeatMs: options.heartbeatMs ?? 60_000,
    maxBufferedBytes: options.maxBufferedBytes,
    scopeRefreshMs: options.scopeRefreshMs,
    sessionCheckMs: options.sessionCheckMs ?? 60_000,
    readSessions: async (ids) => {
      sessionReads.push([...ids]);
      return new Map(ids.flatMap((id) => (sessions.has(id) ? [[id, { ...sessions.get(id)! }] as const] : [])));
    },
    ...options.streams,
  });
  /** A client that reads everything it is sent, and counts its writes. */
  const client = (scope: LiveScope = {}, extra: { expiresAt?: number; refreshScope?: (holder?: SessionHolder) => Promise<LiveScope>; session?: LiveSession } = {}) => {
    const sink = new PassThrough();
    let text = '';
    let writes = 0;
    sink.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const write = sink.write.bind(sink);
    sink.write = ((chunk: string) => {
      writes += 1;
      return write(chunk);
    }) as typeof sink.write;
    stream.add({ sink, scope, ...extra });
    return {
      sink,
      get text() {
        return text;
      },
      get writes() {
        return writes;
      },
      calls: () => [...text.matchAll(/event: transaction\ndata: (.*)\n/g)].map((match) => JSON.parse(match[1]) as LiveTransaction),
    };
  };
  const change = (...rows: LiveTransaction[]) => {
    for (const row of rows) states.set(row._id, row);
    feed.callsChanged(rows.map((row) => row._id));
  };
  /** A signed-in session of a new agent, live in the `database`. */
  const session = (holder: Partial<SessionHolder> = {}): LiveSession => {
    const id = crypto.randomUUID();
    const held = { userId: crypto.randomUUID(), userName: 'agent', role: 'agent' as const, isAfcon: false, twoFactorEnabled: false, ...holder };
    sessions.set(id, held);
    return { id, holder: { ...held } };
  };
  return { feed, stream, states, reads, client, change, sessions, sessionReads, session };
}

describe('the live stream', () => {
  it('coalesces a burst into one write per client, each call once in its latest state, read once for all clients', async () => {
    const live = world({ flushMs: 100 });
    const [first, second] = [live.client(), live.client()];
    const sale = call('*217*1#');
    live.change(sale);
    await eventually(() => first.calls().length === 1);
    const writesBefore = first.writes;
    const others = Array.from({ length: 30 }, () => call('*217*1#'));
    for (const row of others) live.change(row);
    live.change({ ...sale, status: 'failed' });
    live.change({ ...sale, status: 'failed', isResolved: true });
    await eventually(() => first.calls().length === 32);
    await sleep(150);
    expect(first.writes - writesBefore).toBe(1);
    expect(first.calls().at(-1)).toMatchObject({ _id: sale._id, status: 'failed', isResolved: true });
    expect(second.text).toBe(first.text);
    expect(live.reads.at(-1)).toHaveLength(31);
    live.stream.close();
  });

  it('writes to each of many clients less often, keeping all their writes within the budget a second', async () => {
    // 4 clients at 20 writes a second: one write each every 200 ms, though flushMs is 20.
    const live = world({ flushMs: 20, writesPerSecond: 20 });
    const clients = Array.from({ length: 4 }, () => live.client());
    live.change(call('*217*1#'));
    await eventually(() => clients.every((client) => client.calls().length === 1));
    const writesBefore = clients[0].writes;
    const started = Date.now();
    for (let i = 0; i < 10; i += 1) {
      live.change(call('*217*1#'));
      await sleep(20);
    }
    await eventually(() => clients.every((client) => client.calls().length === 11));
    // Ten changes over ≥ 200 ms reached each client in at most two writes, not ten.
    expect(clients[0].writes - writesBefore).toBeLessThanOrEqual(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(180);
    // One client alone is written to every flushMs again.
    for (const client of clients.slice(1)) client.sink.destroy();
    await eventually(() => live.stream.size === 1);
    await sleep(250);
    const alone = Date.now();
    live.change(call('*217*1#'));
    await eventually(() => clients[0].calls().length === 12);
    live.change(call('*217*1#'));
    await eventually(() => clients[0].calls().length === 13);
    expect(Date.now() - alone).toBeLessThan(180);
    live.stream.close();
  });

  it('reads nothing while nobody listens, and stops hearing the feed when the last client leaves', async () => {
    const live = world({ flushMs: 5 });
    live.change(call('*217*1#'));
    await sleep(30);
    expect(live.reads).toEqual([]);
    const client = live.client();
    live.change(call('*217*1#'));
    await eventually(() => client.calls().length === 1);
    client.sink.destroy();
    await eventually(() => live.stream.size === 0);
    live.change(call('*217*1#'));
    await sleep(30);
    expect(live.reads).toHaveLength(1);
    live.stream.close();
  });

  it("sends each client only its scope's calls", async () => {
    const live = world({ flushMs: 10 });
    const manager = live.client();
    const agent = live.client({ codes: new Set(['*217*1#']) });
    const [own, others] = [call('*217*1#'), call('*217*2#')];
    live.change(own, others);
    await eventually(() => manager.calls().length === 2);
    await sleep(30);
    expect(agent.calls().map((row) => row._id)).toEqual([own._id]);
    live.stream.close();
  });

  it('drops a client that does not take what it is sent, and keeps the others going', async () => {
    const live = world({ flushMs: 5, maxBufferedBytes: 4096 });
    const reader = live.client();
    const stuck = new PassThrough({ highWaterMark: 1024 });
    live.stream.add({ sink: stuck, scope: {} });
    let destroyed = false;
    stuck.on('close', () => (destroyed = true));
    for (let i = 0; i < 40; i += 1) {
      live.change(...Array.from({ length: 5 }, () => call('*217*1#')));
      await sleep(10);
    }
    await eventually(() => destroyed && reader.calls().length === 200);
    // It never held much more than the limit: one write past it at most.
    expect(stuck.writableLength).toBeLessThan(4096 + 2048);
    expect(live.stream.size).toBe(1);
    live.stream.close();
  });

  it('ends a stream whose access token has expired, and reads a scope again', async () => {
    const live = world({ heartbeatMs: 20, scopeRefreshMs: 20, flushMs: 5 });
    const expired = live.client({}, { expiresAt: Date.now() + 150 });
    let ended = false;
    expired.sink.on('end', () => (ended = true));
    // An agent given a code while it listens hears that code's calls from then on.
    const agent = live.client({ codes: new Set() }, { refreshScope: async () => ({ codes: new Set(['*217*3#']) }) });
    await eventually(() => ended);
    expect(live.stream.size).toBe(1);
    // The stream that stays hears the heartbeat. The expired one may not: on a loaded machine the first
    // tick can come after its expiry, and then ends it unheard.
    await eventually(() => agent.text.includes(': ping\n\n'));
    const given = call('*217*3#');
    live.change(given);
    await eventually(() => agent.calls().some((row) => row._id === given._id));
    live.stream.close();
  });
});

describe("the live stream's sessions", () => {
  const ended = (sink: PassThrough) => new Promise<void>((resolve) => sink.once('end', resolve));

  it('ends the streams of an ended session, or of one whose holder changed role or Afcon switch, reading every session in one read', async () => {
    const live = world({ sessionCheckMs: 30, flushMs: 5 });
    const [loggedOut, promoted, afcon, renamed, kept] = [live.session(), live.session(), live.session(), live.session(), live.session()];
    const [a, b, c, d, e, e2] = [loggedOut, promoted, afcon, renamed, kept, kept].map((session) => live.client({}, { session }));
    for (const follower of [a, b, c, d, e, e2]) follower.sink.resume();
    await eventually(() => live.sessionReads.length > 0);
    // One read for all the clients, each session once.
    expect(live.sessionReads.at(-1)!.sort()).toEqual([loggedOut, promoted, afcon, renamed, kept].map((session) => session.id).sort());

    live.sessions.delete(loggedOut.id);
    live.sessions.get(promoted.id)!.role = 'admin';
    live.sessions.get(afcon.id)!.isAfcon = true;
    live.sessions.get(renamed.id)!.userName = 'another name';
    await Promise.all([ended(a.sink), ended(b.sink), ended(c.sink)]);
    const reads = live.sessionReads.length;
    await eventually(() => live.sessionReads.length > reads + 1);
    expect(live.stream.size).toBe(3);
    const sale = call('*217*1#');
    live.change(sale);
    for (const follower of [d, e, e2]) await eventually(() => follower.calls().some((row) => row._id === sale._id));
    live.stream.close();
  });

  it('checks the sessions at once when asked (this process ended one), and reads the scope for the holder as it is now', async () => {
    const live = world({ sessionCheckMs: 60_000, heartbeatMs: 20, scopeRefreshMs: 20, flushMs: 5 });
    const session = live.session();
    const asked: (SessionHolder | undefined)[] = [];
    const refreshScope = async (holder?: SessionHolder) => {
      asked.push(holder);
      return { codes: new Set(['*217*3#']) };
    };
    const follower = live.client({ codes: new Set() }, { session, refreshScope });
    await eventually(() => asked.length > 0);
    expect(asked[0]).toMatchObject({ userId: session.holder.userId, role: 'agent' });
    live.sessions.delete(session.id);
    await live.stream.checkSessions();
    expect(live.stream.size).toBe(0);
    await ended(follower.sink);
    live.stream.close();
  });

  it('tells when a session, a user or the process holds as many streams as allowed, and makes room as they close', async () => {
    const live = world({ streams: { maxPerSession: 2, maxPerUser: 3, maxStreams: 5 } });
    const first = live.session();
    const second = live.session({ userId: first.holder.userId });
    expect(live.stream.full(first)).toBeUndefined();
    const [one] = [live.client({}, { session: first }), live.client({}, { session: first })];
    expect(live.stream.full(first)).toBe('session');
    expect(live.stream.full(second)).toBeUndefined();
    live.client({}, { session: second });
    expect(live.stream.full(second)).toBe('user');
    one.sink.destroy();
    await eventually(() => live.stream.full(first) === undefined);
    const other = live.session();
    live.client({}, { session: other });
    live.client({}, { session: other });
    live.client({}, { session: live.session() });
    expect(live.stream.full(live.session())).toBe('process');
    live.stream.close();
  });
});

describe('the notifications between instances', () => {
  it('fit PostgreSQL payloads (under 8000 bytes) however many calls changed, and read back the same', () => {
    const ids = Array.from({ length: 1000 }, () => crypto.randomUUID());
    const incident = { _id: crypto.randomUUID(), serviceCode: '*217*1#', kind: 'failure-rate' as const, state: 'open' as const, acknowledgedBy: 'kato', acknowledgedAt: '2026-01-01T10:00:00.000Z', note: 'n'.repeat(500) };
    const payloads = notificationPayloads(ids, [incident]);
    expect(payloads.length).toBeLessThanOrEqual(7);
    for (const payload of payloads) expect(Buffer.byteLength(payload)).toBeLessThan(8000);
    const read = payloads.map(readNotification);
    expect(read.flatMap((delivery) => (delivery?.kind === 'change' ? delivery.calls : []))).toEqual(ids);
    expect(read.flatMap((delivery) => (delivery?.kind === 'change' ? delivery.incidents : []))).toEqual([incident]);
  });

  it("ignores what is not ours on the channel", () => {
    expect(readNotification('hello')).toBeUndefined();
    expect(readNotification(JSON.stringify({ c: ['not-an-id', 5], i: [{ _id: 'x', kind: 'fire' }] }))).toBeUndefined();
    expect(readNotification(undefined)).toBeUndefined();
  });
});
