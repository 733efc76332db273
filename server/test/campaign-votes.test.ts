import { sql } from 'drizzle-orm';
import { campaignVotesRepository } from '../src/repositories/campaign-votes-repository';
import { buildTestWorld, type TestWorld } from './helpers';
import { AFCON, createCampaigns, insertVotes, WORLD_CUP } from './campaign-fixtures';

jest.setTimeout(30_000);

let world: TestWorld;
let headers: Record<string, string>;
const HEAVY = '256771234567';

beforeAll(async () => {
  world = await buildTestWorld();
  await createCampaigns(world);
  headers = (await world.headersFor('admin')).headers;
  // 120 voters in AFCON with 1 to 3 votes; many share a count and a last vote instant.
  await world.db.execute(sql`
    insert into transactions (service_code, campaign_key, round, phone_number, network, team_name, is_complete, created_at)
    select ${AFCON.code}, ${AFCON.key}, 'general', '25670' || lpad(v::text, 7, '0'), 'MTN', 'Mali', true,
      timestamptz '2024-01-20 10:00:00Z' + (v % 2) * interval '1 minute' - k * interval '1 hour'
    from generate_series(1, 120) as v, generate_series(1, 1 + v % 3) as k`);
  // One World Cup voter with 130 votes: 70 general picks and 60 week 2 games.
  await world.db.execute(sql`
    insert into transactions (service_code, campaign_key, round, phone_number, network, team_name, team_name2, is_complete, created_at)
    select ${WORLD_CUP.code}, ${WORLD_CUP.key}, case when i <= 70 then 'general' else 'week2' end, ${HEAVY}, 'MTN',
      case when i % 2 = 0 then 'Brazil' else 'Ghana' end, case when i > 70 then 'Portugal' end,
      true, timestamptz '2022-11-20 10:00:00Z' + i * interval '1 minute'
    from generate_series(1, 130) as i`);
  await insertVotes(world, WORLD_CUP, [
    { phoneNumber: '256770000001', teamName: 'Brazil', createdAt: new Date('2022-11-21T10:00:00Z') },
    { phoneNumber: '256770000002', teamName: 'Spain', isComplete: false },
  ]);
}, 60_000);
afterAll(() => world.close());

type Row = { _id: string; count: number; transactions: { createdAt: string }[] };
const get = (url: string) => world.app.inject({ method: 'GET', url, headers });

