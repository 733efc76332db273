import { sql } from 'drizzle-orm';
import { answerCache } from '../src/plugins/answer-cache';
import { BURST_PREFIX_DIGITS, heldVoteConfirmation } from '../../src/domain/vote-integrity';
import { auditEntries } from './audit-fixtures';
import { AFCON, createCampaigns, insertVotes, rowsOf, WORLD_CUP } from './campaign-fixtures';
import { buildTestWorld, type TestWorld } from './helpers';
import { voteCountsKept, voteCountsRecounted, voterFiguresKept, voterFiguresRecounted } from './recount-fixtures';

/**
 * Vote integrity on fixed clocks: the flags a round's votes earn (velocity, near-cap, burst) on the
 * suspicious list and the ranking rows, 'flagged only', and a holding campaign's flagged votes
 * settled held, then released (counted once) or rejected (never counted).
 */

jest.setTimeout(120_000);

let world: TestWorld;
let admin: Record<string, string>;

/** Seconds after a fixed instant, 1 December 2022 12:00 UTC. */
const at = (seconds: number) => new Date(Date.UTC(2022, 11, 1, 12) + seconds * 1000);
const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const phone = (prefix: string, i: number) => `${prefix}${String(i).padStart(12 - prefix.length, '0')}`;

const VELOCITY = '256770000101';
const EXACTLY_TEN = '256770000102';
const NEAR_CAP = '256770000103';
const UNDER_CAP = '256770000104';
const BURST = range(10).map((i) => phone('25678', 200 + i));

beforeAll(async () => {
  world = await buildTestWorld({ answerCache: answerCache({ ttlMs: 0 }) });
  await createCampaigns(world);
  admin = (await world.headersFor('admin')).headers;
  await world.db.execute(sql`update campaigns set votes_per_round_cap = 20 where key = ${WORLD_CUP.key}`);
  await insertVotes(world, WORLD_CUP, [
    // 11 votes within 50 seconds: more than 10 in a minute.
    ...range(11).map((i) => ({ phoneNumber: VELOCITY, createdAt: at(i * 5) })),
    // 10 votes within 45 seconds, then one exactly 60 seconds after the first: never more than 10 in 60 seconds.
    ...range(10).map((i) => ({ phoneNumber: EXACTLY_TEN, createdAt: at(i * 5) })),
    { phoneNumber: EXACTLY_TEN, createdAt: at(60) },
    // 16 and 15 votes two minutes apart: 80% of the cap of 20, and just under.
    ...range(16).map((i) => ({ phoneNumber: NEAR_CAP, createdAt: at(3600 + i * 120) })),
    ...range(15).map((i) => ({ phoneNumber: UNDER_CAP, createdAt: at(3600 + i * 120) })),
    // Ten new numbers of one prefix first voting Brazil within 45 seconds: a burst.
    ...BURST.map((phoneNumber, i) => ({ phoneNumber, teamName: 'Brazil', createdAt: at(600 + i * 5) })),
    // Nine of another prefix at the same time; ten for France across two prefixes: no burst.
    ...range(9).map((i) => ({ phoneNumber: phone('25675', 300 + i), teamName: 'Brazil', createdAt: at(600 + i * 5) })),
    ...range(10).map((i) => ({ phoneNumber: phone(i < 5 ? '25679' : '25670', 400 + i), teamName: 'France', createdAt: at(600 + i * 5) })),
    // Ten new numbers of one network in ten blocks of numbers first voting Brazil together: a surge, not a batch of SIMs.
    ...range(10).map((i) => ({ phoneNumber: `25677${i}123456`, teamName: 'Brazil', createdAt: at(600 + i * 5) })),
    // Ten of one prefix 15 seconds apart: at most 7 within 60 seconds of any of them.
    ...range(10).map((i) => ({ phoneNumber: phone('25676', 500 + i), teamName: 'Brazil', createdAt: at(900 + i * 15) })),
    // Ten of one prefix voting Brazil together, none of them for the first time.
    ...range(10).flatMap((i) => [
      { phoneNumber: phone('25674', 600 + i), teamName: 'Argentina', createdAt: at(-3600 - i * 120) },
      { phoneNumber: phone('25674', 600 + i), teamName: 'Brazil', createdAt: at(1200 + i) },
    ]),
    // Not settled: never counted, never flagged.
    ...range(12).map((i) => ({ phoneNumber: '256770000105', isComplete: false, isDeleted: true, createdAt: at(i) })),
  ]);
}, 120_000);
afterAll(() => world.close());

