import { buildTestWorld, TEST_PASSWORD, type TestWorld } from './helpers';

// Argon2 and PGlite are slow on a busy machine; the default 5 s is too tight.
jest.setTimeout(30_000);

let world: TestWorld;
let admin: Record<string, string>;
beforeAll(async () => {
  world = await buildTestWorld();
  admin = (await world.headersFor('admin')).headers;
}, 60_000);
afterAll(() => world.close());

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, headers = admin) =>
  world.app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload: payload as object }) });

describe('GET /v1/users', () => {
  it('pages the users, newest first, 10 by default and up to 100', async () => {
    for (let i = 0; i < 12; i += 1) await world.createUser('agent');
    const first = await call('GET', '/v1/users?page=1');
    expect(first.statusCode).toBe(200);
    const page = first.json().results;
    expect(page).toMatchObject({ page: 1, limit: 10, previous: null, next: 2 });
    expect(page.docs).toHaveLength(10);
    expect(page.total).toBeGreaterThanOrEqual(13);
    expect(page.docs[0]).toEqual({
      _id: expect.any(String),
      userName: expect.any(String),
      role: expect.any(String),
      email: null,
      isAfcon: false,
      createdAt: expect.any(String),
      disabled: false,
      lastSignInAt: null,
      twoFactorEnabled: false,
    });
    expect(JSON.stringify(page)).not.toContain('password');

    const second = (await call('GET', '/v1/users?page=2')).json().results;
    expect(second.previous).toBe(1);
    expect(second.docs.map((u: { _id: string }) => u._id)).not.toContain(page.docs[0]._id);

    const all = (await call('GET', '/v1/users?page=1&limit=100')).json().results;
    expect(all.docs).toHaveLength(all.total);
    expect(all.next).toBeNull();
  });

  it('answers 400 to bad paging', async () => {
    for (const query of ['page=abc', 'page=0', 'limit=101', 'page=99999999999999999999']) {
      expect((await call('GET', `/v1/users?${query}`)).statusCode).toBe(400);
    }
  });
});

