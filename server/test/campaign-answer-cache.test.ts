import { eq } from 'drizzle-orm';
import type { PGlite } from '@electric-sql/pglite';
import { answerCache } from '../src/plugins/answer-cache';
import { rankingCacheMs } from '../src/config';
import { transactions } from '../src/db/schema';
import { AFCON, createCampaigns, insertVotes, WORLD_CUP } from './campaign-fixtures';
import { buildTestWorld, eventually, type TestWorld } from './helpers';

jest.setTimeout(60_000);

const RANKING = '/v1/world/cup/better/all?page=1&limit=50';
const RESULTS = `/v1/campaigns/${WORLD_CUP.key}/results`;
/** The ranking page's statement and the results' (campaign-votes-repository.ts), as PGlite receives them. */
const isRankingQuery = (text: unknown) => typeof text === 'string' && text.includes('"recent_votes"');
const isResultsQuery = (text: unknown) => typeof text === 'string' && text.includes('campaign_team_votes');

/** A world whose answer cache keeps answers 1 s by a clock the test moves. */
async function worldWithClock(ttlMs: number) {
  const clock = { now: 1_000_000 };
  const world = await buildTestWorld({ answerCache: answerCache({ ttlMs, now: () => clock.now }) });
  await createCampaigns(world);
  const admin = (await world.headersFor('admin')).headers;
  await insertVotes(world, WORLD_CUP, [{ phoneNumber: '256774000001' }, { phoneNumber: '256774000001' }, { phoneNumber: '256774000002' }]);
  return { world, clock, admin };
}

/**
 * Counts the statements the database client runs that `match`; `hold` keeps them waiting until
 * released. PGlite's query takes the text; pg's pool (TEST_DATABASE_URL) a config with `text`.
 */
function watchQueries(world: TestWorld, match: (text: unknown) => boolean) {
  const client = (world.db as unknown as { $client: PGlite }).$client;
  const query = client.query.bind(client);
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const watch = { count: 0, hold: false, release };
  jest.spyOn(client, 'query').mockImplementation((async (...args: Parameters<PGlite['query']>) => {
    const first: unknown = args[0];
    const text = typeof first === 'object' && first !== null && 'text' in first ? (first as { text: unknown }).text : first;
    if (match(text)) {
      watch.count += 1;
      if (watch.hold) await held;
    }
    return query(...args);
  }) as PGlite['query']);
  return watch;
}

const counts = (body: string) => (JSON.parse(body).results.docs as { _id: string; count: number }[]).map((r) => [r._id, r.count]);

