import { buildTestWorld, type TestWorld } from './helpers';

jest.setTimeout(30_000);

let world: TestWorld;
beforeAll(async () => {
  world = await buildTestWorld();
}, 60_000);
afterAll(() => world.close());

describe('campaign calls in the OpenAPI document', () => {
  it('lists every campaign call, with the bodies of the POST calls', async () => {
    const { paths } = (await world.app.inject({ method: 'GET', url: '/docs/json' })).json();
    const body = (path: string) => Object.keys(paths[path].post.requestBody.content['application/json'].schema.properties);
    for (const prefix of ['/v1/world/cup/analysis', '/v1/afcon/2024/analysis']) {
      expect(body(`${prefix}/all`)).toEqual(['name', 'date']);
      expect(body(`${prefix}/to/give/attention`)).toEqual(['name', 'date']);
      expect(body(`${prefix}/to/give/attention/{id}`)).toEqual(['isResolved', 'reason', 'note']);
      expect(body(`${prefix}/to/give/attention/bulk`)).toEqual(['ids', 'reason', 'note']);
      expect(body(`${prefix}/search`)).toEqual(['phoneNumber']);
    }
    for (const path of ['/v1/world/cup/better/all', '/v1/world/cup/final/winner/better/all', '/v1/world/cup/week2/better/all', '/v1/world/cup/week3/better/all', '/v1/world/cup/week4/better/all', '/v1/afcon/2024/better/all']) {
      expect(body(path)).toEqual(['serviceCode']);
    }
    for (const path of ['/v1/campaigns/{key}/votes', '/v1/campaigns/{key}/results', '/v1/campaigns/{key}/ranking/export']) expect(paths[path].get).toBeDefined();
  });
});
