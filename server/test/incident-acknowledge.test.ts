import type { FeedDelivery } from '../src/live/change-feed';
import { incidents } from '../src/db/schema';
import { auditEntries } from './audit-fixtures';
import { buildTestWorld, eventually, type TestWorld } from './helpers';
import { createCatalogue, insertTransactions } from './transactions-fixtures';

/**
 * Acknowledging an incident: once, by whoever reads it (an agent only those of its own codes),
 * naming who, when and the note on the list and the live stream, in the audit trail.
 */

jest.setTimeout(60_000);

type Headers = Record<string, string>;
let world: TestWorld;
let code: string;
let agent: { user: { id: string; userName: string }; headers: Headers };
let otherAgent: Headers;
let admin: { user: { id: string; userName: string }; headers: Headers };
let customerCare: { user: { id: string; userName: string }; headers: Headers };
let superUser: Headers;
let afcon: Headers;
const heard: FeedDelivery[] = [];
let opened = 0;

beforeAll(async () => {
  world = await buildTestWorld({ live: { batchMs: 5 } });
  agent = await world.headersFor('agent');
  otherAgent = (await world.headersFor('agent')).headers;
  admin = await world.headersFor('admin');
  customerCare = await world.headersFor('customer-care');
  superUser = (await world.headersFor('super-user')).headers;
  afcon = (await world.headersFor('agent', { isAfcon: true })).headers;
  code = (await createCatalogue(world, agent.user.id)).code.name;
  world.app.live.feed.subscribe((delivery) => heard.push(delivery));
});
afterAll(() => world.close());

/** An open incident of `serviceCode` (null: the whole service); each of its own kind and instant, so none collide. */
async function openIncident(serviceCode: string | null, kind = 'failure-rate'): Promise<string> {
  opened += 1;
  const [row] = await world.db
    .insert(incidents)
    .values({ serviceCode, kind, openedAt: new Date(Date.UTC(2026, 0, 1, 10, opened)), closedAt: serviceCode ? new Date(Date.UTC(2026, 0, 1, 11, opened)) : null, figures: { windowMinutes: 10, settled: 20, failed: 9 } })
    .returning();
  return row.id;
}

const acknowledge = (id: string, headers: Headers, payload: unknown = { note: 'Calling MoMo now' }) =>
  world.app.inject({ method: 'POST', url: `/v1/incidents/${id}/acknowledge`, headers, payload: payload as object });

it('names who acknowledged it, when and the note, on the answer, the list and the live stream; audited', async () => {
  const id = await openIncident(code);
  const before = Date.now();
  const response = await acknowledge(id, admin.headers);
  expect(response.statusCode).toBe(200);
  const incident = response.json().results;
  expect(incident).toMatchObject({ _id: id, acknowledgedBy: admin.user.userName, note: 'Calling MoMo now' });
  expect(Date.parse(incident.acknowledgedAt)).toBeGreaterThanOrEqual(before - 1000);

  const listed = (await world.app.inject({ method: 'GET', url: '/v1/incidents?page=1&limit=100', headers: admin.headers })).json().results.docs;
  expect(listed.find((each: { _id: string }) => each._id === id)).toMatchObject({ acknowledgedBy: admin.user.userName, acknowledgedAt: incident.acknowledgedAt, note: 'Calling MoMo now' });

  await eventually(() => heard.some((delivery) => delivery.kind === 'change' && delivery.incidents.some((each) => each._id === id)));
  const live = heard.flatMap((delivery) => (delivery.kind === 'change' ? delivery.incidents : [])).find((each) => each._id === id);
  expect(live).toEqual({ _id: id, serviceCode: code, kind: 'failure-rate', state: 'closed', acknowledgedBy: admin.user.userName, acknowledgedAt: incident.acknowledgedAt, note: 'Calling MoMo now' });

  const [entry] = await auditEntries(world, admin.headers, { action: 'incident.acknowledge', entityId: id });
  expect(entry).toMatchObject({ actor: { _id: admin.user.id, userName: admin.user.userName, role: 'admin' }, entity: { type: 'incident', id }, serviceCode: code });
  expect(entry.changes).toEqual(expect.arrayContaining([{ field: 'acknowledged', before: false, after: true }, { field: 'note', before: null, after: 'Calling MoMo now' }]));
});

it('refuses a second acknowledgement with 409, keeping the first and recording nothing more', async () => {
  const id = await openIncident(code);
  expect((await acknowledge(id, customerCare.headers, { note: 'On it' })).statusCode).toBe(200);
  const again = await acknowledge(id, admin.headers, { note: 'Me too' });
  expect(again.statusCode).toBe(409);
  expect(again.json().message).toContain(customerCare.user.userName);
  const listed = (await world.app.inject({ method: 'GET', url: '/v1/incidents?page=1&limit=100', headers: admin.headers })).json().results.docs;
  expect(listed.find((each: { _id: string }) => each._id === id)).toMatchObject({ acknowledgedBy: customerCare.user.userName, note: 'On it' });
  expect(await auditEntries(world, admin.headers, { action: 'incident.acknowledge', entityId: id })).toHaveLength(1);
});