const get = (url: string, headers = admin) => world.app.inject({ method: 'GET', url, headers });
const post = (url: string, payload: object = {}, headers = admin) => world.app.inject({ method: 'POST', url, headers, payload });
const suspicious = async (key: string, query = 'round=general') => {
  const response = await get(`/v1/campaigns/${key}/suspicious?${query}`);
  expect(response.statusCode).toBe(200);
  return response.json().results;
};
type RankRow = { phoneNumber: string; count: number; peakPerMinute: number; flags: string[] };
const ranking = async (url: string, code: string, query = 'page=1&limit=50') => {
  const response = await post(`${url}?${query}`, { serviceCode: code });
  expect(response.statusCode).toBe(200);
  return response.json().results as { docs: RankRow[]; total: number };
};

describe('flags, on fixed clocks', () => {
  it('lists the flagged numbers of a round with their figures, most votes first', async () => {
    const results = await suspicious(WORLD_CUP.key);
    expect(results.total).toBe(12);
    expect(results.docs.slice(0, 2)).toEqual([
      { phoneNumber: NEAR_CAP, votes: 16, peakPerMinute: 1, shareOfCap: 0.8, firstVoteAt: at(3600).toISOString(), lastVoteAt: at(3600 + 15 * 120).toISOString(), heldVotes: 0, flags: ['near-cap'] },
      { phoneNumber: VELOCITY, votes: 11, peakPerMinute: 11, shareOfCap: 0.55, firstVoteAt: at(0).toISOString(), lastVoteAt: at(50).toISOString(), heldVotes: 0, flags: ['velocity'] },
    ]);
    expect(results.docs.slice(2).map((r: RankRow & { votes: number }) => [r.phoneNumber, r.votes, r.flags])).toEqual(BURST.map((p) => [p, 1, ['burst']]));
    // Every round reads the same here: all these votes are in the general round.
    expect((await suspicious(WORLD_CUP.key, 'round=all')).total).toBe(12);
    expect((await suspicious(WORLD_CUP.key, 'round=final')).total).toBe(0);
    expect((await suspicious(WORLD_CUP.key, 'round=general&page=2&limit=5')).docs.map((r: RankRow) => r.phoneNumber)).toEqual(BURST.slice(3, 8));
  });

  it("keys the burst check's index by the prefix the flag uses: another length would leave the index unused", async () => {
    const [index] = (await rowsOf(world, sql`select indexdef from pg_indexes where indexname = 'campaign_voter_figures_burst_idx'`)) as { indexdef: string }[];
    expect(index.indexdef).toContain(`"left"(phone_number, ${BURST_PREFIX_DIGITS})`);
  });

  it('puts the peak and flags on ranking rows, and ranks the flagged alone on asking', async () => {
    const { docs } = await ranking('/v1/world/cup/better/all', WORLD_CUP.code, 'page=1&limit=4');
    expect(docs.map((r) => [r.phoneNumber, r.count, r.peakPerMinute, r.flags])).toEqual([
      [NEAR_CAP, 16, 1, ['near-cap']],
      [UNDER_CAP, 15, 1, []],
      [VELOCITY, 11, 11, ['velocity']],
      [EXACTLY_TEN, 11, 10, []],
    ]);
    const flagged = await ranking('/v1/world/cup/better/all', WORLD_CUP.code, 'page=1&limit=50&flagged=true');
    expect(flagged.total).toBe(12);
    expect(flagged.docs.map((r) => r.phoneNumber)).toEqual([NEAR_CAP, VELOCITY, ...BURST]);
    expect(flagged.docs.every((r) => r.flags.length > 0)).toBe(true);
    expect((await ranking('/v1/world/cup/better/all', WORLD_CUP.code, 'page=1&limit=50&flagged=false')).total).toBe((await ranking('/v1/world/cup/better/all', WORLD_CUP.code)).total);
  });

  it('refuses a bad round, filter or paging with field errors, never echoing them', async () => {
    for (const url of [
      `/v1/campaigns/${WORLD_CUP.key}/suspicious?round=nope`,
      `/v1/campaigns/${WORLD_CUP.key}/suspicious?round=%00`,
      `/v1/campaigns/${WORLD_CUP.key}/suspicious?page=0`,
    ]) {
      const response = await get(url);
      expect(`${url} ${response.statusCode}`).toBe(`${url} 400`);
      expect(response.body).not.toContain('nope');
    }
    expect((await post('/v1/world/cup/better/all?flagged=maybe', { serviceCode: WORLD_CUP.code })).json()).toMatchObject({ status: false, errors: [{ field: 'flagged' }] });
    expect((await get('/v1/campaigns/no-such-campaign/suspicious')).statusCode).toBe(404);
  });
  it('keeps a number with votes held on the list when it is no longer flagged, so a reviewer can still decide them', async () => {
    const hold = (value: string | null) =>
      world.db.execute(sql`update transactions set vote_hold = ${value} where id = (select id from transactions where phone_number = ${UNDER_CAP} order by created_at limit 1)`);
    await hold('held');
    const results = await suspicious(WORLD_CUP.key);
    expect(results.total).toBe(13);
    expect(results.docs.find((r: RankRow) => r.phoneNumber === UNDER_CAP)).toMatchObject({ votes: 15, heldVotes: 1, flags: [] });
    expect((await ranking('/v1/world/cup/better/all', WORLD_CUP.code, 'page=1&limit=50&flagged=true')).total).toBe(12);
    await hold(null);
    expect((await suspicious(WORLD_CUP.key)).total).toBe(12);
  });
});