describe('campaign answer cache (RANKING_CACHE_MS 1 s)', () => {
  let world: TestWorld;
  let clock: { now: number };
  let admin: Record<string, string>;
  const rank = (headers = admin, payload: object = { serviceCode: WORLD_CUP.code }) => world.app.inject({ method: 'POST', url: RANKING, headers, payload });
  const results = (headers = admin) => world.app.inject({ method: 'GET', url: RESULTS, headers });

  beforeAll(async () => ({ world, clock, admin } = await worldWithClock(1000)));
  afterAll(() => world.close());
  beforeEach(() => world.app.answerCache.clear());
  afterEach(() => jest.restoreAllMocks());

  it('answers a hit with the same bytes and no database work at all', async () => {
    const first = await rank();
    const firstResults = await results();
    const queries = watchQueries(world, () => true);
    const again = await rank();
    const againResults = await results();
    expect([again.statusCode, againResults.statusCode]).toEqual([200, 200]);
    expect(again.body).toBe(first.body);
    expect(againResults.body).toBe(firstResults.body);
    expect(againResults.json().results).toMatchObject({ round: null, totalVotes: 3, distinctVoters: 2 });
    expect(queries.count).toBe(0);
  });

  it('keeps an answer RANKING_CACHE_MS, then serves it once more while refreshing it: a vote written by another process shows on the read after', async () => {
    const before = await rank();
    await insertVotes(world, WORLD_CUP, [{ phoneNumber: '256774000003', teamName: 'Ghana' }]);
    clock.now += 999;
    expect((await rank()).body).toBe(before.body);
    clock.now += 1;
    const queries = watchQueries(world, isRankingQuery);
    // Expired less than RANKING_CACHE_MS ago: answered at once, and one refresh starts.
    expect((await rank()).body).toBe(before.body);
    let latest = before.body;
    await eventually(async () => (latest = (await rank()).body) !== before.body);
    expect(counts(latest)).toContainEqual(['256774000003', 1]);
    // The stale read and those after it made one database call between them.
    expect(queries.count).toBe(1);
  });

  it('never serves an answer that expired RANKING_CACHE_MS ago or more: that reader waits for a fresh one', async () => {
    const before = await rank();
    await insertVotes(world, WORLD_CUP, [{ phoneNumber: '256774000004', teamName: 'Ghana' }]);
    clock.now += 2000;
    const after = await rank();
    expect(after.body).not.toBe(before.body);
    expect(counts(after.body)).toContainEqual(['256774000004', 1]);
  });

  it('shows a vote this process settles once the page is a quarter of RANKING_CACHE_MS old, after one refresh: the read then is answered from memory and refreshes the page', async () => {
    await rank();
    const resultsBefore = (await results()).json().results;
    const phoneNumber = '256774000009';
    const sessionId = 'answer-cache-vote';
    // A general vote for Brazil by USSD, then the provider's signed SUCCESSFUL callback.
    for (const text of ['', '1', '1*3', '1*3*1']) {
      await world.hop({ sessionId, serviceCode: WORLD_CUP.code, phoneNumber, networkCode: '64101', text });
    }
    const [vote] = await world.db.select().from(transactions).where(eq(transactions.phoneNumber, phoneNumber));
    expect(counts((await rank()).body)).not.toContainEqual([phoneNumber, 1]);
    const queries = watchQueries(world, isRankingQuery);
    expect((await world.pay(vote.paymentRef!, 'SUCCESSFUL')).statusCode).toBe(200);
    // Under a quarter of RANKING_CACHE_MS old, a page stays fresh however many votes come: no load.
    clock.now += 249;
    expect(counts((await rank()).body)).not.toContainEqual([phoneNumber, 1]);
    expect(queries.count).toBe(0);
    // A quarter old: stale now, answered from memory at once (no reader waits on the database), refreshed behind it.
    clock.now += 1;
    expect(counts((await rank()).body)).not.toContainEqual([phoneNumber, 1]);
    await eventually(async () => counts((await rank()).body).some(([phone]) => phone === phoneNumber));
    expect(queries.count).toBe(1);
    await results();
    await eventually(async () => (await results()).json().results.totalVotes === resultsBefore.totalVotes + 1);
  });

  it("reads a voter's peak and flags again once this process settles a vote of it, and no other voter's", async () => {
    // A number of its own prefix: eleven votes in 50 seconds, paid here, earn 'velocity'.
    const phoneNumber = '256779000001';
    const votes = await insertVotes(
      world,
      WORLD_CUP,
      Array.from({ length: 11 }, (_, i) => ({ phoneNumber, isComplete: false, paymentRef: `figures-${i}`, createdAt: new Date(Date.UTC(2022, 11, 1, 10, 0, i * 5)) })),
    );
    await rank();
    const figures = watchQueries(world, (text) => typeof text === 'string' && text.includes('from campaign_voter_figures f cross join settings'));
    const client = (world.db as unknown as { $client: PGlite }).$client;
    const query = jest.mocked(client.query);
    for (const vote of votes) expect((await world.pay(vote.paymentRef!, 'SUCCESSFUL')).statusCode).toBe(200);
    clock.now += 250;
    const row = async () => (JSON.parse((await rank()).body).results.docs as { phoneNumber: string; count: number; peakPerMinute: number; flags: string[] }[]).find((r) => r.phoneNumber === phoneNumber);
    await eventually(async () => (await row())?.count === 11);
    expect(await row()).toMatchObject({ peakPerMinute: 11, flags: ['velocity'] });
    // The page's other voters' figures came from memory: one load, of the voter that changed alone.
    expect(figures.count).toBe(1);
    // PGlite takes (text, params); pg's pool a config with `text`, and the values in it or beside it.
    const [asked] = query.mock.calls
      .map(([first, params]) => {
        const config = typeof first === 'object' && first !== null ? (first as { text: string; values?: unknown }) : { text: String(first) };
        return { text: config.text, values: config.values ?? params };
      })
      .filter(({ text }) => text.includes('from campaign_voter_figures f cross join settings'));
    expect(JSON.stringify(asked.values)).toContain(phoneNumber);
    expect(JSON.stringify(asked.values)).not.toContain('256774000001');
  });

  it('makes one database call for concurrent misses of one page', async () => {
    const queries = watchQueries(world, isRankingQuery);
    queries.hold = true;
    const asked = jest.spyOn(world.app.answerCache, 'answer');
    const pages = Array.from({ length: 10 }, () => rank());
    // Every request has reached the cache while the first one's statement is still held.
    while (asked.mock.calls.filter(([, question]) => question.startsWith('ranking')).length < 10) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(queries.count).toBe(1);
    queries.release();
    const answers = await Promise.all(pages);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(queries.count).toBe(1);
  });

  it('still refuses callers and bad input before the cache, when the answer is cached', async () => {
    expect((await rank()).statusCode).toBe(200);
    expect((await results()).statusCode).toBe(200);
    const afcon = (await world.headersFor('agent', { isAfcon: true })).headers;
    const agent = (await world.headersFor('agent')).headers;
    for (const headers of [afcon, agent]) {
      expect([(await rank(headers)).statusCode, (await results(headers)).statusCode]).toEqual([403, 403]);
    }
    expect((await rank({})).statusCode).toBe(401);
    const wrongCode = await rank(admin, { serviceCode: AFCON.code });
    expect([wrongCode.statusCode, wrongCode.json().errors[0].field]).toEqual([400, 'serviceCode']);
    const badRound = await world.app.inject({ method: 'GET', url: `${RESULTS}?round=week9`, headers: admin });
    expect([badRound.statusCode, badRound.json().errors[0].field]).toEqual([400, 'round']);
  });
});

