import { serviceCodes, transactions } from '../src/db/schema';
import { randomCode } from './catalogue-fixtures';
import { buildTestWorld, type TestWorld } from './helpers';

jest.setTimeout(60_000);

let world: TestWorld;
let admin: Record<string, string>;
const key = 'cecafa-reads';
let serviceCode: string;
beforeAll(async () => {
  world = await buildTestWorld();
  admin = (await world.headersFor('admin')).headers;
  serviceCode = randomCode();
  await world.db.insert(serviceCodes).values({ name: serviceCode });
  const payload = {
    key,
    name: 'CECAFA Cup',
    serviceCode,
    teams: ['Uganda', 'Kenya', 'Tanzania'],
    rounds: [
      { key: 'winner', label: 'Winner', kind: 'teams' },
      { key: 'final', label: 'Final', kind: 'games', games: [['Uganda', 'Kenya']] },
    ],
  };
  expect((await world.app.inject({ method: 'POST', url: '/v1/campaigns', headers: admin, payload })).statusCode).toBe(201);
  expect((await world.app.inject({ method: 'POST', url: `/v1/campaigns/${key}/publish`, headers: admin })).statusCode).toBe(200);
  const vote = { serviceCode, network: 'MTN', amount: 500, campaignKey: key };
  await world.db.insert(transactions).values([
    { ...vote, phoneNumber: '256703000001', round: 'winner', teamName: 'Uganda', isComplete: true },
    { ...vote, phoneNumber: '256703000001', round: 'final', teamName: 'Uganda', teamName2: 'Kenya', isComplete: true },
    { ...vote, phoneNumber: '256703000002', round: 'final', teamName: 'Kenya', teamName2: 'Uganda', isComplete: true },
    { ...vote, phoneNumber: '256703000003', round: 'winner', teamName: 'Tanzania', isDeleted: true },
  ]);
}, 60_000);
afterAll(() => world.close());

const post = (url: string, payload: object, headers = admin) => world.app.inject({ method: 'POST', url, headers, payload });

describe('a created campaign\'s reads under /v1/campaigns/{key}', () => {
  it('lists its transactions of a day, its failed ones and a number\'s, from its own code only', async () => {
    const all = await post(`/v1/campaigns/${key}/transactions?page=1&limit=10`, {});
    expect(all.statusCode).toBe(200);
    expect(all.json().results.totalDocs).toBe(4);
    const failed = (await post(`/v1/campaigns/${key}/failed?page=1&limit=10`, {})).json().results;
    expect(failed.docs.map((d: { phoneNumber: string }) => d.phoneNumber)).toEqual(['256703000003']);
    const found = (await post(`/v1/campaigns/${key}/search?page=1&limit=10`, { phoneNumber: '256703000001' })).json().results;
    expect(found.totalDocs).toBe(2);
    expect((await post(`/v1/campaigns/${key}/transactions`, { date: 'yesterday' })).statusCode).toBe(400);
    expect((await post(`/v1/campaigns/${key}/search`, {})).statusCode).toBe(400);
  });

  it('resolves its failed calls one by one and in bulk, its own code\'s only', async () => {
    const [failed] = (await post(`/v1/campaigns/${key}/failed?page=1&limit=10`, {})).json().results.docs as { _id: string }[];
    const resolved = await post(`/v1/campaigns/${key}/failed/${failed._id}`, { isResolved: true, reason: 'reached-helped' });
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json().results).toMatchObject({ _id: failed._id, isResolved: true });
    const [other] = await world.db
      .insert(transactions)
      .values({ serviceCode: randomCode(), phoneNumber: '256703000004', network: 'MTN', amount: 500, isDeleted: true })
      .returning();
    expect((await post(`/v1/campaigns/${key}/failed/${other.id}`, { isResolved: true })).statusCode).toBe(404);
    const bulk = await post(`/v1/campaigns/${key}/failed/bulk`, { ids: [failed._id, other.id] });
    expect(bulk.statusCode).toBe(200);
    expect((await post(`/v1/campaigns/${key}/failed/not-an-id`, { isResolved: true })).statusCode).toBe(400);
  });

  it('ranks its voters per round and over all rounds, and counts its results', async () => {
    const overall = (await post(`/v1/campaigns/${key}/ranking?page=1&limit=10`, {})).json().results;
    expect(overall.docs.map((d: { phoneNumber: string; count: number }) => [d.phoneNumber, d.count])).toEqual([
      ['256703000001', 2],
      ['256703000002', 1],
    ]);
    const final = (await post(`/v1/campaigns/${key}/ranking?round=final`, { serviceCode })).json().results;
    expect(final.totalDocs).toBe(2);
    expect((await post(`/v1/campaigns/${key}/ranking?round=week9`, {})).statusCode).toBe(400);
    expect((await post(`/v1/campaigns/${key}/ranking`, { serviceCode: '*1*1#' })).statusCode).toBe(400);
    const results = await world.app.inject({ method: 'GET', url: `/v1/campaigns/${key}/results?round=final`, headers: admin });
    expect(results.json().results).toMatchObject({ totalVotes: 2, distinctVoters: 2, games: expect.arrayContaining([{ teamName: 'Uganda', teamName2: 'Kenya', votes: 1 }]) });
  });

  it('is refused to agents and to the account limited to another campaign; unknown campaigns are 404', async () => {
    for (const extra of [{}, { isAfcon: true }]) {
      const { headers } = await world.headersFor('agent', extra);
      for (const path of ['transactions', 'failed', 'ranking']) expect((await post(`/v1/campaigns/${key}/${path}`, {}, headers)).statusCode).toBe(403);
      expect((await post(`/v1/campaigns/${key}/search`, { phoneNumber: '256703000001' }, headers)).statusCode).toBe(403);
    }
    const superUser = (await world.headersFor('super-user')).headers;
    expect((await post(`/v1/campaigns/${key}/transactions`, {}, superUser)).statusCode).toBe(200);
    expect((await post('/v1/campaigns/no-such/transactions', {})).statusCode).toBe(404);
  });
});
