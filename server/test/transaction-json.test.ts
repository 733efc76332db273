import type { Transaction } from '../../src/domain/entities';
import { TRANSACTION_JSON, transactionReads } from '../src/repositories/transaction-reads';
import { createCampaigns, insertVotes, WORLD_CUP } from './campaign-fixtures';
import { buildTestWorld, type TestWorld } from './helpers';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

jest.setTimeout(30_000);

/** Every field of `Transaction`, once: a field added to or dropped from the type breaks this line's type check. */
const TRANSACTION_FIELDS: Record<keyof Transaction, true> = {
  _id: true,
  name: true,
  shortCode: true,
  phoneNumber: true,
  network: true,
  createdAt: true,
  callbackTime: true,
  isComplete: true,
  isDeleted: true,
  isResolved: true,
  categoryLevel: true,
  category: true,
  amount: true,
  campaignKey: true,
  round: true,
  teamName: true,
  teamName2: true,
  messageStatuses: true,
  ticket: true,
  paymentRef: true,
  resolvedBy: true,
  resolvedAt: true,
  resolvedReason: true,
  resolvedNote: true,
  failureReason: true,
  refundedAmount: true,
};
const expected = Object.keys(TRANSACTION_FIELDS).sort();

let world: TestWorld;
let id: string;
let code: string;

beforeAll(async () => {
  world = await buildTestWorld();
  const catalogue = await createCatalogue(world, null);
  code = catalogue.code.name;
  const [row] = await insertTransactions(world, code, [
    { createdAt: new Date('2024-03-10T10:00:00Z'), isComplete: true, categoryId: catalogue.category.id, categoryLevel: 'vip', ticketMessage: 'Seat 4', amount: 20000 },
  ]);
  id = row.id;
});
afterAll(() => world.close());

describe('the JSON the transaction reads build', () => {
  it('has exactly the fields of the Transaction type', async () => {
    expect(Object.keys(TRANSACTION_JSON).sort()).toEqual(expected);
    const reads = transactionReads(world.db);
    const row = await reads.findRow(id);
    expect(Object.keys(row ?? {}).sort()).toEqual(expected);
    const { docsJson } = await reads.pageJson({ codes: [code] }, 0, 10);
    const docs = JSON.parse(docsJson) as Transaction[];
    expect(docs.map((doc) => Object.keys(doc).sort())).toEqual([expected]);
  });

  it('fills them as the lists show a call', async () => {
    const row = await transactionReads(world.db).findRow(id);
    expect(row).toEqual({
      _id: id,
      name: code,
      shortCode: { name: code },
      phoneNumber: '256770000001',
      network: 'MTN',
      createdAt: '2024-03-10T10:00:00.000Z',
      callbackTime: null,
      isComplete: true,
      isDeleted: false,
      isResolved: false,
      categoryLevel: 'vip',
      category: { _id: expect.any(String), name: expect.stringMatching(/^Category /) },
      amount: 20000,
      campaignKey: null,
      round: null,
      teamName: null,
      teamName2: null,
      messageStatuses: null,
      ticket: { message: 'Seat 4' },
      paymentRef: null,
      resolvedBy: null,
      resolvedAt: null,
      resolvedReason: null,
      resolvedNote: null,
      failureReason: null,
      refundedAmount: 0,
    });
  });
});

describe('who resolved a failed call', () => {
  it('names the resolver and the time once the call is resolved', async () => {
    const [failed] = await insertTransactions(world, code, [{ createdAt: new Date('2024-03-10T11:00:00Z'), isDeleted: true }]);
    const { user, headers } = await world.headersFor('admin');
    const response = await world.app.inject({ method: 'POST', url: `/v1/transactions/to/give/attention/${failed.id}`, headers, payload: { isResolved: true } });
    expect(response.statusCode).toBe(200);
    const row = await transactionReads(world.db).findRow(failed.id);
    expect(row?.resolvedBy).toEqual({ _id: user.id, userName: user.userName });
    expect(Date.parse(row?.resolvedAt ?? '')).toBeGreaterThan(Date.parse('2024-03-10T11:00:00Z'));
    expect(response.json().results.resolvedBy).toEqual({ _id: user.id, userName: user.userName });
  });
});

describe('a campaign vote', () => {
  it('names its campaign, round, pick and game, in the general search as in the campaign lists', async () => {
    await createCampaigns(world);
    const phoneNumber = '256772000111';
    await insertVotes(world, WORLD_CUP, [{ phoneNumber, createdAt: new Date('2022-12-03T15:00:00Z'), round: 'week2', teamName: 'Croatia', teamName2: 'Australia' }]);
    const { headers } = await world.headersFor('admin');
    const vote = { campaignKey: WORLD_CUP.key, round: 'week2', teamName: 'Croatia', teamName2: 'Australia', category: null, name: WORLD_CUP.code };
    const search = await world.app.inject({ method: 'POST', url: '/v1/transactions/search?page=1&limit=50', headers, payload: { phoneNumber } });
    expect(search.statusCode).toBe(200);
    expect(search.json().results.docs).toEqual([expect.objectContaining(vote)]);
    const list = await world.app.inject({ method: 'POST', url: '/v1/world/cup/analysis/all?page=1&limit=50', headers, payload: { name: WORLD_CUP.code, date: '2022-12-03' } });
    expect(list.json().results.docs).toEqual([expect.objectContaining(vote)]);
  });
});