describe('RANKING_CACHE_MS=0', () => {
  it('turns the cache off: every read asks the database and sees every vote', async () => {
    expect(rankingCacheMs({ RANKING_CACHE_MS: '0' })).toBe(0);
    expect(rankingCacheMs({})).toBe(1000);
    expect(() => rankingCacheMs({ RANKING_CACHE_MS: '1s' })).toThrow(/RANKING_CACHE_MS/);
    const { world, admin } = await worldWithClock(rankingCacheMs({ RANKING_CACHE_MS: '0' }));
    try {
      const rank = () => world.app.inject({ method: 'POST', url: RANKING, headers: admin, payload: { serviceCode: WORLD_CUP.code } });
      const queries = watchQueries(world, (text) => isRankingQuery(text) || isResultsQuery(text));
      await rank();
      await insertVotes(world, WORLD_CUP, [{ phoneNumber: '256774000004' }]);
      expect(counts((await rank()).body)).toContainEqual(['256774000004', 1]);
      await world.app.inject({ method: 'GET', url: RESULTS, headers: admin });
      await world.app.inject({ method: 'GET', url: RESULTS, headers: admin });
      expect(queries.count).toBe(4);
      expect(world.app.answerCache.size).toBe(0);
    } finally {
      await world.close();
    }
  });
});