it('takes no note, an empty one, or a blank one as none', async () => {
  for (const payload of [{}, { note: '' }, { note: '   ' }]) {
    const id = await openIncident(code);
    const response = await acknowledge(id, superUser, payload);
    expect(response.statusCode).toBe(200);
    expect(response.json().results.note).toBeNull();
  }
});

it('refuses a bad note with field errors, never echoing it', async () => {
  const id = await openIncident(code);
  for (const note of ['x'.repeat(501), 'nul\u0000here', 'turned \u202Earound']) {
    const response = await acknowledge(id, admin.headers, { note });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([expect.objectContaining({ field: 'note' })]);
    if (typeof note === 'string') expect(response.body).not.toContain(note.slice(0, 20));
  }
  expect((await acknowledge('00000000-0000-4000-8000-000000000000', admin.headers)).statusCode).toBe(404);
  expect((await acknowledge('not-an-id', admin.headers)).statusCode).toBe(400);
});

describe('who may acknowledge', () => {
  it('lets admins, super-users, customer care and the agent of the code; not another agent, the Afcon-only account, nor anonymous', async () => {
    const cases: [string, Headers, number][] = [
      ['anonymous', {}, 401],
      ['another agent', otherAgent, 404],
      ['afcon-only', afcon, 403],
      ['agent of the code', agent.headers, 200],
      ['customer care', customerCare.headers, 200],
      ['admin', admin.headers, 200],
      ['super-user', superUser, 200],
    ];
    for (const [who, headers, status] of cases) {
      const id = await openIncident(code);
      expect([who, (await acknowledge(id, headers)).statusCode]).toEqual([who, status]);
    }
  });

  it("keeps the whole service's incidents to those who read them: an agent is answered 404", async () => {
    const id = await openIncident(null, 'provider-silence');
    expect((await acknowledge(id, agent.headers)).statusCode).toBe(404);
    expect((await acknowledge(id, customerCare.headers)).statusCode).toBe(200);
  });
});

describe("the Failed list within an incident's window (since, until)", () => {
  const failedIn = (query: string, headers: Headers = admin.headers) => world.app.inject({ method: 'GET', url: `/v1/transactions/to/give/attention?${query}`, headers });

  it('lists the failed calls of the code created after since and up to until, with their total', async () => {
    const base = Date.UTC(2025, 2, 3, 9, 0);
    const minute = (n: number) => new Date(base + n * 60_000);
    const made = await insertTransactions(world, code, [
      { isDeleted: true, createdAt: minute(0) },
      { isDeleted: true, createdAt: minute(5) },
      { isDeleted: true, createdAt: minute(10) },
      { isComplete: true, createdAt: minute(6) },
      { isDeleted: true, createdAt: minute(11) },
    ]);
    const query = new URLSearchParams({ name: code, since: minute(0).toISOString(), until: minute(10).toISOString(), page: '1' });
    const response = await failedIn(query.toString());
    expect(response.statusCode).toBe(200);
    const { docs, totalDocs } = response.json().results;
    expect(docs.map((doc: { _id: string }) => doc._id)).toEqual([made[2].id, made[1].id]);
    expect(totalDocs).toBe(2);
    // Open-ended while the incident is open; the agent of the code reads it too.
    const open = await failedIn(new URLSearchParams({ name: code, since: minute(0).toISOString() }).toString(), agent.headers);
    expect(open.json().results.docs.map((doc: { _id: string }) => doc._id)).toEqual(expect.arrayContaining([made[1].id, made[2].id, made[4].id]));
  });

  it('refuses a window that is no instant, ends before it starts or spans over 31 days, with field errors', async () => {
    const cases: [string, string][] = [
      ['since=yesterday', 'since'],
      ['until=2025-03-03', 'until'],
      ['since=2025-03-03T10:00:00Z&until=2025-03-03T09:00:00Z', 'until'],
      ['since=2025-01-01T00:00:00Z&until=2025-03-01T00:00:00Z', 'until'],
      [`since=${'9'.repeat(5000)}`, 'since'],
    ];
    for (const [query, field] of cases) {
      const response = await failedIn(query);
      expect([query, response.statusCode]).toEqual([query, 400]);
      expect(response.json().errors).toEqual([expect.objectContaining({ field })]);
      expect(response.body).not.toContain('yesterday');
    }
  });
});