describe('POST /v1/auth/create/other', () => {
  it('creates an agent who can sign in; a second one with the same name is 409', async () => {
    const created = await call('POST', '/v1/auth/create/other', { userName: 'nakato', password: 'agent-password', role: 'agent' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ status: true, message: 'Successfully created a new user', results: { userName: 'nakato', role: 'agent' } });
    expect((await world.login('nakato', 'agent-password')).user.role).toBe('agent');

    const duplicate = await call('POST', '/v1/auth/create/other', { userName: 'NAKATO', password: 'agent-password', role: 'agent' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().errors).toEqual([{ field: 'userName', message: 'Username NAKATO already taken' }]);
  });

  it('answers 400 with SPEC messages for bad bodies', async () => {
    const empty = await call('POST', '/v1/auth/create/other', { role: 'agent' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toEqual([
      { field: 'userName', message: 'Please provide the userName' },
      { field: 'password', message: 'Please provide the password' },
    ]);
    const short = await call('POST', '/v1/auth/create/other', { userName: 'okello', password: 'short', role: 'agent' });
    expect(short.statusCode).toBe(400);
    expect(short.json().errors).toEqual([{ field: 'password', message: 'Password must be atleast 8 characters long' }]);
    for (const payload of [[], 'text', { userName: ['x'], password: { a: 1 }, role: 'agent' }, { userName: 5, password: true, role: null }]) {
      const response = await call('POST', '/v1/auth/create/other', payload);
      // Plain text without a content type is 415; every other bad body is 400.
      expect([400, 415]).toContain(response.statusCode);
      expect(response.json().status).toBe(false);
    }
  });

  it('creates agents and customer care only', async () => {
    for (const role of ['admin', 'super-user', 'super-admin']) {
      const response = await call('POST', '/v1/auth/create/other', { userName: `would-be-${role}`, password: 'long-enough', role });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([{ field: 'role', message: 'New accounts can only be agents or customer care' }]);
    }
    const care = await call('POST', '/v1/auth/create/other', { userName: 'care-desk', password: 'long-enough', role: 'customer-care' });
    expect(care.statusCode).toBe(201);
    expect(care.json().results).toMatchObject({ role: 'customer-care' });
  });
});

describe('PATCH /v1/users/{id}', () => {
  it('edits the user name, the password and the Afcon-only switch', async () => {
    const agent = await world.createUser('agent');
    const response = await call('PATCH', `/v1/users/${agent.id}`, { userName: `renamed-${agent.userName}`, password: 'changed-password', isAfcon: true });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: true, message: 'Successfully updated a user', results: { isAfcon: true } });
    const session = await world.login(`renamed-${agent.userName}`, 'changed-password');
    expect(session.user).toMatchObject({ id: agent.id, isAfcon: true });
    expect((await call('POST', '/v1/auth/login', { userName: `renamed-${agent.userName}`, password: TEST_PASSWORD }, {})).statusCode).toBe(401);
  });

  it('ends the sessions of a user whose password an admin changed', async () => {
    const agent = await world.createUser('agent');
    const session = await world.login(agent.userName);
    expect((await call('PATCH', `/v1/users/${agent.id}`, { userName: agent.userName, password: 'reset-by-admin' })).statusCode).toBe(200);
    expect((await call('POST', '/v1/auth/refresh-token', { token: session.refreshToken }, {})).statusCode).toBe(401);
  });

  it('keeps the password when it is left empty', async () => {
    const agent = await world.createUser('agent');
    expect((await call('PATCH', `/v1/users/${agent.id}`, { userName: agent.userName, password: '' })).statusCode).toBe(200);
    await world.login(agent.userName);
  });

  it('refuses admin and super-user targets with 403', async () => {
    for (const role of ['admin', 'super-user'] as const) {
      const target = await world.createUser(role);
      const response = await call('PATCH', `/v1/users/${target.id}`, { userName: 'taken-over', password: 'long-enough' });
      expect(response.statusCode).toBe(403);
    }
  });

  it('answers 400 to a malformed id or body, 404 to an unknown id, 409 to a taken name', async () => {
    expect((await call('PATCH', '/v1/users/not-a-uuid', { userName: 'x' })).statusCode).toBe(400);
    const unknown = await call('PATCH', '/v1/users/00000000-0000-4000-8000-000000000000', { userName: 'someone' });
    expect(unknown.statusCode).toBe(404);
    const agent = await world.createUser('agent');
    const other = await world.createUser('agent');
    const empty = await call('PATCH', `/v1/users/${agent.id}`, { userName: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toEqual([{ field: 'userName', message: 'Please provide the userName' }]);
    const short = await call('PATCH', `/v1/users/${agent.id}`, { userName: agent.userName, password: 'short' });
    expect(short.json().errors).toEqual([{ field: 'password', message: 'Password must be atleast 8 characters long' }]);
    for (const payload of [[], { userName: {}, isAfcon: 'maybe' }, { userName: agent.userName, role: 'admin' }]) {
      expect((await call('PATCH', `/v1/users/${agent.id}`, payload)).statusCode).toBe(400);
    }
    const taken = await call('PATCH', `/v1/users/${agent.id}`, { userName: other.userName });
    expect(taken.statusCode).toBe(409);
  });
});

describe('PATCH /v1/users/update/profile', () => {
  it('answers 404 "Wrong password" to a wrong current password', async () => {
    const { user, headers } = await world.headersFor('agent');
    const response = await call('PATCH', '/v1/users/update/profile', { userName: user.userName, myPassword: 'not-my-password' }, headers);
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toBe('Wrong password');
  });

  it('answers 403 to a user name someone else has', async () => {
    const { user, headers } = await world.headersFor('agent');
    const other = await world.createUser('agent');
    const response = await call('PATCH', '/v1/users/update/profile', { userName: other.userName, myPassword: TEST_PASSWORD }, headers);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(`Username ${other.userName} already taken`);
    expect(user.userName).not.toBe(other.userName);
  });

  it('updates name, email and password', async () => {
    const { user, headers } = await world.headersFor('admin');
    const response = await call(
      'PATCH',
      '/v1/users/update/profile',
      { userName: `${user.userName}-x`, email: 'me@example.com', myPassword: TEST_PASSWORD, password: 'my-new-password' },
      headers,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ message: 'Successfully updated your profile', results: { userName: `${user.userName}-x`, email: 'me@example.com' } });
    await world.login(`${user.userName}-x`, 'my-new-password');
    const profile = (await call('GET', '/v1/auth/profile', undefined, headers)).json().results;
    expect(profile.email).toBe('me@example.com');
  });

  it('ends every other session of the user on a new password; this one goes on', async () => {
    const { user, headers } = await world.headersFor('agent');
    const here = await world.login(user.userName);
    const elsewhere = await world.login(user.userName);
    const mine = { authorization: `Bearer ${here.accessToken}` };
    const changed = await call('PATCH', '/v1/users/update/profile', { userName: user.userName, myPassword: TEST_PASSWORD, password: 'changed-by-me-1' }, mine);
    expect(changed.statusCode).toBe(200);
    expect((await call('POST', '/v1/auth/refresh-token', { token: elsewhere.refreshToken }, {})).statusCode).toBe(401);
    expect((await call('GET', '/v1/auth/profile', undefined, { authorization: `Bearer ${elsewhere.accessToken}` })).statusCode).toBe(401);
    expect((await call('GET', '/v1/auth/profile', undefined, headers)).statusCode).toBe(401);
    expect((await call('GET', '/v1/auth/profile', undefined, mine)).statusCode).toBe(200);
    expect((await call('POST', '/v1/auth/refresh-token', { token: here.refreshToken }, {})).statusCode).toBe(200);
  });

  it('keeps the email when the update leaves it out, and removes it when it is empty', async () => {
    const { user, headers } = await world.headersFor('agent', { email: 'kept@example.com' });
    const email = async () => (await call('GET', '/v1/auth/profile', undefined, headers)).json().results.email;
    expect((await call('PATCH', '/v1/users/update/profile', { userName: user.userName, myPassword: TEST_PASSWORD }, headers)).statusCode).toBe(200);
    expect(await email()).toBe('kept@example.com');
    expect((await call('PATCH', '/v1/users/update/profile', { userName: user.userName, email: '  ', myPassword: TEST_PASSWORD }, headers)).statusCode).toBe(200);
    expect(await email()).toBeNull();
  });

  it('answers 400 with SPEC messages for a bad body', async () => {
    const { headers } = await world.headersFor('agent');
    const response = await call('PATCH', '/v1/users/update/profile', { userName: '', myPassword: '' }, headers);
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      { field: 'userName', message: 'Please provide the userName' },
      { field: 'myPassword', message: 'Please provide the your password' },
    ]);
    const wrongTypes = await call('PATCH', '/v1/users/update/profile', { userName: 'me', email: {}, myPassword: TEST_PASSWORD }, headers);
    expect(wrongTypes.statusCode).toBe(400);
    expect(wrongTypes.json().errors).toEqual([{ field: 'email', message: 'Invalid value' }]);
  });
});
