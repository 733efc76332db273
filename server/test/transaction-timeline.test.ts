import type { SmsProvider } from '../src/providers/sms';
import { transactionEventsRepository } from '../src/repositories/transaction-events-repository';
import { AFCON, createCampaigns, insertVotes, WORLD_CUP } from './campaign-fixtures';
import { buildTestWorld, type TestWorld } from './helpers';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

jest.setTimeout(30_000);

let world: TestWorld;
let admin: Record<string, string>;
let agent: { user: { id: string; userName: string }; headers: Record<string, string> };
let mine: string;
let theirs: string;
/** Every ticket SMS the tests' provider was asked to send. */
const sent: { phoneNumber: string; message: string }[] = [];
let smsFails = false;

beforeAll(async () => {
  // The SMS gateway is the one outside system here: a provider that counts what it sends.
  const sms: SmsProvider = {
    name: 'counting',
    async send(message) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      sent.push(message);
      return smsFails ? { status: 'failed', providerRef: null, failureReason: 'gateway down' } : { status: 'sent', providerRef: `ref-${sent.length}` };
    },
  };
  world = await buildTestWorld({ providers: { sms } });
  admin = (await world.headersFor('admin')).headers;
  agent = await world.headersFor('agent');
  mine = (await createCatalogue(world, agent.user.id)).code.name;
  theirs = (await createCatalogue(world, (await world.createUser('agent')).id)).code.name;
  await createCampaigns(world);
});
afterAll(() => world.close());

const eventsOf = (id: string, headers: Record<string, string>) => world.app.inject({ method: 'GET', url: `/v1/transactions/${id}/events`, headers });
const resend = (id: string, headers: Record<string, string>) => world.app.inject({ method: 'POST', url: `/v1/transactions/${id}/resend-ticket`, headers });
/** A paid call whose ticket SMS failed: the one 'Resend ticket' is for. */
const failedTicket = async (code = mine) =>
  (await insertTransactions(world, code, [{ isComplete: true, messageStatuses: 'Failed', ticketMessage: 'Your ticket: 7788', callbackTime: new Date() }]))[0];

describe('GET /v1/transactions/{id}/events', () => {
  it("answers the call's events oldest first, with the session's hops from before the call existed", async () => {
    const events = transactionEventsRepository(world.db);
    const hop = (text: string, reply: string) => ({ kind: 'ussd_hop' as const, actor: 'customer', sessionId: 'timeline-1', detail: { input: text, reply }, dedupeKey: `hop:timeline-1:${text}` });
    await events.record(hop('', 'CON Choose a level'));
    await events.record(hop('1', 'CON Pay UGX 6,000 for VIP? 1. Confirm 2. Cancel'));
    const [call] = await insertTransactions(world, mine, [{ sessionId: 'timeline-1', paymentRef: 'pay-timeline-1' }]);
    await events.record(hop('1*1', 'END Approve the payment on your phone'));
    await events.record({ kind: 'payment_requested', actor: 'system', transactionId: call.id, detail: { amount: 6000, provider: 'local' } });
    await events.record({ kind: 'payment_callback', actor: 'provider:local', transactionId: call.id, detail: { status: 'SUCCESSFUL' } });

    const response = await eventsOf(call.id, admin);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ status: true, message: 'Transaction events' });
    expect(body.results.map((e: { kind: string; detail: { input?: string } }) => [e.kind, e.detail.input ?? null])).toEqual([
      ['ussd_hop', ''],
      ['ussd_hop', '1'],
      ['ussd_hop', '1*1'],
      ['payment_requested', null],
      ['payment_callback', null],
    ]);
    expect(body.results[0]).toMatchObject({ actor: 'customer', detail: { reply: 'CON Choose a level' } });
    expect(body.results[3]).toMatchObject({ actor: 'system', detail: { amount: 6000, provider: 'local' } });
  });

  it('answers an empty timeline for a call with no events', async () => {
    const [call] = await insertTransactions(world, mine, [{}]);
    expect((await eventsOf(call.id, agent.headers)).json().results).toEqual([]);
  });

  it("is 404 for an agent on another agent's call, as for an unknown id, and 400 for a bad id", async () => {
    const [theirCall] = await insertTransactions(world, theirs, [{}]);
    const other = await eventsOf(theirCall.id, agent.headers);
    const unknown = await eventsOf('00000000-0000-4000-8000-000000000000', agent.headers);
    expect([other.statusCode, unknown.statusCode]).toEqual([404, 404]);
    expect(other.json().message).toBe(unknown.json().message);
    const bad = await eventsOf('not-a-uuid', admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([expect.objectContaining({ field: 'id' })]);
    expect((await world.app.inject({ method: 'GET', url: `/v1/transactions/${theirCall.id}/events` })).statusCode).toBe(401);
  });

  it('lets the Afcon-only account read AFCON calls only', async () => {
    const { headers } = await world.headersFor('agent', { isAfcon: true });
    const [afconVote] = await insertVotes(world, AFCON, [{ phoneNumber: '256770000002' }]);
    const [worldCupVote] = await insertVotes(world, WORLD_CUP, [{ phoneNumber: '256770000002' }]);
    const [regular] = await insertTransactions(world, mine, [{}]);
    expect((await eventsOf(afconVote.id, headers)).statusCode).toBe(200);
    expect((await eventsOf(worldCupVote.id, headers)).statusCode).toBe(404);
    expect((await eventsOf(regular.id, headers)).statusCode).toBe(404);
    expect((await eventsOf(worldCupVote.id, admin)).statusCode).toBe(200);
  });
});

