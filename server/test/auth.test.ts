import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { attemptLimit } from '../src/auth/attempt-limit';
import { REFRESH_GRACE_MS, sha256 } from '../src/auth/sessions';
import { refreshTokens } from '../src/db/schema';
import { LOGIN_MAX_FAILURES, LOGIN_MAX_FAILURES_PER_ADDRESS } from '../src/auth/sign-in';
import { buildTestWorld, TEST_PASSWORD, type TestWorld } from './helpers';

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const decodeJwt = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
/** A JWT made by hand: HS256 with `key`, or unsigned (alg none) without one. */
function jwtOf(claims: object, key?: string) {
  const unsigned = `${base64url({ alg: key ? 'HS256' : 'none', typ: 'JWT' })}.${base64url(claims)}`;
  return `${unsigned}.${key ? crypto.createHmac('sha256', key).update(unsigned).digest('base64url') : ''}`;
}

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

  it('counts concurrent failures: 40 wrong passwords at once get 10 × 401 and 30 × 429', async () => {
    const agent = await world.createUser('agent');
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => post('/v1/auth/login', { userName: agent.userName, password: `wrong-${i}` })));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([...Array(LOGIN_MAX_FAILURES).fill(401), ...Array(40 - LOGIN_MAX_FAILURES).fill(429)]);
    expect((await post('/v1/auth/login', { userName: agent.userName, password: TEST_PASSWORD })).statusCode).toBe(429);
  });

  it('counts concurrent attempts without a deadlock: 20 rounds of 40 attempts on one address and one name each let exactly 10 through', async () => {
    // On a PostgreSQL server two attempts that locked their rows in different orders deadlocked (a 500).
    const limits = attemptLimit(world.app.db);
    for (let round = 0; round < 20; round += 1) {
      const name = `sign-in-name|deadlock-${round}`;
      const answers = await Promise.all(
        Array.from({ length: 40 }, () => limits.take([{ key: `sign-in-address|deadlock-${round}`, max: 50 }, { key: name, max: 10 }])),
      );
      expect(answers.filter(Boolean)).toHaveLength(10);
    }
  });

  it(`limits an address to ${LOGIN_MAX_FAILURES_PER_ADDRESS} failures over any names; a proxy's clients count apart with TRUST_PROXY`, async () => {
    const proxied = await world.anotherProcess({ trustProxy: '127.0.0.1' });
    const from = (address: string) => (payload: object) => proxied.inject({ method: 'POST', url: '/v1/auth/login', payload, headers: { 'x-forwarded-for': address } });
    const guesser = from('192.0.2.7');
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_ADDRESS; i += 1) {
      expect((await guesser({ userName: `nobody-${i}`, password: 'wrong-password' })).statusCode).toBe(401);
    }
    const agent = await world.createUser('agent');
    expect((await guesser({ userName: agent.userName, password: TEST_PASSWORD })).statusCode).toBe(429);
    // Behind the same proxy, another client signs in.
    expect((await from('192.0.2.8')({ userName: agent.userName, password: TEST_PASSWORD })).statusCode).toBe(200);
  });
});

describe('POST /v1/auth/refresh-token', () => {
  it('rotates: the new pair works, a token reused after the grace window revokes the whole session', async () => {
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

    // As if the first use were longer ago than the grace window.
    await world.db
      .update(refreshTokens)
      .set({ usedAt: sql`now() - ${`${REFRESH_GRACE_MS + 1000} milliseconds`}::interval` })
      .where(eq(refreshTokens.tokenHash, sha256(first.refreshToken)));
    const reused = await post('/v1/auth/refresh-token', { token: first.refreshToken });
    expect(reused.statusCode).toBe(401);
    expect(reused.json().status).toBe(false);
    // The newest token of the session stopped working too, and so did its access token.
    expect((await post('/v1/auth/refresh-token', { token: body.refreshToken })).statusCode).toBe(401);
    const ended = await world.app.inject({ method: 'GET', url: '/v1/auth/profile', headers: { authorization: `Bearer ${body.accessToken}` } });
    expect(ended.statusCode).toBe(401);
  });

  it('answers 10 concurrent refreshes with one token with the same new pair, which then works', async () => {
    const agent = await world.createUser('agent');
    const { refreshToken } = await world.login(agent.userName);
    const answers = await Promise.all(Array.from({ length: 10 }, () => post('/v1/auth/refresh-token', { token: refreshToken })));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(10).fill(200));
    const pairs = new Set(answers.map((a) => `${a.json().accessToken} ${a.json().refreshToken}`));
    expect(pairs.size).toBe(1);
    const { accessToken, refreshToken: next } = answers[0].json();
    const profile = await world.app.inject({ method: 'GET', url: '/v1/auth/profile', headers: { authorization: `Bearer ${accessToken}` } });
    expect(profile.statusCode).toBe(200);
    expect((await post('/v1/auth/refresh-token', { token: next })).statusCode).toBe(200);
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

  it('takes only a token it signed, unexpired, unaltered, as a Bearer token', async () => {
    const { headers } = await world.headersFor('agent');
    const token = headers.authorization.slice('Bearer '.length);
    const profile = (authorization: string) => world.app.inject({ method: 'GET', url: '/v1/auth/profile', headers: { authorization } });
    const { iat: _iat, exp: _exp, ...claims } = decodeJwt(token);
    const now = Math.floor(Date.now() / 1000);
    const [head, , signature] = token.split('.');
    const refused = {
      'another secret': `Bearer ${jwtOf({ ...claims, iat: now, exp: now + 60 }, 'another-secret')}`,
      'expired an hour ago': `Bearer ${jwtOf({ ...claims, iat: now - 3660, exp: now - 3600 }, world.jwtSecret)}`,
      'no algorithm': `Bearer ${jwtOf({ ...claims, iat: now, exp: now + 60 })}`,
      'altered claims': `Bearer ${head}.${Buffer.from(JSON.stringify({ ...decodeJwt(token), role: 'superuser' })).toString('base64url')}.${signature}`,
      'another scheme': `Basic ${token}`,
      'two tokens': `Bearer ${token} ${token}`,
      'the token alone': token,
    };
    for (const [what, authorization] of Object.entries(refused)) {
      const response = await profile(authorization);
      expect({ what, status: response.statusCode, message: response.json().message }).toEqual({ what, status: 401, message: 'Please sign in again' });
    }
    // The scheme's case does not matter (RFC 7235); the hand-made token with this secret is taken.
    expect((await profile(`bearer ${token}`)).statusCode).toBe(200);
    expect((await profile(`Bearer ${jwtOf({ ...claims, iat: now, exp: now + 60 }, world.jwtSecret)}`)).statusCode).toBe(200);
  });

  it('stops taking a token when it expires, though it was taken before', async () => {
    const { headers } = await world.headersFor('agent');
    const { iat: _iat, exp: _exp, ...claims } = decodeJwt(headers.authorization.slice('Bearer '.length));
    const exp = Math.floor(Date.now() / 1000) + 1;
    const authorization = `Bearer ${jwtOf({ ...claims, iat: exp - 60, exp }, world.jwtSecret)}`;
    const profile = () => world.app.inject({ method: 'GET', url: '/v1/auth/profile', headers: { authorization } });
    expect((await profile()).statusCode).toBe(200);
    expect((await profile()).statusCode).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, exp * 1000 - Date.now() + 20));
    expect((await profile()).statusCode).toBe(401);
  });
});