describe('ranking pages', () => {
  it('never repeat or skip a voter across page boundaries, ties ordered by the earlier last vote, then phone number', async () => {
    const seen: Row[] = [];
    for (let page = 1; page <= 3; page += 1) {
      const response = await world.app.inject({ method: 'POST', url: `/v1/afcon/2024/better/all?page=${page}&limit=50`, headers, payload: { serviceCode: AFCON.code } });
      const { results } = response.json();
      expect(results).toMatchObject({ page, total: 120, pages: 3, totalDocs: 120, previous: page > 1 ? page - 1 : null, nextPage: page < 3 ? page + 1 : null });
      seen.push(...results.docs);
    }
    expect(new Set(seen.map((r) => r._id)).size).toBe(120);
    const expected = [...seen].sort((a, b) => b.count - a.count || a.transactions[0].createdAt.localeCompare(b.transactions[0].createdAt) || a._id.localeCompare(b._id));
    expect(seen.map((r) => r._id)).toEqual(expected.map((r) => r._id));
    // The boundary between pages 1 and 2 falls inside a run of equal counts and equal last votes.
    expect([seen[49].count, seen[49].transactions[0].createdAt]).toEqual([seen[50].count, seen[50].transactions[0].createdAt]);
  });

  it('carry at most 50 newest votes per row; the votes call pages through the rest', async () => {
    const ranking = await world.app.inject({ method: 'POST', url: '/v1/world/cup/better/all?page=1&limit=50', headers, payload: { serviceCode: WORLD_CUP.code } });
    const [heavy] = ranking.json().results.docs;
    expect([heavy._id, heavy.count, heavy.transactions.length]).toEqual([HEAVY, 130, 50]);

    const pages = [];
    for (let page = 1; page <= 3; page += 1) {
      const response = await get(`/v1/campaigns/${WORLD_CUP.key}/votes?phoneNumber=${HEAVY}&page=${page}`);
      expect(response.statusCode).toBe(200);
      const { results } = response.json();
      expect(results).toMatchObject({ page, limit: 50, total: 130, pages: 3 });
      pages.push(...results.docs);
    }
    expect(pages).toHaveLength(130);
    expect(pages.slice(0, 50)).toEqual(heavy.transactions);
    const times = pages.map((v) => v.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(pages[0]).toEqual({ _id: expect.any(String), createdAt: expect.any(String), teamName: expect.any(String), teamName2: 'Portugal' });
    expect(pages[129]).not.toHaveProperty('teamName2');
  });

  it('filter the votes call by round, and refuse unknown rounds, campaigns and bad phone numbers', async () => {
    const week2 = (await get(`/v1/campaigns/${WORLD_CUP.key}/votes?phoneNumber=%2B${HEAVY}&round=week2&limit=100`)).json().results;
    expect([week2.total, week2.docs.length, week2.limit]).toEqual([60, 60, 100]);
    const none = (await get(`/v1/campaigns/${WORLD_CUP.key}/votes?phoneNumber=256700000099&round=all`)).json().results;
    expect(none).toMatchObject({ docs: [], total: 0 });
    const bad = await get(`/v1/campaigns/${WORLD_CUP.key}/votes?phoneNumber=${HEAVY}&round=week9`);
    expect([bad.statusCode, bad.json().errors]).toEqual([400, [{ field: 'round', message: 'Unknown round' }]]);
    for (const query of ['phoneNumber=abc', 'phoneNumber=%00123456', '', `phoneNumber=${HEAVY}&limit=101`, `phoneNumber=${HEAVY}&page=0`]) {
      expect((await get(`/v1/campaigns/${WORLD_CUP.key}/votes?${query}`)).statusCode).toBe(400);
    }
    expect((await get(`/v1/campaigns/euro-2024/votes?phoneNumber=${HEAVY}`)).statusCode).toBe(404);
    // A NUL never reaches the database: the input guard refuses it first (DESIGN §4).
    expect((await get(`/v1/campaigns/%00/votes?phoneNumber=${HEAVY}`)).statusCode).toBe(400);
  });
});

describe('GET /v1/campaigns/{key}/results', () => {
  it('answers votes per team and per game with totals, per round and over all rounds', async () => {
    const all = (await get(`/v1/campaigns/${WORLD_CUP.key}/results`)).json();
    expect(all).toEqual({
      status: true,
      message: 'Team results',
      results: {
        round: null,
        totalVotes: 131,
        distinctVoters: 2,
        teams: [{ teamName: 'Brazil', votes: 66 }, { teamName: 'Ghana', votes: 65 }],
        games: [{ teamName: 'Brazil', teamName2: 'Portugal', votes: 30 }, { teamName: 'Ghana', teamName2: 'Portugal', votes: 30 }],
      },
    });
    const general = (await get(`/v1/campaigns/${WORLD_CUP.key}/results?round=general`)).json().results;
    expect(general).toEqual({ round: 'general', totalVotes: 71, distinctVoters: 2, teams: [{ teamName: 'Brazil', votes: 36 }, { teamName: 'Ghana', votes: 35 }], games: [] });
    const final = (await get(`/v1/campaigns/${WORLD_CUP.key}/results?round=final`)).json().results;
    expect(final).toEqual({ round: 'final', totalVotes: 0, distinctVoters: 0, teams: [], games: [] });
    expect((await get(`/v1/campaigns/${WORLD_CUP.key}/results?round=semi`)).statusCode).toBe(400);
    expect((await get(`/v1/campaigns/${AFCON.key}/results?round=all`)).json().results).toMatchObject({ totalVotes: 240, distinctVoters: 120 });
  });
});

describe('GET /v1/campaigns/{key}/ranking/export', () => {
  it('streams the whole ranking as CSV in ranking order', async () => {
    const response = await get(`/v1/campaigns/${AFCON.key}/ranking/export`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toBe('attachment; filename="ranking-afcon-2024-all.csv"');
    const lines = response.body.trim().split('\n');
    expect(lines[0]).toBe('rank,phoneNumber,serviceCode,votes,lastVoteAt');
    expect(lines).toHaveLength(121);
    const ranking = await world.app.inject({ method: 'POST', url: '/v1/afcon/2024/better/all?page=2&limit=50', headers, payload: { serviceCode: AFCON.code } });
    const row = ranking.json().results.docs[0];
    expect(lines[51]).toBe(`51,${row._id},${AFCON.code},${row.count},${row.transactions[0].createdAt}`);
    // Read in small chunks, the keyset walk gives the same order across chunk boundaries.
    const chunked: string[] = [];
    for await (const chunk of campaignVotesRepository(world.db).ranking(AFCON.key, 'all', 7)) chunked.push(...chunk.map((l) => `${l.phoneNumber},${l.votes}`));
    expect(chunked).toEqual(lines.slice(1).map((l) => l.split(',').filter((_, i) => i === 1 || i === 3).join(',')));
    const week2 = await get(`/v1/campaigns/${WORLD_CUP.key}/ranking/export?round=week2`);
    expect(week2.headers['content-disposition']).toBe('attachment; filename="ranking-world-cup-2022-week2.csv"');
    expect(week2.body.trim().split('\n')[1]).toMatch(new RegExp(`^1,${HEAVY},\\*217\\*50#,60,`));
  });
});
