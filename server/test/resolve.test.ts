import crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { transactions } from '../src/db/schema';
import { createCampaigns, insertVotes, WORLD_CUP } from './campaign-fixtures';
import { buildTestWorld, type TestWorld } from './helpers';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

/**
 * Resolving with a reason and a note, and many at once: stored on the call, on its
 * timeline and in the export; each id of a bulk resolve answered, never telling what lies outside
 * the caller's scope; every bad reason, note or id list a 400 with its field.
 */

jest.setTimeout(30_000);

let world: TestWorld;
let admin: Record<string, string>;
let agent: { user: { id: string; userName: string }; headers: Record<string, string> };
let mine: string;
let theirs: string;

beforeAll(async () => {
  world = await buildTestWorld();
  admin = (await world.headersFor('admin')).headers;
  agent = await world.headersFor('agent');
  mine = (await createCatalogue(world, agent.user.id)).code.name;
  theirs = (await createCatalogue(world, (await world.createUser('agent')).id)).code.name;
  await createCampaigns(world);
});
afterAll(() => world.close());

const post = (url: string, payload: unknown, headers = agent.headers) => world.app.inject({ method: 'POST', url, headers, payload: payload as object });
const resolveOne = (id: string, payload: unknown, headers = agent.headers) => post(`/v1/transactions/to/give/attention/${id}`, payload, headers);
const bulk = (payload: unknown, headers = agent.headers) => post('/v1/transactions/to/give/attention/bulk', payload, headers);

describe('resolving with a reason and a note', () => {
  it('stores them on the call, its timeline and the export; SPEC\'s bare body still resolves', async () => {
    const [withReason, bare] = await insertTransactions(world, mine, [
      { isDeleted: true, createdAt: new Date('2024-04-02T09:00:00Z') },
      { isDeleted: true, createdAt: new Date('2024-04-02T09:01:00Z') },
    ]);
    const response = await resolveOne(withReason.id, { isResolved: true, reason: 'could-not-reach', note: '  Called twice, no answer  ' });
    expect(response.statusCode).toBe(200);
    expect(response.json().results).toMatchObject({ _id: withReason.id, isResolved: true, resolvedReason: 'could-not-reach', resolvedNote: 'Called twice, no answer' });
    expect((await resolveOne(bare.id, { isResolved: true })).json().results).toMatchObject({ isResolved: true, resolvedReason: null, resolvedNote: null });

    // Resolving again keeps the first reason.
    expect((await resolveOne(withReason.id, { isResolved: true, reason: 'duplicate' })).json().results).toMatchObject({ resolvedReason: 'could-not-reach' });

    const timeline = (await world.app.inject({ method: 'GET', url: `/v1/transactions/${withReason.id}/events`, headers: agent.headers })).json().results;
    expect(timeline).toEqual([expect.objectContaining({ kind: 'resolved', actorUserName: agent.user.userName, detail: { reason: 'could-not-reach', note: 'Called twice, no answer' } })]);

    const csv = await world.app.inject({ method: 'GET', url: `/v1/transactions/export?name=${encodeURIComponent(mine)}&date=2024-04-02`, headers: agent.headers });
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0].endsWith(',Resolve reason,Resolve note,Team,Game,Payment reference,SMS status,Failure reason,Refunded')).toBe(true);
    expect(lines[1]).toMatch(new RegExp(`,Yes,${agent.user.userName},[^,]+,,,,,,,,0$`));
    expect(lines[2].endsWith(',Could not reach,"Called twice, no answer",,,,,,0')).toBe(true);
  });

  it.each([
    [{ isResolved: true, reason: 'lost-interest' }, 'reason', 'Invalid reason'],
    [{ isResolved: true, reason: 5 }, 'reason', 'Invalid value'],
    [{ isResolved: true, reason: ['refunded'] }, 'reason', 'Invalid value'],
    [{ isResolved: true, note: 'x'.repeat(501) }, 'note', 'Must be at most 500 characters'],
    [{ isResolved: true, note: 'Called\u0000twice' }, 'note', 'Invalid value'],
    [{ isResolved: true, note: 'Called\u0007twice' }, 'note', 'Invalid value'],
    [{ isResolved: true, note: 'two\nlines' }, 'note', 'Invalid value'],
    [{ isResolved: true, note: { toString: 'x' } }, 'note', 'Invalid value'],
    [{ isResolved: true, note: 12 }, 'note', 'Invalid value'],
    [{ isResolved: true, note: true }, 'note', 'Invalid value'],
  ])('refuses %j with a field error on %s', async (payload, field, message) => {
    const [failed] = await insertTransactions(world, mine, [{ isDeleted: true }]);
    const response = await resolveOne(failed.id, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([{ field, message }]);
    const [row] = await world.db.select().from(transactions).where(eq(transactions.id, failed.id));
    expect(row.isResolved).toBe(false);
  });
});