describe('POST /v1/transactions/{id}/resend-ticket', () => {
  it('sends the ticket once more, records it, and answers the updated call', async () => {
    const call = await failedTicket();
    const before = sent.length;
    const response = await resend(call.id, agent.headers);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: true, message: 'Ticket sent', results: { _id: call.id, messageStatuses: 'Sent' } });
    expect(sent.slice(before)).toEqual([{ phoneNumber: call.phoneNumber, message: 'Your ticket: 7788' }]);
    const timeline = (await eventsOf(call.id, admin)).json().results;
    expect(timeline).toEqual([expect.objectContaining({ kind: 'ticket_resent', actor: 'user', actorUserName: agent.user.userName, detail: expect.objectContaining({ status: 'Sent' }) })]);
    // Sent now: a second resend is refused.
    expect((await resend(call.id, agent.headers)).statusCode).toBe(409);
  });

  it('sends one SMS for two concurrent clicks', async () => {
    const call = await failedTicket();
    const before = sent.length;
    const answers = await Promise.all([resend(call.id, admin), resend(call.id, admin)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(sent.length - before).toBe(1);
    const kinds = (await eventsOf(call.id, admin)).json().results.map((e: { kind: string }) => e.kind);
    expect(kinds).toEqual(['ticket_resent']);
  });

  it('is 409 with a clear message unless the call is paid, has a ticket and its SMS failed', async () => {
    const [pending, failedCall, delivered, noTicket] = await insertTransactions(world, mine, [
      { messageStatuses: 'Failed', ticketMessage: 'Your ticket' },
      { isDeleted: true, messageStatuses: 'Failed', ticketMessage: 'Your ticket' },
      { isComplete: true, messageStatuses: 'Delivered', ticketMessage: 'Your ticket' },
      { isComplete: true, messageStatuses: 'Failed', ticketMessage: '' },
    ]);
    const before = sent.length;
    for (const call of [pending, failedCall, delivered, noTicket]) {
      const response = await resend(call.id, admin);
      expect([call.id, response.statusCode, response.json().message]).toEqual([call.id, 409, 'Only a paid call whose ticket SMS failed can be sent its ticket again']);
    }
    expect(sent.length).toBe(before);
  });

  it('keeps the call Failed and says so when the SMS fails again, so it can be resent later', async () => {
    const call = await failedTicket();
    smsFails = true;
    const response = await resend(call.id, admin).finally(() => (smsFails = false));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ message: 'The ticket SMS could not be sent; please try again later', results: { messageStatuses: 'Failed' } });
    expect((await resend(call.id, admin)).json().message).toBe('Ticket sent');
  });

  it('is allowed to admin, super-user, customer care and the owning agent only', async () => {
    const expected: [string, Record<string, string> | undefined, number][] = [
      ['admin', admin, 200],
      ['super-user', (await world.headersFor('super-user')).headers, 200],
      ['owning agent', agent.headers, 200],
      ['another agent', (await world.headersFor('agent')).headers, 404],
      ['customer care', (await world.headersFor('customer-care')).headers, 200],
      ['Afcon-only', (await world.headersFor('agent', { isAfcon: true })).headers, 403],
      ['signed out', undefined, 401],
    ];
    for (const [who, headers, status] of expected) {
      const call = await failedTicket();
      const response = await world.app.inject({ method: 'POST', url: `/v1/transactions/${call.id}/resend-ticket`, headers });
      expect([who, response.statusCode]).toEqual([who, status]);
    }
  });
});

describe('resolving a failed call', () => {
  it("records one 'resolved' event by the person who resolved it, on the regular and the campaign route", async () => {
    const [call] = await insertTransactions(world, mine, [{ isDeleted: true }]);
    const url = `/v1/transactions/to/give/attention/${call.id}`;
    expect((await world.app.inject({ method: 'POST', url, headers: agent.headers, payload: { isResolved: true } })).statusCode).toBe(200);
    expect((await world.app.inject({ method: 'POST', url, headers: admin, payload: { isResolved: true } })).statusCode).toBe(200);
    const timeline = (await eventsOf(call.id, admin)).json().results;
    expect(timeline).toEqual([expect.objectContaining({ kind: 'resolved', actor: 'user', actorUserName: agent.user.userName })]);

    const { headers, user } = await world.headersFor('agent', { isAfcon: true });
    const [vote] = await insertVotes(world, AFCON, [{ phoneNumber: '256770000003', isComplete: false, isDeleted: true }]);
    const campaignUrl = `/v1/afcon/2024/analysis/to/give/attention/${vote.id}`;
    expect((await world.app.inject({ method: 'POST', url: campaignUrl, headers, payload: { isResolved: true } })).statusCode).toBe(200);
    expect((await eventsOf(vote.id, headers)).json().results).toEqual([expect.objectContaining({ kind: 'resolved', actorUserName: user.userName })]);
  });
});

describe('OpenAPI', () => {
  it('documents both routes with their id parameter', async () => {
    const { paths } = (await world.app.inject({ method: 'GET', url: '/docs/json' })).json();
    for (const [path, method] of [
      ['/v1/transactions/{id}/events', 'get'],
      ['/v1/transactions/{id}/resend-ticket', 'post'],
    ]) {
      const operation = paths[path][method];
      expect(operation).toMatchObject({ tags: ['transactions'], summary: expect.any(String) });
      expect(operation.parameters).toEqual([expect.objectContaining({ in: 'path', name: 'id', schema: expect.objectContaining({ format: 'uuid' }) })]);
    }
  });
});
