import { eq, sql } from 'drizzle-orm';
import { transactions } from '../src/db/schema';
import { auditEntries } from './audit-fixtures';
import { buildTestWorld, type TestWorld } from './helpers';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

/**
 * Undoing a resolve: only its resolver, only within 60 s of it (by the database's clock, which
 * the test moves back instead of waiting), audited and shown on the call's timeline; the call can
 * then be resolved again, by anyone.
 */

jest.setTimeout(30_000);

let world: TestWorld;
let admin: { user: { id: string; userName: string }; headers: Record<string, string> };
let agent: { user: { id: string; userName: string }; headers: Record<string, string> };
let other: { user: { id: string; userName: string }; headers: Record<string, string> };
let code: string;

beforeAll(async () => {
  world = await buildTestWorld();
  admin = await world.headersFor('admin');
  agent = await world.headersFor('agent');
  other = await world.headersFor('super-user');
  code = (await createCatalogue(world, agent.user.id)).code.name;
});
afterAll(() => world.close());

const post = (url: string, headers: Record<string, string>, payload?: object) => world.app.inject({ method: 'POST', url, headers, ...(payload ? { payload } : {}) });
const resolve = (id: string, headers = agent.headers, payload: object = { isResolved: true }) => post(`/v1/transactions/to/give/attention/${id}`, headers, payload);
const undo = (id: string, headers = agent.headers) => post(`/v1/transactions/to/give/attention/${id}/undo`, headers);
const failedCall = async (phoneNumber = '256772000301') => (await insertTransactions(world, code, [{ isDeleted: true, phoneNumber, paymentRef: crypto.randomUUID(), amount: 10000 }]))[0];
const stored = async (id: string) => (await world.db.select().from(transactions).where(eq(transactions.id, id)))[0];

describe('POST /v1/transactions/to/give/attention/{id}/undo', () => {
  it('restores the call to unresolved for its resolver within 60 s, audited and on its timeline', async () => {
    const call = await failedCall();
    expect((await resolve(call.id, agent.headers, { isResolved: true, reason: 'could-not-reach', note: 'No answer' })).statusCode).toBe(200);

    const response = await undo(call.id);
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe('Resolve undone');
    expect(response.json().results).toMatchObject({ _id: call.id, isResolved: false, resolvedBy: null, resolvedAt: null, resolvedReason: null, resolvedNote: null });
    expect(await stored(call.id)).toMatchObject({ isResolved: false, resolvedById: null, resolvedAt: null, resolvedReason: null, resolvedNote: null });

    // Back in the unresolved queue.
    const queue = await world.app.inject({ method: 'GET', url: `/v1/transactions/to/give/attention?name=${encodeURIComponent(code)}&limit=100`, headers: agent.headers });
    expect(queue.json().results.docs.find((row: { _id: string }) => row._id === call.id)).toMatchObject({ isResolved: false });

    const [entry] = await auditEntries(world, admin.headers, { entityId: call.id });
    expect(entry).toMatchObject({
      action: 'transaction.resolve-undo',
      actor: { _id: agent.user.id, userName: agent.user.userName, role: 'agent' },
      entity: { type: 'transaction', id: call.id },
      serviceCode: code,
      reason: 'Could not reach',
      changes: [
        { field: 'isResolved', before: true, after: false },
        { field: 'resolvedReason', before: 'could-not-reach', after: null },
        { field: 'resolvedNote', before: 'No answer', after: null },
      ],
    });

    const timeline = (await world.app.inject({ method: 'GET', url: `/v1/transactions/${call.id}/events`, headers: agent.headers })).json().results;
    expect(timeline.map((event: { kind: string }) => event.kind)).toEqual(['resolved', 'resolve_undone']);
    expect(timeline[1]).toMatchObject({ actorUserName: agent.user.userName, detail: { reason: 'could-not-reach', note: 'No answer' } });
  });

  it('lets the call be resolved again, by anyone, and recorded again', async () => {
    const call = await failedCall();
    await resolve(call.id);
    expect((await undo(call.id)).statusCode).toBe(200);
    const again = await resolve(call.id, other.headers, { isResolved: true, reason: 'duplicate' });
    expect(again.json().results).toMatchObject({ isResolved: true, resolvedBy: { userName: other.user.userName }, resolvedReason: 'duplicate' });
    const timeline = (await world.app.inject({ method: 'GET', url: `/v1/transactions/${call.id}/events`, headers: admin.headers })).json().results;
    expect(timeline.map((event: { kind: string }) => event.kind)).toEqual(['resolved', 'resolve_undone', 'resolved']);
  });

  it('refuses another user with 403, leaving the resolve and writing no audit entry', async () => {
    const call = await failedCall();
    await resolve(call.id);
    const response = await undo(call.id, other.headers);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe('Only the person who resolved this call can undo it');
    expect(await stored(call.id)).toMatchObject({ isResolved: true, resolvedById: agent.user.id });
    expect((await auditEntries(world, admin.headers, { entityId: call.id })).map((entry) => entry.action)).toEqual(['transaction.resolve']);
  });

  it('refuses after 60 s with 409 and says why', async () => {
    const call = await failedCall();
    await resolve(call.id);
    // Just inside the window, then just past it: the database's clock is the one that stamped the resolve.
    await world.db.execute(sql`update transactions set resolved_at = now() - interval '61 seconds' where id = ${call.id}::uuid`);
    const late = await undo(call.id);
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('A resolve can be undone only within 60 seconds');
    expect(await stored(call.id)).toMatchObject({ isResolved: true });

    const inTime = await failedCall();
    await resolve(inTime.id);
    await world.db.execute(sql`update transactions set resolved_at = now() - interval '55 seconds' where id = ${inTime.id}::uuid`);
    expect((await undo(inTime.id)).statusCode).toBe(200);
  });

  it('answers 409 for a call that is not resolved, and 404 for one outside the caller’s scope or unknown', async () => {
    const call = await failedCall();
    const response = await undo(call.id);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe('This call is not resolved');

    const elsewhere = (await createCatalogue(world, (await world.createUser('agent')).id)).code.name;
    const [theirs] = await insertTransactions(world, elsewhere, [{ isDeleted: true }]);
    await resolve(theirs.id, admin.headers);
    expect((await undo(theirs.id)).statusCode).toBe(404);
    expect((await undo(crypto.randomUUID())).statusCode).toBe(404);
    expect((await undo('not-a-uuid')).statusCode).toBe(400);
  });

  it('undoes once when asked twice at the same time', async () => {
    const call = await failedCall();
    await resolve(call.id);
    const answers = await Promise.all([undo(call.id), undo(call.id)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const actions = (await auditEntries(world, admin.headers, { entityId: call.id })).map((entry) => entry.action);
    expect(actions).toEqual(['transaction.resolve-undo', 'transaction.resolve']);
  });
});
