import { sql } from 'drizzle-orm';
import { auditEntries } from './audit-fixtures';
import { createCampaigns, insertVotes, WORLD_CUP } from './campaign-fixtures';
import { buildTestWorld, TEST_PASSWORD, type TestWorld } from './helpers';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

/**
 * Staff acting on calls and on personal data leave audit entries: resolves (one, many, on a
 * campaign's list), a ticket sent again, exports of phone numbers (which filter, how many rows),
 * sign-ins and failed ones. A sale is no staff action: the money path writes none.
 */

jest.setTimeout(60_000);

let world: TestWorld;
let admin: { user: { id: string; userName: string }; headers: Record<string, string> };
let agent: { user: { id: string; userName: string }; headers: Record<string, string> };
let code: string;

beforeAll(async () => {
  world = await buildTestWorld();
  admin = await world.headersFor('admin');
  agent = await world.headersFor('agent');
  code = (await createCatalogue(world, agent.user.id)).code.name;
  await createCampaigns(world);
});
afterAll(() => world.close());

const post = (url: string, payload: object, headers = agent.headers) => world.app.inject({ method: 'POST', url, headers, payload });
const entries = (query: Record<string, string>) => auditEntries(world, admin.headers, query);
const auditCount = async () => ((await world.db.execute(sql`select count(*)::int as n from audit_log`)) as unknown as { rows: { n: number }[] }).rows[0].n;

describe('resolves', () => {
  it('records a resolve with its reason in words and its note, once', async () => {
    const [call] = await insertTransactions(world, code, [{ isDeleted: true, phoneNumber: '256772000111' }]);
    expect((await post(`/v1/transactions/to/give/attention/${call.id}`, { isResolved: true, reason: 'refunded', note: 'Sent back by MoMo' })).statusCode).toBe(200);
    // Resolving again changes nothing and records nothing.
    await post(`/v1/transactions/to/give/attention/${call.id}`, { isResolved: true, reason: 'duplicate' });
    expect(await entries({ entityType: 'transaction', entityId: call.id })).toEqual([
      expect.objectContaining({
        action: 'transaction.resolve',
        actor: { _id: agent.user.id, userName: agent.user.userName, role: 'agent' },
        entity: { type: 'transaction', id: call.id, label: `Transaction 256772000111 on ${code}` },
        serviceCode: code,
        reason: 'Refunded',
        changes: [
          { field: 'isResolved', before: false, after: true },
          { field: 'resolvedReason', before: null, after: 'refunded' },
          { field: 'resolvedNote', before: null, after: 'Sent back by MoMo' },
        ],
      }),
    ]);
  });

  it('records one entry per call a bulk resolve resolved, and none for the refused', async () => {
    const [a, b, paid] = await insertTransactions(world, code, [{ isDeleted: true }, { isDeleted: true }, { isComplete: true }]);
    const response = await post('/v1/transactions/to/give/attention/bulk', { ids: [a.id, b.id, paid.id], reason: 'could-not-reach' });
    expect(response.json().message).toBe('Resolved 2 of 3 transactions');
    for (const call of [a, b]) expect(await entries({ entityId: call.id })).toEqual([expect.objectContaining({ action: 'transaction.resolve', reason: 'Could not reach' })]);
    expect(await entries({ entityId: paid.id })).toEqual([]);
  });

  it("records resolves on a campaign's list, one and many", async () => {
    const [one, many] = await insertVotes(world, WORLD_CUP, [
      { phoneNumber: '256772000222', isComplete: false, isDeleted: true },
      { phoneNumber: '256772000333', isComplete: false, isDeleted: true },
    ]);
    expect((await post(`/v1/world/cup/analysis/to/give/attention/${one.id}`, { isResolved: true }, admin.headers)).statusCode).toBe(200);
    expect((await post('/v1/world/cup/analysis/to/give/attention/bulk', { ids: [many.id], note: 'Voted twice' }, admin.headers)).statusCode).toBe(200);
    expect(await entries({ entityId: one.id })).toEqual([expect.objectContaining({ action: 'transaction.resolve', serviceCode: WORLD_CUP.code, reason: null })]);
    const [bulk] = await entries({ entityId: many.id });
    expect(bulk.changes).toContainEqual({ field: 'resolvedNote', before: null, after: 'Voted twice' });
  });
});

describe('resend ticket', () => {
  it('records who sent a failed ticket again', async () => {
    const [call] = await insertTransactions(world, code, [{ isComplete: true, messageStatuses: 'Failed', ticketMessage: 'Your ticket: 7788', phoneNumber: '256772000444' }]);
    expect((await post(`/v1/transactions/${call.id}/resend-ticket`, {})).statusCode).toBe(200);
    expect((await post(`/v1/transactions/${call.id}/resend-ticket`, {})).statusCode).toBe(409);
    expect(await entries({ entityId: call.id })).toEqual([
      expect.objectContaining({
        action: 'transaction.resend-ticket',
        actor: expect.objectContaining({ _id: agent.user.id }),
        serviceCode: code,
        changes: [{ field: 'ticketSms', before: 'Failed', after: 'Resending' }],
      }),
    ]);
  });
});

