import { seedCampaigns } from '../src/db/seed-votes';
import { buildTestWorld, type TestWorld } from './helpers';

jest.setTimeout(30_000);

let world: TestWorld;
beforeAll(async () => {
  world = await buildTestWorld();
}, 60_000);
afterAll(() => world.close());

describe('GET /v1/campaigns', () => {
  it('answers an empty list before any campaign exists', async () => {
    const { headers } = await world.headersFor('agent');
    const response = await world.app.inject({ method: 'GET', url: '/v1/campaigns', headers });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: true, message: 'Campaigns', results: [] });
  });

  it('lists key, name, service code, rounds and teams, to every signed-in user', async () => {
    await seedCampaigns(world.db);
    await seedCampaigns(world.db);
    for (const role of ['agent', 'admin', 'super-user'] as const) {
      const { headers } = await world.headersFor(role);
      const response = await world.app.inject({ method: 'GET', url: '/v1/campaigns', headers });
      expect(response.statusCode).toBe(200);
      const [worldCup, afcon] = response.json().results;
      expect(worldCup).toMatchObject({ key: 'world-cup-2022', name: 'World Cup 2022', serviceCode: '*217*50#', status: 'live', totalVotes: 0, revenue: 0 });
      expect(worldCup.rounds.map((round: { key: string }) => round.key)).toEqual(['general', 'week2', 'week3', 'week4', 'final']);
      expect(worldCup.rounds.at(-1)).toEqual({ key: 'final', label: 'Final', kind: 'games', games: [['Argentina', 'France']] });
      expect(worldCup.teams).toHaveLength(32);
      expect(afcon).toMatchObject({ key: 'afcon-2024', name: 'AFCON 2024', serviceCode: '*284*24#', status: 'live', rounds: [{ key: 'general', label: 'General', kind: 'teams' }] });
      expect(afcon.teams).toHaveLength(24);
    }
  });

  it('lets the Afcon-only account in and keeps anonymous callers out', async () => {
    const { headers } = await world.headersFor('agent', { isAfcon: true });
    expect((await world.app.inject({ method: 'GET', url: '/v1/campaigns', headers })).statusCode).toBe(200);
    expect((await world.app.inject({ method: 'GET', url: '/v1/campaigns' })).statusCode).toBe(401);
  });
});