describe('holding suspicious votes', () => {
  const HELD = '256771000001';
  const REJECTED = '256771000002';

  /** A pending AFCON vote at a fixed time, paid through the provider's callback. */
  async function payVote(phoneNumber: string, seconds: number, n: number) {
    const [vote] = await insertVotes(world, AFCON, [{ phoneNumber, teamName: 'Nigeria', isComplete: false, paymentRef: `hold-${phoneNumber}-${n}`, createdAt: at(seconds) }]);
    expect((await world.pay(vote.paymentRef!, 'SUCCESSFUL')).statusCode).toBe(200);
    return vote.id;
  }
  const results = async () => (await get(`/v1/campaigns/${AFCON.key}/results?round=general`)).json().results;
  const holds = (phoneNumber: string) =>
    rowsOf(world, sql`select vote_hold, ticket_message, message_statuses from transactions where phone_number = ${phoneNumber} and vote_hold is not null order by created_at`);

  beforeAll(async () => {
    await world.db.execute(sql`update campaigns set hold_suspicious = true where key = ${AFCON.key}`);
    // Ten votes in 45 seconds count; the eleventh within the minute makes the number flagged and is held, as is the next.
    for (const i of range(12)) await payVote(HELD, i * 5, i);
    for (const i of range(11)) await payVote(REJECTED, i * 5, i);
  });

  it('settles a flagged number\'s new votes held: paid, told so, out of the ranking and results', async () => {
    expect(await holds(HELD)).toEqual([
      { vote_hold: 'held', ticket_message: heldVoteConfirmation('Nigeria'), message_statuses: expect.any(String) },
      { vote_hold: 'held', ticket_message: heldVoteConfirmation('Nigeria'), message_statuses: expect.any(String) },
    ]);
    expect(await results()).toMatchObject({ totalVotes: 20, distinctVoters: 2, teams: [{ teamName: 'Nigeria', votes: 20 }] });
    const { docs } = await ranking('/v1/afcon/2024/better/all', AFCON.code);
    expect(docs.map((r) => [r.phoneNumber, r.count, r.peakPerMinute, r.flags])).toEqual([
      [HELD, 10, 12, ['velocity']],
      [REJECTED, 10, 11, ['velocity']],
    ]);
    const list = await suspicious(AFCON.key);
    expect(list.docs.map((r: RankRow & { heldVotes: number; votes: number }) => [r.phoneNumber, r.votes, r.heldVotes])).toEqual([
      [HELD, 12, 2],
      [REJECTED, 11, 1],
    ]);
    expect(await voteCountsKept(world)).toEqual(await voteCountsRecounted(world));
  });

  it('counts released votes exactly once, and records who released them', async () => {
    const response = await post(`/v1/campaigns/${AFCON.key}/suspicious/${HELD}/release`);
    expect(response.statusCode).toBe(200);
    expect(response.json().results).toEqual({ phoneNumber: HELD, decision: 'released', votes: 2, rounds: ['general'] });
    expect((await post(`/v1/campaigns/${AFCON.key}/suspicious/${HELD}/release`)).statusCode).toBe(404);
    expect(await results()).toMatchObject({ totalVotes: 22, teams: [{ teamName: 'Nigeria', votes: 22 }] });
    const { docs } = await ranking('/v1/afcon/2024/better/all', AFCON.code);
    expect(docs[0]).toMatchObject({ phoneNumber: HELD, count: 12 });
    expect((await suspicious(AFCON.key)).docs[0]).toMatchObject({ phoneNumber: HELD, heldVotes: 0 });
    expect(await voteCountsKept(world)).toEqual(await voteCountsRecounted(world));
    expect(await auditEntries(world, admin, { action: 'vote.release' })).toEqual([
      expect.objectContaining({ action: 'vote.release', entity: { type: 'campaign', id: AFCON.key, label: expect.stringContaining(HELD) }, serviceCode: AFCON.code }),
    ]);
  });

  it('never counts rejected votes, and records why', async () => {
    for (const payload of [{}, { reason: '' }, { reason: 'a\u0000b' }, { reason: 42 }, { reason: 'x'.repeat(501) }]) {
      const response = await post(`/v1/campaigns/${AFCON.key}/suspicious/${REJECTED}/reject`, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([expect.objectContaining({ field: 'reason' })]);
    }
    const response = await post(`/v1/campaigns/${AFCON.key}/suspicious/${REJECTED}/reject`, { reason: 'Power dialled' });
    expect(response.json().results).toEqual({ phoneNumber: REJECTED, decision: 'rejected', votes: 1, rounds: ['general'] });
    expect((await post(`/v1/campaigns/${AFCON.key}/suspicious/${REJECTED}/release`)).statusCode).toBe(404);
    expect(await holds(REJECTED)).toEqual([expect.objectContaining({ vote_hold: 'rejected' })]);
    expect(await results()).toMatchObject({ totalVotes: 22 });
    expect(await voteCountsKept(world)).toEqual(await voteCountsRecounted(world));
    expect(await auditEntries(world, admin, { action: 'vote.reject' })).toEqual([expect.objectContaining({ action: 'vote.reject', reason: 'Power dialled' })]);
  });

  it('holds the vote that makes a burst: the tenth new number of one prefix for one pick within a minute', async () => {
    const batch = range(10).map((i) => phone('256772345', i));
    for (const [i, number] of batch.entries()) await payVote(number, 7200 + i * 4, 0);
    const held = await rowsOf(world, sql`select phone_number from transactions where phone_number like '256772345%' and vote_hold = 'held'`);
    expect(held).toEqual([{ phone_number: batch[9] }]);
    const list = await suspicious(AFCON.key);
    expect(list.docs.filter((r: RankRow) => r.phoneNumber.startsWith('256772345')).map((r: RankRow) => r.flags)).toEqual(batch.map(() => ['burst']));
    // The figures the check read are the ones a recount of the votes gives.
    expect(await voterFiguresKept(world)).toEqual(await voterFiguresRecounted(world));
  });

  it('lets the campaign-limited account read its suspicious list but decide nothing; agents nothing', async () => {
    const afconOnly = (await world.headersFor('agent', { isAfcon: true })).headers;
    const agent = (await world.headersFor('agent')).headers;
    expect((await get(`/v1/campaigns/${AFCON.key}/suspicious`, afconOnly)).statusCode).toBe(200);
    expect((await get(`/v1/campaigns/${WORLD_CUP.key}/suspicious`, afconOnly)).statusCode).toBe(403);
    expect((await post(`/v1/campaigns/${AFCON.key}/suspicious/${HELD}/release`, {}, afconOnly)).statusCode).toBe(403);
    expect((await post(`/v1/campaigns/${AFCON.key}/suspicious/${HELD}/reject`, { reason: 'x' }, afconOnly)).statusCode).toBe(403);
    expect((await get(`/v1/campaigns/${AFCON.key}/suspicious`, agent)).statusCode).toBe(403);
    expect((await post(`/v1/campaigns/${AFCON.key}/suspicious/${HELD}/release`, {}, agent)).statusCode).toBe(403);
  });
});
