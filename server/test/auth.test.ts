import { buildTestWorld, TEST_PASSWORD, type TestWorld } from './helpers';

let world: TestWorld;
beforeAll(async () => {
  world = await buildTestWorld();
});
afterAll(() => world.close());

describe('POST /v1/auth/login', () => {
  it('answers the user, an access token and a refresh token', async () => {
    const agent = await world.createUser('agent');
    const response = await world.app.inject({ method: 'POST', url: '/v1/auth/login', payload: { userName: agent.userName, password: TEST_PASSWORD } });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.status).toBe(true);
    expect(body.results.user).toEqual({ id: agent.id, userName: agent.userName, role: 'agent', serviceCode: [], isAfcon: false });
    expect(body.results.accessToken.split('.')).toHaveLength(3);
    expect(typeof body.results.refreshToken).toBe('string');
  });

  it('refuses a wrong password with 401', async () => {
    const agent = await world.createUser('agent');
    const response = await world.app.inject({ method: 'POST', url: '/v1/auth/login', payload: { userName: agent.userName, password: 'nope-nope' } });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ status: false, message: 'Incorrect username or password' });
  });

  it('answers 400 with SPEC messages for empty fields', async () => {
    const response = await world.app.inject({ method: 'POST', url: '/v1/auth/login', payload: {} });
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      { field: 'userName', message: 'Please provide your username' },
      { field: 'password', message: 'Please provide your password' },
    ]);
  });
});
