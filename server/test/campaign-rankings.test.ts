import { buildTestWorld, type TestWorld } from './helpers';
import { AFCON, createCampaigns, insertVotes, WORLD_CUP } from './campaign-fixtures';

jest.setTimeout(30_000);

let world: TestWorld;
let headers: Record<string, string>;

const at = (minute: number) => new Date(Date.UTC(2022, 11, 1, 12, minute));

beforeAll(async () => {
  world = await buildTestWorld();
  await createCampaigns(world);
  headers = (await world.headersFor('admin')).headers;
  // Five voters: A 3 votes (2 general, 1 week2), B 3 (all general), C 1 final, D 1 pending, E 1 failed.
  await insertVotes(world, WORLD_CUP, [
    { phoneNumber: '256770000001', createdAt: at(1) },
    { phoneNumber: '256770000002', createdAt: at(2) },
    { phoneNumber: '256770000001', createdAt: at(3), round: 'week2', teamName: 'France', teamName2: 'Brazil' },
    { phoneNumber: '256770000002', createdAt: at(4), teamName: 'Brazil' },
    { phoneNumber: '256770000001', createdAt: at(5) },
    { phoneNumber: '256770000002', createdAt: at(6) },
    { phoneNumber: '256770000003', createdAt: at(7), round: 'final', teamName: 'France', teamName2: 'Argentina' },
    { phoneNumber: '256770000004', createdAt: at(8), isComplete: false },
    { phoneNumber: '256770000005', createdAt: at(9), isComplete: false, isDeleted: true },
  ]);
  await insertVotes(world, AFCON, [{ phoneNumber: '256770000009', createdAt: at(1), teamName: 'Nigeria' }]);
}, 60_000);
afterAll(() => world.close());

const rank = (path: string, body: object = { serviceCode: WORLD_CUP.code }, query = 'page=1&limit=50') =>
  world.app.inject({ method: 'POST', url: `${path}?${query}`, headers, payload: body });

describe('POST /v1/world/cup/better/all and the round rankings', () => {
  it('ranks voters over all rounds by count, then the earlier last vote, with both paged shapes', async () => {
    const response = await rank('/v1/world/cup/better/all');
    expect(response.statusCode).toBe(200);
    const { status, message, results } = response.json();
    expect([status, message]).toEqual([true, 'User ranking by votes']);
    // A and B have 3 votes each; A's last vote (minute 5) is earlier than B's (minute 6).
    expect(results.docs.map((r: { _id: string; count: number }) => [r._id, r.count])).toEqual([
      ['256770000001', 3],
      ['256770000002', 3],
      ['256770000003', 1],
    ]);
    expect(results).toMatchObject({ page: 1, limit: 50, total: 3, pages: 1, previous: null, next: null, totalDocs: 3, prevPage: null, nextPage: null });
    const [first] = results.docs;
    expect(first).toMatchObject({ phoneNumber: '256770000001', serviceCode: WORLD_CUP.code });
    expect(first.transactions.map((v: { createdAt: string }) => v.createdAt)).toEqual([at(5), at(3), at(1)].map((d) => d.toISOString()));
    expect(first.transactions[1]).toEqual({ _id: expect.any(String), createdAt: at(3).toISOString(), teamName: 'France', teamName2: 'Brazil' });
  });

  it('counts one round only on the round rankings', async () => {
    const week2 = (await rank('/v1/world/cup/week2/better/all')).json().results;
    expect(week2.docs.map((r: { _id: string; count: number }) => [r._id, r.count])).toEqual([['256770000001', 1]]);
    expect(week2.docs[0].transactions).toHaveLength(1);
    const final = (await rank('/v1/world/cup/final/winner/better/all')).json().results;
    expect(final.docs.map((r: { _id: string }) => r._id)).toEqual(['256770000003']);
    for (const path of ['/v1/world/cup/week3/better/all', '/v1/world/cup/week4/better/all']) {
      const empty = (await rank(path)).json().results;
      expect(empty).toMatchObject({ docs: [], total: 0, pages: 1 });
    }
  });

  it('ranks AFCON with the phone number as _id', async () => {
    const response = await rank('/v1/afcon/2024/better/all', { serviceCode: AFCON.code });
    expect(response.json().results.docs).toEqual([
      { _id: '256770000009', phoneNumber: '256770000009', serviceCode: AFCON.code, count: 1, peakPerMinute: 1, flags: [], transactions: [expect.objectContaining({ teamName: 'Nigeria' })] },
    ]);
  });

  it("refuses a service code that is not the campaign's, and bad bodies and pages, with field errors", async () => {
    const wrong = await rank('/v1/world/cup/better/all', { serviceCode: AFCON.code });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors).toEqual([{ field: 'serviceCode', message: expect.any(String) }]);
    for (const body of [{ serviceCode: { $ne: 1 } }, { serviceCode: 'x\u0000' }, { serviceCode: 'x'.repeat(500) }]) {
      const response = await rank('/v1/world/cup/better/all', body);
      expect([response.statusCode, response.json().errors[0].field]).toEqual([400, 'serviceCode']);
    }
    for (const query of ['page=99999999999', 'page=abc', 'limit=0', 'limit=1000']) {
      expect((await rank('/v1/world/cup/better/all', undefined, query)).statusCode).toBe(400);
    }
    const far = await rank('/v1/world/cup/better/all', undefined, 'page=1000000');
    expect(far.json().results).toMatchObject({ docs: [], page: 1000000 });
  });
});