describe('exports of phone numbers', () => {
  it('records a transactions export with its filter and how many rows it holds', async () => {
    await insertTransactions(world, code, [
      { isDeleted: true, createdAt: new Date('2024-05-02T09:00:00Z') },
      { isDeleted: true, createdAt: new Date('2024-05-02T10:00:00Z') },
      { isComplete: true, createdAt: new Date('2024-05-02T11:00:00Z') },
    ]);
    const csv = await world.app.inject({ method: 'GET', url: `/v1/transactions/export?name=${encodeURIComponent(code)}&date=2024-05-02&status=failed`, headers: agent.headers });
    expect(csv.body.trimEnd().split('\r\n')).toHaveLength(3);
    const [entry] = await entries({ action: 'export.transactions', actor: agent.user.id });
    expect(entry).toMatchObject({
      entity: { type: 'export', id: null, label: `Export transactions-${code}-2024-05-02-failed.csv` },
      serviceCode: code,
      changes: [
        { field: 'filter.serviceCode', before: null, after: code },
        { field: 'filter.date', before: null, after: '2024-05-02' },
        { field: 'filter.status', before: null, after: 'failed' },
        { field: 'rows', before: null, after: 2 },
      ],
    });
  });

  it('records a ranking export with its round and how many voters it ranks', async () => {
    await insertVotes(world, WORLD_CUP, [{ phoneNumber: '256772000555' }, { phoneNumber: '256772000666' }, { phoneNumber: '256772000555' }]);
    const csv = await world.app.inject({ method: 'GET', url: `/v1/campaigns/${WORLD_CUP.key}/ranking/export`, headers: admin.headers });
    expect(csv.statusCode).toBe(200);
    const [entry] = await entries({ action: 'export.ranking' });
    expect(entry).toMatchObject({
      actor: { _id: admin.user.id },
      serviceCode: WORLD_CUP.code,
      changes: [
        { field: 'filter.campaign', before: null, after: WORLD_CUP.key },
        { field: 'filter.round', before: null, after: 'all' },
        { field: 'rows', before: null, after: csv.body.trimEnd().split('\n').length - 1 },
      ],
    });
  });
});

describe('sign-ins', () => {
  it('records a sign-in with its session, and failed ones with only the name tried', async () => {
    const user = await world.createUser('agent');
    const signIn = (userName: string, password: string) => world.app.inject({ method: 'POST', url: '/v1/auth/login', payload: { userName, password }, headers: { 'x-forwarded-for': '203.0.113.5' } });
    expect((await signIn(user.userName, 'wrong-password-1')).statusCode).toBe(401);
    expect((await signIn('nobody-by-this-name', 'wrong-password-2')).statusCode).toBe(401);
    expect((await signIn(user.userName, TEST_PASSWORD)).statusCode).toBe(200);

    const [signedIn, wrongPassword] = await entries({ actor: user.userName });
    expect(signedIn).toMatchObject({ action: 'session.sign-in', actor: { _id: user.id, userName: user.userName, role: 'agent' }, ip: '127.0.0.1', entity: { type: 'session', id: expect.any(String) } });
    expect(wrongPassword).toMatchObject({ action: 'session.sign-in-failed', actor: { _id: null, userName: user.userName, role: null }, entity: { type: 'session', id: null, label: `Sign-in as ${user.userName}` }, changes: [] });
    expect(await entries({ actor: 'nobody-by-this-name' })).toEqual([expect.objectContaining({ action: 'session.sign-in-failed' })]);
    const text = JSON.stringify(await entries({ action: 'session.sign-in-failed' }));
    expect(text).not.toMatch(/wrong-password/);
  });
});

describe('the money path', () => {
  it('writes no audit entry for a USSD hop or a payment callback', async () => {
    const [pending] = await insertTransactions(world, code, [{ paymentRef: 'audit-free-ref', sessionId: 'audit-free' }]);
    const before = await auditCount();
    expect((await world.hop({ sessionId: 'audit-free-2', serviceCode: code, phoneNumber: '256772000777', text: '' })).statusCode).toBe(200);
    expect((await world.pay('audit-free-ref', 'SUCCESSFUL')).statusCode).toBe(200);
    expect((await world.db.execute(sql`select is_complete from transactions where id = ${pending.id}`)) as unknown as { rows: { is_complete: boolean }[] }).toMatchObject({ rows: [{ is_complete: true }] });
    expect(await auditCount()).toBe(before);
  });
});
