import { eq } from 'drizzle-orm';
import { serviceCodes, transactions } from '../src/db/schema';
import { seedCampaigns } from '../src/db/seed-votes';
import { auditEntries } from './audit-fixtures';
import { buildTestWorld, type TestWorld } from './helpers';

jest.setTimeout(60_000);

let world: TestWorld;
let admin: Record<string, string>;
beforeAll(async () => {
  world = await buildTestWorld();
  await seedCampaigns(world.db);
  admin = (await world.headersFor('admin')).headers;
}, 60_000);
afterAll(() => world.close());

let made = 0;
let registered = 0;
/** A registered service code no campaign uses yet: counted, not drawn, so two can never be the same code. */
async function newCode(): Promise<string> {
  registered += 1;
  const name = `*399*${registered}#`;
  await world.db.insert(serviceCodes).values({ name });
  return name;
}

/** A campaign body: a teams round and a games round with real games. */
async function body(overrides: Record<string, unknown> = {}) {
  made += 1;
  return {
    key: `cecafa-${made}`,
    name: `CECAFA Cup ${made}`,
    serviceCode: await newCode(),
    teams: ['Uganda', 'Kenya', 'Tanzania', 'Rwanda'],
    votePrice: 300,
    rounds: [
      { key: 'winner', label: 'Winner', kind: 'teams' },
      { key: 'semis', label: 'Semi-finals', kind: 'games', games: [['Uganda', 'Kenya'], ['Tanzania', 'Rwanda']] },
    ],
    ...overrides,
  };
}

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, headers = admin) => world.app.inject({ method, url, headers, payload: payload as object });
const create = async (overrides: Record<string, unknown> = {}) => {
  const response = await call('POST', '/v1/campaigns', await body(overrides));
  expect(response.statusCode).toBe(201);
  return response.json().results;
};
const vote = (campaign: { key: string; serviceCode: string }, round: string, phoneNumber: string, teamName = 'Uganda', teamName2: string | null = null) =>
  world.db.insert(transactions).values({ serviceCode: campaign.serviceCode, phoneNumber, network: 'MTN', amount: 300, campaignKey: campaign.key, round, teamName, teamName2, isComplete: true });

describe('POST /v1/campaigns', () => {
  it('creates a draft with its rounds as objects, audited, for an admin and a super-user', async () => {
    const created = await create();
    expect(created).toMatchObject({ status: 'draft', votePrice: 300, votesPerRoundCap: null, publishedAt: null, teams: ['Uganda', 'Kenya', 'Tanzania', 'Rwanda'] });
    expect(created.rounds[1]).toEqual({ key: 'semis', label: 'Semi-finals', kind: 'games', games: [['Uganda', 'Kenya'], ['Tanzania', 'Rwanda']], opensAt: null, closesAt: null });
    const [entry] = await auditEntries(world, admin, { action: 'campaign.create' });
    expect(entry.entity).toMatchObject({ type: 'campaign', id: created.key });
    const superUser = (await world.headersFor('super-user')).headers;
    expect((await call('POST', '/v1/campaigns', await body(), superUser)).statusCode).toBe(201);
    const list = (await call('GET', '/v1/campaigns')).json().results;
    expect(list.find((c: { key: string }) => c.key === created.key)).toMatchObject({ status: 'draft', totalVotes: 0, revenue: 0 });
  });

  it('keeps agents and the AFCON-only account out', async () => {
    for (const extra of [{}, { isAfcon: true }]) {
      const { headers } = await world.headersFor('agent', extra);
      expect((await call('POST', '/v1/campaigns', await body(), headers)).statusCode).toBe(403);
      expect((await call('POST', '/v1/campaigns/world-cup-2022/close', {}, headers)).statusCode).toBe(403);
    }
  });

  it('answers every bad field with a field error and creates nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ key: 'Bad Key!' }, 'key'],
      [{ key: 'a'.repeat(51) }, 'key'],
      [{ name: 'nul\u0000name' }, 'name'],
      [{ name: 12 }, 'name'],
      [{ teams: ['Uganda', 'uganda'] }, 'teams[1]'],
      [{ teams: 'Uganda' }, 'teams'],
      [{ votePrice: -1 }, 'votePrice'],
      [{ votesPerRoundCap: 1.5 }, 'votesPerRoundCap'],
      [{ rounds: [] }, 'rounds'],
      [{ rounds: [{ key: 'a', label: 'A', kind: 'teams' }, { key: 'a', label: 'B', kind: 'teams' }] }, 'rounds[1].key'],
      [{ rounds: [{ key: 'all', label: 'All', kind: 'teams' }] }, 'rounds[0].key'],
      [{ rounds: [{ key: 'a', label: 'A', kind: 'vote' }] }, 'rounds[0].kind'],
      [{ rounds: [{ key: 'a', label: 'A', kind: 'games', games: [['Uganda', 'Brazil']] }] }, 'rounds[0].games[0]'],
      [{ rounds: [{ key: 'a', label: 'A', kind: 'games', games: [['Uganda', 'Uganda']] }] }, 'rounds[0].games[0]'],
      [{ rounds: [{ key: 'a', label: 'A', kind: 'games', games: [] }] }, 'rounds[0].games'],
      [{ rounds: [{ key: 'a', label: 'A', kind: 'teams', opensAt: 'soon' }] }, 'rounds[0].opensAt'],
      [{ rounds: [{ key: 'a', label: 'A', kind: 'teams', opensAt: '2030-01-02T00:00:00Z', closesAt: '2030-01-01T00:00:00Z' }] }, 'rounds[0].closesAt'],
      [{ serviceCode: '*999*999999#' }, 'serviceCode'],
    ];
    for (const [overrides, field] of cases) {
      const response = await call('POST', '/v1/campaigns', await body(overrides));
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toContainEqual(expect.objectContaining({ field }));
      expect(response.body).not.toContain('nul\u0000name');
    }
    expect((await call('POST', '/v1/campaigns', [1, 2])).statusCode).toBe(400);
  });

  it('refuses a taken key, and a code another live campaign holds', async () => {
    const first = await create();
    const again = await call('POST', '/v1/campaigns', await body({ key: first.key }));
    expect(again.statusCode).toBe(409);
    expect(again.json().errors).toEqual([expect.objectContaining({ field: 'key' })]);
    expect((await call('POST', `/v1/campaigns/${first.key}/publish`)).statusCode).toBe(200);
    const clash = await call('POST', '/v1/campaigns', await body({ serviceCode: first.serviceCode }));
    expect(clash.statusCode).toBe(409);
    expect(clash.json().errors).toEqual([expect.objectContaining({ field: 'serviceCode' })]);
  });
});