describe('POST /v1/transactions/to/give/attention/bulk', () => {
  it('answers each id: resolved, already resolved, or refused (not failed, unknown, or outside the caller\'s codes alike)', async () => {
    const [fresh, earlier, paid] = await insertTransactions(world, mine, [{ isDeleted: true }, { isDeleted: true }, { isComplete: true }]);
    const [others] = await insertTransactions(world, theirs, [{ isDeleted: true }]);
    await resolveOne(earlier.id, { isResolved: true, reason: 'refunded' });
    const unknown = crypto.randomUUID();
    const response = await bulk({ ids: [fresh.id, earlier.id, paid.id, others.id, unknown, fresh.id.toUpperCase()], reason: 'reached-helped', note: 'Bulk' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: true,
      message: 'Resolved 1 of 5 transactions',
      results: [
        { _id: fresh.id, outcome: 'resolved' },
        { _id: earlier.id, outcome: 'already-resolved' },
        { _id: paid.id, outcome: 'refused' },
        { _id: others.id, outcome: 'refused' },
        { _id: unknown, outcome: 'refused' },
      ],
    });
    expect(response.body).not.toContain(theirs);
    const rows = await world.db.select().from(transactions).where(eq(transactions.serviceCode, theirs));
    expect(rows.every((row) => !row.isResolved)).toBe(true);
    const [row] = await world.db.select().from(transactions).where(eq(transactions.id, fresh.id));
    expect(row).toMatchObject({ isResolved: true, resolvedById: agent.user.id, resolvedReason: 'reached-helped', resolvedNote: 'Bulk' });
    const [kept] = await world.db.select().from(transactions).where(eq(transactions.id, earlier.id));
    expect(kept.resolvedReason).toBe('refunded');

    // A manager reads every code.
    expect((await bulk({ ids: [others.id] }, admin)).json().results).toEqual([{ _id: others.id, outcome: 'resolved' }]);
  });

  it.each([
    [{}, 'ids', 'Please select the transactions'],
    [{ ids: [] }, 'ids', 'Please select the transactions'],
    [{ ids: 'all' }, 'ids', 'ids must be a list of transaction ids'],
    [{ ids: Array.from({ length: 201 }, () => crypto.randomUUID()) }, 'ids', 'At most 200 transactions at once'],
    [{ ids: ['not-an-id'] }, 'ids[0]', 'Invalid transaction id'],
    [{ ids: [crypto.randomUUID(), { a: 1 }] }, 'ids[1]', 'Invalid value'],
    [{ ids: [crypto.randomUUID()], reason: 'maybe' }, 'reason', 'Invalid reason'],
    [{ ids: [crypto.randomUUID()], note: 'n'.repeat(501) }, 'note', 'Must be at most 500 characters'],
  ])('refuses %j with a field error on %s', async (payload, field, message) => {
    const response = await bulk(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toContainEqual({ field, message });
  });

  it("resolves on the campaign lists within the campaign's code only", async () => {
    const [vote, paidVote] = await insertVotes(world, WORLD_CUP, [
      { phoneNumber: '256770000071', isComplete: false, isDeleted: true },
      { phoneNumber: '256770000072' },
    ]);
    const [ticket] = await insertTransactions(world, mine, [{ isDeleted: true }]);
    const url = '/v1/world/cup/analysis/to/give/attention/bulk';
    const response = await post(url, { ids: [vote.id, paidVote.id, ticket.id], reason: 'duplicate' }, admin);
    expect(response.json().results).toEqual([
      { _id: vote.id, outcome: 'resolved' },
      { _id: paidVote.id, outcome: 'refused' },
      { _id: ticket.id, outcome: 'refused' },
    ]);
    expect((await post(url, { ids: [vote.id] }, admin)).json().results).toEqual([{ _id: vote.id, outcome: 'already-resolved' }]);
    expect((await post(url, { ids: [vote.id] }, agent.headers)).statusCode).toBe(403);
  });
});