describe('answerCache', () => {
  const later = <T>(value: T) => {
    let resolve!: (value: T) => void;
    const promise = new Promise<T>((done) => (resolve = () => done(value)));
    return { promise, resolve: () => resolve(value) };
  };

  it('keeps an answer whose load began before a vote was counted as stale once a quarter of the time old: served while one fresh load runs', async () => {
    const clock = { now: 0 };
    const cache = answerCache({ ttlMs: 1000, now: () => clock.now });
    const before = later('before the vote');
    const first = cache.answer('c', 'q', () => before.promise);
    cache.voteCounted('c');
    before.resolve();
    expect(await first).toBe('before the vote');
    clock.now = 249;
    expect(await cache.answer('c', 'q', async () => 'not loaded')).toBe('before the vote');
    // A quarter of ttlMs after its load began: the next reader gets it at once and starts the refresh, the one after gets the refresh.
    clock.now = 250;
    const after = later('after the vote');
    expect(await cache.answer('c', 'q', () => after.promise)).toBe('before the vote');
    after.resolve();
    await after.promise;
    await new Promise((resolve) => setImmediate(resolve));
    expect(await cache.answer('c', 'q', async () => 'loaded again')).toBe('after the vote');
    // A vote makes a fresh answer stale once it is a quarter of ttlMs old, never older than the cache's bound.
    cache.voteCounted('c');
    clock.now = 499;
    expect(await cache.answer('c', 'q', async () => 'not loaded either')).toBe('after the vote');
    clock.now = 500;
    expect(await cache.answer('c', 'q', async () => 'after the second vote')).toBe('after the vote');
    await new Promise((resolve) => setImmediate(resolve));
    expect(await cache.answer('c', 'q', async () => 'loaded again')).toBe('after the second vote');
    clock.now += 2000;
    expect(await cache.answer('c', 'q', async () => 'waited for')).toBe('waited for');
  });

  it('takes voteRefreshMs for how old an answer must be before a vote makes it stale, never above ttlMs', async () => {
    const clock = { now: 0 };
    const cache = answerCache({ ttlMs: 1000, voteRefreshMs: 5000, now: () => clock.now });
    await cache.answer('c', 'q', async () => 'first');
    cache.voteCounted('c');
    clock.now = 999;
    expect(await cache.answer('c', 'q', async () => 'not loaded')).toBe('first');
    clock.now = 1000;
    expect(await cache.answer('c', 'q', async () => 'second')).toBe('first');
    await new Promise((resolve) => setImmediate(resolve));
    expect(await cache.answer('c', 'q', async () => 'not loaded')).toBe('second');
  });

  it('does not keep an answer whose load began before its campaign was dropped', async () => {
    const cache = answerCache({ ttlMs: 1000 });
    const stale = later('before the drop');
    const first = cache.answer('c', 'q', () => stale.promise);
    cache.dropCampaign('c');
    // A reader after the drop does not join the load it dropped.
    const second = cache.answer('c', 'q', async () => 'after the drop');
    stale.resolve();
    expect([await first, await second]).toEqual(['before the drop', 'after the drop']);
    expect(await cache.answer('c', 'q', async () => 'loaded again')).toBe('after the drop');
  });

  it('holds at most maxEntries answers and maxChars characters, least recently used out first', async () => {
    const cache = answerCache({ ttlMs: 1000, maxEntries: 3, maxChars: 1000 });
    for (const q of ['a', 'b', 'c']) await cache.answer('c', q, async () => q);
    await cache.answer('c', 'a', async () => 'reloaded');
    await cache.answer('c', 'd', async () => 'd');
    expect(cache.size).toBe(3);
    expect(await cache.answer('c', 'a', async () => 'reloaded')).toBe('a');
    expect(await cache.answer('c', 'b', async () => 'b evicted')).toBe('b evicted');
    await cache.answer('c', 'big', async () => 'x'.repeat(1000));
    expect(cache.size).toBe(1);
  });

  it('does not keep a failed load', async () => {
    const cache = answerCache({ ttlMs: 1000 });
    await expect(cache.answer('c', 'q', () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(await cache.answer('c', 'q', async () => 'ok')).toBe('ok');
  });

  describe('voter figures', () => {
    /** A load that answers each number's figures as `tag:phone` and remembers whom it was asked for. */
    const loader = (tag: string, asked: string[][]) => async (phones: string[]) => {
      asked.push(phones);
      return new Map(phones.map((phone) => [phone, `${tag}:${phone}`]));
    };
    const A = '256774000001';
    const SAME_PREFIX = '256774000999';
    const OTHER_PREFIX = '256775000001';

    it('keeps each voter ten times ttlMs, loading only the numbers it lacks', async () => {
      const clock = { now: 0 };
      const cache = answerCache({ ttlMs: 1000, now: () => clock.now });
      const asked: string[][] = [];
      await cache.voterFigures('c', 'all', [A, OTHER_PREFIX], loader('first', asked));
      clock.now = 9_999;
      const again = await cache.voterFigures('c', 'all', [A, OTHER_PREFIX, SAME_PREFIX], loader('second', asked));
      expect([...again]).toEqual([
        [A, 'first:' + A],
        [OTHER_PREFIX, 'first:' + OTHER_PREFIX],
        [SAME_PREFIX, 'second:' + SAME_PREFIX],
      ]);
      // Rounds are kept apart; after ten times ttlMs every number loads again.
      await cache.voterFigures('c', 'week2', [A], loader('week2', asked));
      clock.now = 10_000;
      await cache.voterFigures('c', 'all', [A], loader('third', asked));
      expect(asked).toEqual([[A, OTHER_PREFIX], [SAME_PREFIX], [A], [A]]);
    });

    it("drops the figures of a settled vote's number and of its prefix (its bursts), not the others'", async () => {
      const cache = answerCache({ ttlMs: 1000 });
      const asked: string[][] = [];
      await cache.voterFigures('c', 'all', [A, SAME_PREFIX, OTHER_PREFIX], loader('first', asked));
      await cache.voterFigures('other', 'all', [A], loader('first', asked));
      cache.voterChanged('c', SAME_PREFIX);
      await cache.voterFigures('c', 'all', [A, SAME_PREFIX, OTHER_PREFIX], loader('second', asked));
      await cache.voterFigures('other', 'all', [A], loader('second', asked));
      expect(asked.slice(2)).toEqual([[A, SAME_PREFIX]]);
      // An edit of the campaign (its velocity, its cap) drops every voter's.
      cache.dropCampaign('c');
      await cache.voterFigures('c', 'all', [A, OTHER_PREFIX], loader('third', asked));
      expect(asked.slice(3)).toEqual([[A, OTHER_PREFIX]]);
    });

    it('answers but does not keep figures whose load began before a vote of their prefix was settled', async () => {
      const cache = answerCache({ ttlMs: 1000 });
      const asked: string[][] = [];
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const loading = cache.voterFigures('c', 'all', [A, OTHER_PREFIX], async (phones) => {
        await held;
        return loader('before', asked)(phones);
      });
      cache.voterChanged('c', A);
      release();
      expect((await loading).get(A)).toBe('before:' + A);
      expect(await cache.voterFigures('c', 'all', [A, OTHER_PREFIX], loader('after', asked))).toEqual(
        new Map([
          [OTHER_PREFIX, 'before:' + OTHER_PREFIX],
          [A, 'after:' + A],
        ]),
      );
    });

    it('keeps none with the cache off, and at most maxFigures', async () => {
      const asked: string[][] = [];
      const off = answerCache({ ttlMs: 0 });
      await off.voterFigures('c', 'all', [A], loader('x', asked));
      await off.voterFigures('c', 'all', [A], loader('x', asked));
      expect(asked).toEqual([[A], [A]]);
      const small = answerCache({ ttlMs: 1000, maxFigures: 2 });
      await small.voterFigures('c', 'all', [A, OTHER_PREFIX, '256776000001'], loader('x', asked));
      await small.voterFigures('c', 'all', [A, OTHER_PREFIX, '256776000001'], loader('y', asked));
      // The group kept longest went first.
      expect(asked.slice(2)).toEqual([[A, OTHER_PREFIX, '256776000001'], [A]]);
    });
  });
});