describe('publish and close', () => {
  it('goes draft → live → closed once each, audited; a second live campaign on a code is refused', async () => {
    const campaign = await create();
    const published = await call('POST', `/v1/campaigns/${campaign.key}/publish`);
    expect(published.statusCode).toBe(200);
    expect(published.json().results).toMatchObject({ status: 'live', publishedAt: expect.any(String) });
    expect((await call('POST', `/v1/campaigns/${campaign.key}/publish`)).statusCode).toBe(409);

    // A draft made on a code before another campaign went live there cannot go live beside it.
    const code = await newCode();
    const a = await create({ serviceCode: code });
    const b = await create({ serviceCode: code });
    expect((await call('POST', `/v1/campaigns/${a.key}/publish`)).statusCode).toBe(200);
    const refused = await call('POST', `/v1/campaigns/${b.key}/publish`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().errors).toEqual([expect.objectContaining({ field: 'serviceCode' })]);

    const round = await call('POST', `/v1/campaigns/${campaign.key}/rounds/semis/close`);
    expect(round.statusCode).toBe(200);
    expect(round.json().results.rounds[1].closedAt).toEqual(expect.any(String));
    expect((await call('POST', `/v1/campaigns/${campaign.key}/rounds/semis/close`)).statusCode).toBe(409);
    expect((await call('POST', `/v1/campaigns/${campaign.key}/rounds/nope/close`)).statusCode).toBe(404);

    const closed = await call('POST', `/v1/campaigns/${campaign.key}/close`);
    expect(closed.statusCode).toBe(200);
    expect(closed.json().results).toMatchObject({ status: 'closed', closedAt: expect.any(String) });
    expect((await call('POST', `/v1/campaigns/${campaign.key}/close`)).statusCode).toBe(409);
    expect((await call('POST', `/v1/campaigns/no-such/publish`)).statusCode).toBe(404);

    for (const action of ['campaign.publish', 'campaign.round-close', 'campaign.close']) {
      const entries = await auditEntries(world, admin, { action, entityId: campaign.key });
      expect(entries).toHaveLength(1);
    }
    const [roundClose] = await auditEntries(world, admin, { action: 'campaign.round-close', entityId: campaign.key });
    expect(roundClose.changes).toEqual([expect.objectContaining({ field: 'rounds.semis', after: expect.stringContaining('closed ') })]);
  });
});

