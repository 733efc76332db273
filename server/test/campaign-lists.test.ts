import { todayInServiceZone } from '../../src/domain/format';
import { buildTestWorld, type TestWorld } from './helpers';
import { AFCON, createCampaigns, insertVotes, WORLD_CUP } from './campaign-fixtures';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

jest.setTimeout(30_000);

let world: TestWorld;
let headers: Record<string, string>;
let failedId: string;
let ticketFailedId: string;
const DAY = '2022-12-01';
const CALLER = '256772000001';

beforeAll(async () => {
  world = await buildTestWorld();
  await createCampaigns(world);
  headers = (await world.headersFor('admin')).headers;
  const votes = await insertVotes(world, WORLD_CUP, [
    { phoneNumber: CALLER, createdAt: new Date(`${DAY}T08:00:00Z`) },
    { phoneNumber: CALLER, createdAt: new Date(`${DAY}T09:00:00Z`), isComplete: false, isDeleted: true },
    { phoneNumber: '256772000002', createdAt: new Date('2022-11-30T08:00:00Z'), isComplete: false, isDeleted: true },
    { phoneNumber: '256772000003', createdAt: new Date(), round: 'week2', teamName: 'Ghana', teamName2: 'Wales' },
  ]);
  failedId = votes[1].id;
  await insertVotes(world, AFCON, [{ phoneNumber: CALLER, createdAt: new Date(`${DAY}T10:00:00Z`), teamName: 'Mali' }]);
  // A ticket call of the same caller on another code stays out of the campaign lists.
  const { code } = await createCatalogue(world, null);
  [{ id: ticketFailedId }] = await insertTransactions(world, code.name, [{ phoneNumber: CALLER, createdAt: new Date(`${DAY}T11:00:00Z`), isDeleted: true }]);
}, 60_000);
afterAll(() => world.close());

const post = (url: string, payload: object) => world.app.inject({ method: 'POST', url, headers, payload });
const phones = (docs: { phoneNumber: string }[]) => docs.map((d) => d.phoneNumber);

describe.each([
  { prefix: '/v1/world/cup/analysis', campaign: WORLD_CUP },
  { prefix: '/v1/afcon/2024/analysis', campaign: AFCON },
])('$prefix', ({ prefix, campaign }) => {
  it("lists a day's transactions of the campaign's code, today by default, like the regular lists", async () => {
    const response = await post(`${prefix}/all?page=1&limit=50`, { name: campaign.code, date: DAY });
    expect(response.statusCode).toBe(200);
    const { message, results } = response.json();
    expect(message).toBe(`Transactions for ${DAY}`);
    expect(results.docs.every((d: { name: string }) => d.name === campaign.code)).toBe(true);
    expect(results).toMatchObject({ page: 1, limit: 50, total: campaign === WORLD_CUP ? 2 : 1, previous: null, next: null });
    expect(results.docs[0]).toMatchObject({ _id: expect.any(String), shortCode: { name: campaign.code }, teamName: expect.any(String), isComplete: expect.any(Boolean) });
    const today = (await post(`${prefix}/all?page=1&limit=50`, {})).json();
    expect(today.message).toBe(`Transactions for ${todayInServiceZone()}`);
    expect(today.results.total).toBe(campaign === WORLD_CUP ? 1 : 0);
  });

  it("refuses a name that is not the campaign's code, and bad dates, with field errors", async () => {
    const other = campaign === WORLD_CUP ? AFCON : WORLD_CUP;
    const wrong = await post(`${prefix}/all?page=1&limit=50`, { name: other.code, date: DAY });
    expect([wrong.statusCode, wrong.json().errors[0].field]).toEqual([400, 'name']);
    const failed = await post(`${prefix}/to/give/attention?page=1&limit=50`, { name: '*217*1#' });
    expect([failed.statusCode, failed.json().errors[0].field]).toEqual([400, 'name']);
    for (const body of [{ date: '2022-13-45' }, { date: 20221201 }, { name: ['x'] }, { date: `${DAY}\u0000` }]) {
      const response = await post(`${prefix}/all?page=1&limit=50`, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors.length).toBeGreaterThan(0);
    }
  });

  it('searches by phone number within the campaign only', async () => {
    const response = await post(`${prefix}/search?page=1&limit=50`, { phoneNumber: `+${CALLER}` });
    expect(response.json()).toMatchObject({ status: true, message: 'Transactions', results: { total: campaign === WORLD_CUP ? 2 : 1 } });
    expect(phones(response.json().results.docs).every((p) => p === CALLER)).toBe(true);
    const bad = await post(`${prefix}/search?page=1&limit=50`, { phoneNumber: 'call me' });
    expect([bad.statusCode, bad.json().errors[0].field]).toEqual([400, 'phoneNumber']);
  });
});

describe('failed campaign transactions', () => {
  it('lists every day without a date, one day with it', async () => {
    const every = (await post('/v1/world/cup/analysis/to/give/attention?page=1&limit=50', { name: WORLD_CUP.code })).json();
    expect(every.message).toBe('Transactions to give attention');
    expect(phones(every.results.docs)).toEqual([CALLER, '256772000002']);
    const oneDay = (await post('/v1/world/cup/analysis/to/give/attention?page=1&limit=50', { date: DAY })).json();
    expect(phones(oneDay.results.docs)).toEqual([CALLER]);
    expect((await post('/v1/afcon/2024/analysis/to/give/attention?page=1&limit=50', {})).json().results.total).toBe(0);
  });

  it("resolves a failed vote of the campaign, not another campaign's nor a ticket call", async () => {
    const response = await post(`/v1/world/cup/analysis/to/give/attention/${failedId}`, { isResolved: true });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: true, message: 'Resolved', results: { _id: failedId, isResolved: true } });
    expect((await post(`/v1/world/cup/analysis/to/give/attention/${failedId}`, { isResolved: true })).statusCode).toBe(200);
    expect((await post(`/v1/afcon/2024/analysis/to/give/attention/${failedId}`, { isResolved: true })).statusCode).toBe(404);
    expect((await post(`/v1/world/cup/analysis/to/give/attention/${ticketFailedId}`, { isResolved: true })).statusCode).toBe(404);
    const bad = await post(`/v1/world/cup/analysis/to/give/attention/${failedId}`, { isResolved: 'maybe' });
    expect([bad.statusCode, bad.json().errors[0].field]).toEqual([400, 'isResolved']);
    const unresolve = await post(`/v1/world/cup/analysis/to/give/attention/${failedId}`, { isResolved: false });
    expect([unresolve.statusCode, unresolve.json().errors]).toEqual([400, [{ field: 'isResolved', message: 'isResolved must be true' }]]);
    expect((await post('/v1/world/cup/analysis/to/give/attention/not-a-uuid', { isResolved: true })).statusCode).toBe(400);
  });
});
