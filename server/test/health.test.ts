import { buildTestWorld, type TestWorld } from './helpers';

jest.setTimeout(30_000);

let world: TestWorld;
beforeAll(async () => {
  world = await buildTestWorld();
}, 60_000);
afterAll(() => world.close());

describe('GET /healthz', () => {
  it('answers 200 when the database answers, with security headers', async () => {
    const response = await world.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: true });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBeDefined();
    expect(response.headers['content-security-policy']).toContain("default-src 'self'");
  });
});

describe('OpenAPI', () => {
  it('serves the documentation UI at /docs', async () => {
    const response = await world.app.inject({ method: 'GET', url: '/docs' });
    const page = response.statusCode === 302 ? await world.app.inject({ method: 'GET', url: response.headers.location as string }) : response;
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('swagger');
  });

  it('publishes the contract with the SPEC §7 paths', async () => {
    const response = await world.app.inject({ method: 'GET', url: '/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = Object.keys(response.json().paths);
    expect(paths).toEqual(expect.arrayContaining(['/v1/auth/login', '/v1/auth/refresh-token', '/v1/users', '/v1/users/{id}', '/v1/campaigns']));
  });

  it('documents the bodies the domain schemas validate', async () => {
    const { paths } = (await world.app.inject({ method: 'GET', url: '/docs/json' })).json();
    const body = (path: string, method: string) => paths[path][method].requestBody.content['application/json'].schema;
    expect(body('/v1/auth/login', 'post')).toMatchObject({ required: ['userName', 'password'], properties: { userName: { type: 'string' } } });
    expect(body('/v1/auth/create/other', 'post').properties).toMatchObject({ password: { type: 'string', minLength: 8 }, role: { enum: ['agent', 'customer-care'] } });
    expect(body('/v1/users/{id}', 'patch').properties.isAfcon).toEqual({ type: 'boolean' });
  });
});

describe('unknown routes', () => {
  it('answer 404 in the envelope', async () => {
    const response = await world.app.inject({ method: 'GET', url: '/v1/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ status: false });
  });
});