describe('PATCH /v1/campaigns/{key}', () => {
  it('changes anything before the first vote; afterwards names and times only (409 for teams, games, kinds)', async () => {
    const campaign = await create();
    const early = await call('PATCH', `/v1/campaigns/${campaign.key}`, { teams: ['Uganda', 'Kenya', 'Tanzania', 'Rwanda', 'Burundi'] });
    expect(early.statusCode).toBe(200);
    expect(early.json().results.teams).toHaveLength(5);

    await vote(campaign, 'winner', '256700900001');
    const locked = [
      { teams: ['Uganda', 'Kenya', 'Tanzania', 'Rwanda'] },
      { rounds: [campaign.rounds[0], { ...campaign.rounds[1], games: [['Uganda', 'Tanzania']] }] },
      { rounds: [{ ...campaign.rounds[0], kind: 'games', games: [['Uganda', 'Kenya']] }, campaign.rounds[1]] },
      { rounds: [campaign.rounds[1]] },
    ];
    for (const change of locked) {
      const response = await call('PATCH', `/v1/campaigns/${campaign.key}`, change);
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toMatch(/cannot change once the campaign has votes/);
    }
    const renamed = await call('PATCH', `/v1/campaigns/${campaign.key}`, {
      name: 'CECAFA Senior Challenge Cup',
      rounds: [{ ...campaign.rounds[0], label: 'Champion', closesAt: '2030-01-01T00:00:00Z' }, campaign.rounds[1], { key: 'final', label: 'Final', kind: 'games', games: [['Uganda', 'Kenya']] }],
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().results).toMatchObject({ name: 'CECAFA Senior Challenge Cup', rounds: [{ label: 'Champion', closesAt: '2030-01-01T00:00:00.000Z' }, {}, { key: 'final' }] });
    const [entry] = await auditEntries(world, admin, { action: 'campaign.update', entityId: campaign.key });
    expect(entry.changes.map((c) => c.field).sort()).toEqual(['name', 'rounds.final', 'rounds.winner']);
    expect((await call('PATCH', `/v1/campaigns/${campaign.key}`, { key: 'other' })).statusCode).toBe(400);
    expect((await call('PATCH', `/v1/campaigns/${campaign.key}`, { name: '' })).statusCode).toBe(400);
    expect((await call('PATCH', '/v1/campaigns/no-such', { name: 'x' })).statusCode).toBe(404);
  });

  it('switches holding suspicious votes and the velocity threshold, audited, even after votes', async () => {
    const campaign = await create();
    expect(campaign).toMatchObject({ velocityPerMinute: 10, holdSuspicious: false });
    await vote(campaign, 'winner', '256700900002');
    const held = await call('PATCH', `/v1/campaigns/${campaign.key}`, { holdSuspicious: true, velocityPerMinute: 5 });
    expect(held.statusCode).toBe(200);
    expect(held.json().results).toMatchObject({ velocityPerMinute: 5, holdSuspicious: true });
    const [entry] = await auditEntries(world, admin, { action: 'campaign.update', entityId: campaign.key });
    expect(entry.changes.map((c) => c.field).sort()).toEqual(['holdSuspicious', 'velocityPerMinute']);
    for (const bad of [{ holdSuspicious: 'yes' }, { velocityPerMinute: 0 }, { velocityPerMinute: 1.5 }, { velocityPerMinute: '10' }]) {
      const response = await call('PATCH', `/v1/campaigns/${campaign.key}`, bad);
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0].field).toBe(Object.keys(bad)[0]);
    }
  });
});

describe('GET /v1/campaigns totals', () => {
  it('carries counted votes and revenue from the counted votes', async () => {
    const campaign = await create();
    await vote(campaign, 'winner', '256700900002');
    await vote(campaign, 'semis', '256700900002', 'Uganda', 'Kenya');
    await world.db.insert(transactions).values({ serviceCode: campaign.serviceCode, phoneNumber: '256700900003', network: 'MTN', amount: 300, campaignKey: campaign.key, round: 'winner', teamName: 'Kenya', isDeleted: true });
    const listed = (await call('GET', '/v1/campaigns')).json().results.find((c: { key: string }) => c.key === campaign.key);
    expect(listed).toMatchObject({ totalVotes: 2, revenue: 600 });
    const afcon = (await world.headersFor('agent', { isAfcon: true })).headers;
    expect((await call('GET', '/v1/campaigns', undefined, afcon)).json().results.map((c: { key: string }) => c.key)).toEqual(['afcon-2024']);
    expect((await world.db.select().from(transactions).where(eq(transactions.campaignKey, campaign.key))).length).toBe(3);
  });
});
