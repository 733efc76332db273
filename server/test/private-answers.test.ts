import { buildTestWorld, type TestWorld } from './helpers';

jest.setTimeout(30_000);

let world: TestWorld;
beforeAll(async () => {
  world = await buildTestWorld();
}, 60_000);
afterAll(() => world.close());

describe('signed-in answers', () => {
  it('carry Cache-Control: no-store, refusals included', async () => {
    const { headers } = await world.headersFor('admin');
    const calls = [
      { method: 'GET', url: '/v1/auth/profile' },
      { method: 'GET', url: '/v1/users?page=1&limit=10' },
      { method: 'POST', url: '/v1/transactions?page=1&limit=50', payload: {} },
    ] as const;
    for (const call of calls) {
      const response = await world.app.inject({ ...call, headers });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe('no-store');
    }
    const refused = await world.app.inject({ method: 'GET', url: '/v1/auth/profile' });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
  });

  it('leave public answers alone', async () => {
    const response = await world.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.headers['cache-control']).toBeUndefined();
  });
});
