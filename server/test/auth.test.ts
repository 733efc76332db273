import { desc, eq } from 'drizzle-orm';
import { mailOutbox, passwordResets } from '../src/db/schema';
import { LOGIN_MAX_FAILURES } from '../src/routes/auth';
import { buildTestWorld, TEST_PASSWORD, type TestWorld } from './helpers';

// Argon2 and PGlite are slow on a busy machine; the default 5 s is too tight.
jest.setTimeout(30_000);

let world: TestWorld;
beforeAll(async () => {
  world = await buildTestWorld();
}, 60_000);
afterAll(() => world.close());

const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  world.app.inject({ method: 'POST', url, payload: payload as object, headers });

describe('POST /v1/auth/login', () => {
  it('answers the user, an access token and a refresh token', async () => {
    const agent = await world.createUser('agent');
    const response = await post('/v1/auth/login', { userName: agent.userName, password: TEST_PASSWORD });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ status: true, message: 'Logged in' });
    expect(body.results.user).toEqual({ id: agent.id, userName: agent.userName, role: 'agent', serviceCode: [], isAfcon: false });
    expect(body.results.accessToken.split('.')).toHaveLength(3);
    expect(typeof body.results.refreshToken).toBe('string');
  });

  it('ignores the case of the user name', async () => {
    const agent = await world.createUser('agent');
    const response = await post('/v1/auth/login', { userName: agent.userName.toUpperCase(), password: TEST_PASSWORD });
    expect(response.statusCode).toBe(200);
  });

  it('refuses a wrong password and an unknown user with 401', async () => {
    const agent = await world.createUser('agent');
    for (const payload of [
      { userName: agent.userName, password: 'nope-nope' },
      { userName: 'nobody-here', password: TEST_PASSWORD },
    ]) {
      const response = await post('/v1/auth/login', payload);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ status: false, message: 'Incorrect username or password' });
    }
  });

  it('answers 400 with SPEC messages for empty fields', async () => {
    const response = await post('/v1/auth/login', {});
    expect(response.statusCode).toBe(400);
    expect(response.json().errors).toEqual([
      { field: 'userName', message: 'Please provide your username' },
      { field: 'password', message: 'Please provide your password' },
    ]);
  });

  it('answers 4xx, never 500, to malformed bodies', async () => {
    const bodies: [string, string][] = [
      ['application/json', '{not json'],
      ['application/json', '[]'],
      ['application/json', 'null'],
      ['application/json', '"text"'],
      ['text/plain', 'hello'],
      ['application/json', '{"userName":{},"password":[1]}'],
      ['application/json', '{"userName":["a"],"password":{"$gt":""}}'],
      ['application/xml', '<a/>'],
    ];
    for (const [contentType, payload] of bodies) {
      const response = await world.app.inject({ method: 'POST', url: '/v1/auth/login', headers: { 'content-type': contentType }, payload });
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      expect(response.json().status).toBe(false);
    }
    const objects = await post('/v1/auth/login', { userName: {}, password: [1] });
    expect(objects.json().errors).toEqual([
      { field: 'userName', message: 'Please provide your username' },
      { field: 'password', message: 'Please provide your password' },
    ]);
  });

  it(`answers 429 after ${LOGIN_MAX_FAILURES} failures, even to the right password`, async () => {
    const agent = await world.createUser('agent');
    for (let i = 0; i < LOGIN_MAX_FAILURES; i += 1) {
      expect((await post('/v1/auth/login', { userName: agent.userName, password: `wrong-${i}` })).statusCode).toBe(401);
    }
    const blocked = await post('/v1/auth/login', { userName: agent.userName, password: TEST_PASSWORD });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().status).toBe(false);
    // A forged X-Forwarded-For does not make a new address.
    const forged = await post('/v1/auth/login', { userName: agent.userName, password: TEST_PASSWORD }, { 'x-forwarded-for': '203.0.113.9' });
    expect(forged.statusCode).toBe(429);
    // Another user from the same address is not affected.
    const other = await world.createUser('agent');
    expect((await post('/v1/auth/login', { userName: other.userName, password: TEST_PASSWORD })).statusCode).toBe(200);
  });
});

describe('POST /v1/auth/refresh-token', () => {
  it('rotates: the new pair works, a reused token revokes the whole family', async () => {
    const agent = await world.createUser('agent');
    const first = await world.login(agent.userName);
    const refreshed = await post('/v1/auth/refresh-token', { token: first.refreshToken });
    expect(refreshed.statusCode).toBe(200);
    const body = refreshed.json();
    expect(body.status).toBe(true);
    expect(body.accessToken.split('.')).toHaveLength(3);
    expect(body.refreshToken).not.toBe(first.refreshToken);
    const profile = await world.app.inject({ method: 'GET', url: '/v1/auth/profile', headers: { authorization: `Bearer ${body.accessToken}` } });
    expect(profile.statusCode).toBe(200);

    const reused = await post('/v1/auth/refresh-token', { token: first.refreshToken });
    expect(reused.statusCode).toBe(401);
    expect(reused.json().status).toBe(false);
    // The newest token of the family stopped working too.
    expect((await post('/v1/auth/refresh-token', { token: body.refreshToken })).statusCode).toBe(401);
  });

  it('answers 400 without a token and 401 for an unknown one', async () => {
    const missing = await post('/v1/auth/refresh-token', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ status: false, message: 'No refresh token available' });
    expect((await post('/v1/auth/refresh-token', { token: 'made-up' })).statusCode).toBe(401);
    expect((await post('/v1/auth/refresh-token', { token: {} })).statusCode).toBe(400);
  });
});

describe('POST /v1/auth/logout', () => {
  it('revokes the refresh token and answers 200 whatever it is given', async () => {
    const agent = await world.createUser('agent');
    const session = await world.login(agent.userName);
    const response = await post('/v1/auth/logout', { token: session.refreshToken });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: true, message: 'Logged out' });
    expect((await post('/v1/auth/refresh-token', { token: session.refreshToken })).statusCode).toBe(401);
    expect((await post('/v1/auth/logout', {})).statusCode).toBe(200);
  });
});

describe('forgot and reset password', () => {
  const latestMailTo = async (to: string) => {
    const [mail] = await world.db.select().from(mailOutbox).where(eq(mailOutbox.to, to)).orderBy(desc(mailOutbox.createdAt)).limit(1);
    return mail;
  };

  it('mails a single-use link; the new password signs in', async () => {
    const agent = await world.createUser('agent', { email: 'kato@example.com' });
    const asked = await post(
      '/v1/auth/forgot-password',
      { email: 'Kato@Example.com', redirectUrl: 'https://evil.example/#/reset-password' },
      { host: 'desk.example', 'x-forwarded-host': 'evil.example' },
    );
    expect(asked.statusCode).toBe(200);
    expect(asked.json().message).toBe('Please visit your email Kato@Example.com to reset your password');

    const mail = await latestMailTo('Kato@Example.com');
    const link = /(https?:\/\/\S+)/.exec(mail.body)?.[1] ?? '';
    // The link stays on our own host, keeps the hash route and carries the token.
    expect(link.startsWith('http://desk.example/#/reset-password?token=')).toBe(true);
    const token = decodeURIComponent(link.split('?token=')[1]);

    const short = await post(`/v1/auth/reset-forgot-password/${token}`, { password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().errors).toEqual([{ field: 'password', message: 'Password must be atleast 8 characters long' }]);

    const reset = await post(`/v1/auth/reset-forgot-password/${token}`, { password: 'brand-new-password' });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().status).toBe(true);
    expect((await post(`/v1/auth/reset-forgot-password/${token}`, { password: 'another-password' })).statusCode).toBe(400);

    expect((await post('/v1/auth/login', { userName: agent.userName, password: TEST_PASSWORD })).statusCode).toBe(401);
    expect((await post('/v1/auth/login', { userName: agent.userName, password: 'brand-new-password' })).statusCode).toBe(200);
  });

  it('answers the same for an unknown address and sends nothing', async () => {
    const response = await post('/v1/auth/forgot-password', { email: 'nobody@example.com' });
    expect(response.statusCode).toBe(200);
    expect(await latestMailTo('nobody@example.com')).toBeUndefined();
  });

  it('refuses a link past its hour', async () => {
    await world.createUser('agent', { email: 'late@example.com' });
    await post('/v1/auth/forgot-password', { email: 'late@example.com' });
    const link = /(https?:\/\/\S+)/.exec((await latestMailTo('late@example.com')).body)?.[1] ?? '';
    await world.db.update(passwordResets).set({ expiresAt: new Date(Date.now() - 1000) });
    const response = await post(`/v1/auth/reset-forgot-password/${link.split('?token=')[1]}`, { password: 'long-enough-1' });
    expect(response.statusCode).toBe(400);
  });

  it('refuses a malformed address and a made-up token', async () => {
    const bad = await post('/v1/auth/forgot-password', { email: 'not-an-email' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ field: 'email', message: 'Invalid email' }]);
    const made = await post('/v1/auth/reset-forgot-password/made-up-token', { password: 'long-enough-1' });
    expect(made.statusCode).toBe(400);
  });
});

describe('GET /v1/auth/profile', () => {
  it('answers the signed-in user without secrets', async () => {
    const { user, headers } = await world.headersFor('admin', { email: 'boss@example.com' });
    const response = await world.app.inject({ method: 'GET', url: '/v1/auth/profile', headers });
    expect(response.statusCode).toBe(200);
    expect(response.json().results).toMatchObject({ _id: user.id, userName: user.userName, email: 'boss@example.com', role: 'admin' });
    expect(response.body).not.toContain('argon2');
  });

  it('answers 401 without or with a bad token', async () => {
    expect((await world.app.inject({ method: 'GET', url: '/v1/auth/profile' })).statusCode).toBe(401);
    const bad = await world.app.inject({ method: 'GET', url: '/v1/auth/profile', headers: { authorization: 'Bearer not.a.jwt' } });
    expect(bad.statusCode).toBe(401);
  });
});
